import type { z } from 'zod';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One HTTP endpoint of the wire: path, input schemas and the response allowlist, declared once. */
export interface Endpoint<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType = z.ZodType,
> {
  method: Method;
  path: string;
  params?: TParams;
  query?: TQuery;
  body?: TBody;
  response: TResponse;
  status: number;
}

/** Identity helper that keeps the literal schema types of an endpoint for inference. */
export function endpoint<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType = z.ZodType,
>(
  spec: Omit<Endpoint<TParams, TQuery, TBody, TResponse>, 'status'> & { status?: number },
): Endpoint<TParams, TQuery, TBody, TResponse> {
  return { ...spec, status: spec.status ?? 200 };
}

export type EndpointParams<E> = E extends Endpoint<infer P, z.ZodType, z.ZodType, z.ZodType> ? z.input<P> : never;
export type EndpointQuery<E> = E extends Endpoint<z.ZodType, infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
export type EndpointBody<E> = E extends Endpoint<z.ZodType, z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
export type EndpointResponse<E> = E extends Endpoint<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;
