import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { ClientBase, QueryResult } from 'pg';
import { loadOnDemand } from '../load-on-demand.ts';

const loadCopyStreams = loadOnDemand<typeof import('pg-copy-streams')>('pg-copy-streams');

/**
 * The data of a `COPY ... FROM STDIN`, passed as the only parameter of a query through Kysely: a
 * connection of our pool (see `enableCopyIn`) sends it with PostgreSQL's copy protocol instead of as
 * a bound parameter, so the COPY runs on the connection (and in the transaction) the query was given to.
 */
export class CopyInData {
  constructor(readonly chunks: Iterable<string>) {}
}

/** Makes a pool's client run a query whose only parameter is CopyInData as a COPY FROM STDIN. */
export function enableCopyIn(client: ClientBase): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    const data = Array.isArray(values) && values.length === 1 ? (values[0] as unknown) : undefined;
    if (typeof text === 'string' && data instanceof CopyInData) return copyIn(client, text, data);
    return query(...args);
  };
}

async function copyIn(client: ClientBase, text: string, data: CopyInData): Promise<Partial<QueryResult>> {
  const stream = client.query(loadCopyStreams().from(text));
  await pipeline(Readable.from(data.chunks, { objectMode: false }), stream);
  return { command: 'COPY', rowCount: stream.rowCount, rows: [] };
}

// Text format: a backslash starts an escape, tab ends a column, newline (and CR) a row; nothing else
// is special once backslashes are doubled (so neither `\N`, NULL, nor `\.`, the end marker, can occur).
// PostgreSQL's text cannot hold a NUL character at all: it becomes U+FFFD, as bytes that are not text
// do when output is read, instead of failing the whole batch.
const SPECIAL = /[\\\t\n\r\0]/;
const SPECIAL_ALL = /[\\\t\n\r\0]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\uFFFD' };

/** A value as PostgreSQL's text can hold it: NUL, which it cannot, as U+FFFD, as COPY stores it. */
export function pgText(value: string): string {
  return value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
}

/** A value as a column of COPY's text format. */
export function copyText(value: string): string {
  return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (c) => ESCAPES[c] ?? c) : value;
}

/** Rows of COPY's text format in pieces of about `size` characters, for a stream to send. */
export function* copyChunks<T>(rows: readonly T[], row: (r: T) => string, size = 256 * 1024): Generator<string> {
  let chunk = '';
  for (const r of rows) {
    chunk += row(r);
    if (chunk.length >= size) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
