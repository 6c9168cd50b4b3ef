/**
 * A small deterministic generator (mulberry32): the same seed gives the same numbers on every run, so a
 * fuzzed request or a generated year is the same each time.
 */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return {
    next,
    int,
    /** An index weighted towards 0, as some templates run far more often than others. */
    skewed: (below: number) => Math.min(below - 1, Math.floor(below * next() ** 2)),
    pick<T>(items: readonly T[]): T {
      const item = items[int(items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    sample<T>(items: readonly T[], count: number): T[] {
      const pool = [...items];
      const chosen: T[] = [];
      while (chosen.length < count && pool.length > 0) chosen.push(pool.splice(int(pool.length), 1)[0] as T);
      return chosen;
    },
  };
}
