const VERSION_PATTERN = /^(.*[^\d])?(\d+)([^\d].*)?$/;

/**
 * The version of a new build: the start version for the first build, otherwise the previous
 * version with its last number incremented, as long as it still has the start version's shape
 * (1.0.0 then 1.0.7 gives 1.0.8; a lower number never wins over the start version).
 */
export function nextBuildVersion(startVersion: string, previous: string | null): string {
  if (!previous) return startVersion;
  const start = VERSION_PATTERN.exec(startVersion);
  const last = VERSION_PATTERN.exec(previous);
  if (!start || !last) return startVersion;
  const [, startPrefix = '', startNumber = '0', startSuffix = ''] = start;
  const [, lastPrefix = '', lastNumber = '0', lastSuffix = ''] = last;
  if (startPrefix !== lastPrefix || startSuffix !== lastSuffix) return startVersion;
  const next = Math.max(Number(startNumber), Number(lastNumber) + 1);
  return `${startPrefix}${next}${startSuffix}`;
}
