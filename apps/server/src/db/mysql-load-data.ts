import { Readable } from 'node:stream';

/**
 * The rows of a `LOAD DATA LOCAL INFILE`, passed as the only parameter of a query through Kysely: a
 * connection of our pool (see `enableLoadData`) streams them to the server as the "file" it asks for,
 * so the load runs on the connection (and in the transaction) the query was given to. The server's
 * request names a file; it is never read: whatever the server asks for, it gets these rows only.
 */
export class LoadDataInput {
  constructor(readonly chunks: Iterable<string>) {}
}

interface RawQueryable {
  query: (...args: unknown[]) => unknown;
}

/** Makes a pool connection run a query whose only parameter is LoadDataInput with that data. */
export function enableLoadData(connection: RawQueryable): void {
  const query = connection.query.bind(connection);
  connection.query = (...args: unknown[]) => {
    const [text, values, callback] = args;
    const data = Array.isArray(values) && values.length === 1 ? (values[0] as unknown) : undefined;
    if (typeof text === 'string' && data instanceof LoadDataInput)
      return query({ sql: text, infileStreamFactory: () => Readable.from(asBuffers(data.chunks)) }, callback);
    return query(...args);
  };
}

/** The driver writes the stream's chunks to the socket as they are: they must be bytes. */
function* asBuffers(chunks: Iterable<string>): Generator<Buffer> {
  for (const chunk of chunks) yield Buffer.from(chunk, 'utf8');
}

// LOAD DATA's escapes, with fields ending at a tab and rows at a newline: a backslash starts an escape,
// so it is doubled; a tab, a newline and NUL are written as escapes. Nothing else is special once
// backslashes are doubled (`\N`, NULL, can no longer occur).
const SPECIAL = /[\\\t\n\0]/;
const SPECIAL_ALL = /[\\\t\n\0]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\0': '\\0' };

/** A value as a field of the rows `LOAD_DATA_FORMAT` reads. */
export function loadDataText(value: string): string {
  return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (c) => ESCAPES[c] ?? c) : value;
}

/** The clauses that read rows written with `loadDataText`, fields joined by tabs, rows ended by newlines. */
export const LOAD_DATA_FORMAT =
  "character set utf8mb4 fields terminated by '\\t' escaped by '\\\\' lines terminated by '\\n'";

/**
 * The answers of a server whose `local_infile` is off: 1148 (older servers: the command is not
 * allowed), 3948 (MySQL: loading local data is disabled), 4166 (MariaDB: the local infile capability
 * is disabled).
 */
export function isLoadDataRefused(error: unknown): boolean {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return errno === 1148 || errno === 3948 || errno === 4166;
}
