import { ErrorBody } from '@gantry/contract';
import type { Endpoint, EndpointBody, EndpointParams, EndpointQuery, EndpointResponse } from '@gantry/contract';

/** A non-2xx answer of the API, with the human text of its `{"error": ...}` body when there is one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;

  constructor(status: number, message: string, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

type PathValues<E> = { [K in keyof EndpointParams<E>]: string | number };

/** `params` is required exactly when the endpoint's path has parameters; `body` likewise. */
type ApiOptions<E extends Endpoint> = (unknown extends EndpointParams<E>
  ? { params?: undefined }
  : { params: PathValues<E> }) &
  (unknown extends EndpointBody<E> ? { body?: undefined } : { body: EndpointBody<E> }) & {
    query?: unknown extends EndpointQuery<E> ? undefined : EndpointQuery<E>;
    signal?: AbortSignal;
  };

type OptionalArgs<E extends Endpoint> =
  unknown extends EndpointParams<E>
    ? unknown extends EndpointBody<E>
      ? [options?: ApiOptions<E>]
      : [options: ApiOptions<E>]
    : [options: ApiOptions<E>];

export function buildUrl(path: string, params?: Record<string, string | number>, query?: object): string {
  const filled = path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Builds the error of a failed response: the body's `error` field first, else the status line. */
export function toApiError(status: number, statusText: string, text: string): ApiError {
  const body = ErrorBody.safeParse(parseJson(text));
  if (body.success && body.data.error) return new ApiError(status, body.data.error, body.data.code);
  const statusLine = `${status} ${statusText}`.trim();
  return new ApiError(status, statusLine === String(status) ? `Request failed with status ${status}` : statusLine);
}

/** Calls one contract endpoint: fills the path, sends JSON with the session cookie, parses the response. */
export function api<E extends Endpoint>(endpoint: E, ...[options]: OptionalArgs<E>): Promise<EndpointResponse<E>> {
  return request(endpoint, options as RequestOptions | undefined);
}

/** What a request carries besides its endpoint. */
export interface RequestOptions {
  params?: Record<string, string | number>;
  query?: object;
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * `api` without its check of the options against the endpoint, for code that is generic over
 * endpoints (TypeScript cannot match options to an endpoint that is a type parameter) and types
 * what it sends from the endpoints' own types (lib/project-collection.ts).
 */
export async function request<E extends Endpoint>(
  endpoint: E,
  opts: RequestOptions | undefined,
): Promise<EndpointResponse<E>> {
  const url = buildUrl(endpoint.path, opts?.params, opts?.query);
  const hasBody = opts?.body !== undefined;
  const response = await fetch(url, {
    method: endpoint.method,
    credentials: 'include',
    headers: hasBody
      ? { Accept: 'application/json', 'Content-Type': 'application/json' }
      : { Accept: 'application/json' },
    body: hasBody ? JSON.stringify(opts?.body) : undefined,
    signal: opts?.signal,
  });
  const text = await response.text();
  if (!response.ok) throw toApiError(response.status, response.statusText, text);

  const isJson = response.headers.get('content-type')?.includes('json') ?? false;
  const parsed =
    text === ''
      ? // An empty body (204) is "nothing": schemas spell that as void or null.
        ([undefined, null].map((empty) => endpoint.response.safeParse(empty)).find((result) => result.success) ??
        endpoint.response.safeParse(undefined))
      : endpoint.response.safeParse(isJson ? parseJson(text) : text);
  if (!parsed.success) {
    throw new Error(`Unexpected response from ${endpoint.method} ${endpoint.path}: ${parsed.error.message}`);
  }
  return parsed.data as EndpointResponse<E>;
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/**
 * The text to show for a failure: the response's error field, otherwise the client's own message
 * (a network failure, for instance), otherwise the status line.
 */
export function getErrorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'Unknown error';
}
