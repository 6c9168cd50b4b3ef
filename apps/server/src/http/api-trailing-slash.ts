/**
 * `/api/project/1/` means `/api/project/1`: Semaphore's clients and hand-written scripts add trailing
 * slashes. Only API paths are rewritten, so the web app's own URLs and files are served as they are.
 */
export function stripApiTrailingSlash(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (!path.startsWith('/api/') || !path.endsWith('/')) return url;
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 0x2f) end -= 1;
  return path.slice(0, end) + (queryStart === -1 ? '' : url.slice(queryStart));
}
