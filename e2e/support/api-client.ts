import type { RunningServer } from './server.ts';

/** Calls the Gantry API the way a script does; a sign-in through it keeps the session cookie for the calls after. */
export type ApiClient = <T>(method: string, url: string, body?: unknown) => Promise<T>;

/** A client for `baseUrl` that sends JSON, keeps the last session cookie and throws on any non-2xx answer. */
function apiClient(baseUrl: string): ApiClient {
  let cookie = '';
  return async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) cookie = setCookie.split(';')[0] ?? '';
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/** A client signed in as the server's admin, the way the tests set up what the page is not about. */
export async function adminApiClient(server: RunningServer): Promise<ApiClient> {
  const api = apiClient(server.url);
  await api('POST', '/api/auth/login', { auth: server.adminLogin, password: server.adminPassword });
  return api;
}

/** Polls a task until it ends (success, error or stopped) and returns that status; throws after 30 s. */
export async function waitForTaskEnd(api: ApiClient, projectId: number, taskId: number): Promise<string> {
  for (let tries = 0; tries < 150; tries++) {
    const { status } = await api<{ status: string }>('GET', `/api/project/${projectId}/tasks/${taskId}`);
    if (['success', 'error', 'stopped'].includes(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`task ${taskId} did not end in 30 s`);
}
