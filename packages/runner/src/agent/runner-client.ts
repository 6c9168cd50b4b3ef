import type { RunnerJobProgress, RunnerProgressResult, RunnerRegisterBody, RunnerState } from '@gantry/contract';
import {
  RUNNER_STARTED_AT_HEADER,
  RUNNER_TOKEN_HEADER,
  RunnerProgressResult as ProgressResultSchema,
  RunnerState as StateSchema,
} from '@gantry/contract';

/** The server cannot be reached or failed for now: try again later. */
export class ServerUnavailable extends Error {}

/** The server refused the runner (a wrong or deleted token, a bad request): retrying will not help. */
export class RunnerRefused extends Error {}

const REQUEST_TIMEOUT_MS = 30_000;

/** The runner's side of the internal protocol: plain HTTP(S) with the runner token, nothing else. */
export function createRunnerClient(
  serverUrl: string,
  token: string | undefined,
  processStartedAt = new Date().toISOString(),
) {
  const base = serverUrl.replace(/\/+$/, '');

  async function call(
    method: string,
    path: string,
    body: unknown,
    timeoutMs = REQUEST_TIMEOUT_MS,
    cancel?: AbortSignal,
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(token ? { [RUNNER_TOKEN_HEADER]: token } : {}),
          [RUNNER_STARTED_AT_HEADER]: processStartedAt,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: cancel ? AbortSignal.any([AbortSignal.timeout(timeoutMs), cancel]) : AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ServerUnavailable(
        error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error),
      );
    }
    const text = await response.text().catch(() => '');
    if (response.status >= 500 || response.status === 429 || response.status === 408)
      throw new ServerUnavailable(`the server answered ${response.status}`);
    if (!response.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        // not JSON: keep the text
      }
      throw new RunnerRefused(`The server refused the runner (${response.status}): ${message || response.statusText}`);
    }
    return text ? (JSON.parse(text) as unknown) : undefined;
  }

  return {
    async register(body: RunnerRegisterBody): Promise<string> {
      const result = (await call('POST', '/api/internal/runners', body)) as { token?: unknown };
      if (typeof result.token !== 'string') throw new RunnerRefused('The server did not return a runner token');
      return result.token;
    },
    /** Waits up to `waitSeconds` for news; `cancel` ends the wait at once (the runner is stopping). */
    async poll(waitSeconds: number, cancel?: AbortSignal): Promise<RunnerState> {
      return StateSchema.parse(
        await call(
          'GET',
          `/api/internal/runners?wait=${waitSeconds}`,
          undefined,
          REQUEST_TIMEOUT_MS + waitSeconds * 1000,
          cancel,
        ),
      );
    },
    async progress(jobs: RunnerJobProgress[]): Promise<RunnerProgressResult> {
      return ProgressResultSchema.parse(await call('PUT', '/api/internal/runners', { Jobs: jobs }));
    },
    async unregister(): Promise<void> {
      await call('DELETE', '/api/internal/runners', undefined);
    },
  };
}

export type RunnerClient = ReturnType<typeof createRunnerClient>;
