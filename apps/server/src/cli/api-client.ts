import { CliError } from './cli-context.ts';

const REQUEST_TIMEOUT_MS = 30_000;

/** The public API as a user's token sees it: JSON in and out, the server's error message on refusal. */
export function createApiClient(serverUrl: string, token: string) {
  const base = serverUrl.replace(/\/+$/, '');

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new CliError(`Cannot reach ${base}: ${cause}`);
    }
    const text = await response.text();
    if (!response.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        // not JSON: keep the text
      }
      throw new CliError(`${method} ${path} failed (${response.status}): ${message || response.statusText}`);
    }
    return { status: response.status, text };
  }

  return {
    async json<T>(method: string, path: string, body?: unknown): Promise<T> {
      const { text } = await call(method, path, body);
      return JSON.parse(text) as T;
    },
    async text(path: string): Promise<string> {
      return (await call('GET', path)).text;
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
