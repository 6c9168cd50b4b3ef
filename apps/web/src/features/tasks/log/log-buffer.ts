/** One line of a task log as the output API and the websocket give it: `seq` is 0-based and consecutive. */
export interface LogLine {
  seq: number;
  time: string;
  output: string;
}

/** A half-open range of sequence numbers: [from, to). */
export interface SeqRange {
  from: number;
  to: number;
}

/** Lines per output request and per chunk of the buffer. */
export const LOG_PAGE_SIZE = 5000;

interface Chunk {
  outputs: Array<string | undefined>;
  /** Epoch milliseconds of each line. */
  times: Float64Array;
  filled: number;
}

/**
 * The lines of one task log known to the browser, kept in fixed-size chunks indexed by sequence
 * number so that a million-line log costs only what has been loaded, in any order (the first
 * page, the tail, whatever the user scrolls to, live lines). A line that is already there is
 * never stored twice.
 */
export class LogBuffer {
  readonly pageSize: number;
  private readonly chunks: Array<Chunk | undefined> = [];
  /** How many lines the log is known to have: one past the newest sequence number seen, or a count found by probing. */
  length = 0;
  /** How many lines are held. */
  loaded = 0;

  constructor(pageSize = LOG_PAGE_SIZE) {
    this.pageSize = pageSize;
  }

  has(seq: number): boolean {
    return this.chunks[Math.floor(seq / this.pageSize)]?.outputs[seq % this.pageSize] !== undefined;
  }

  getOutput(seq: number): string | undefined {
    return this.chunks[Math.floor(seq / this.pageSize)]?.outputs[seq % this.pageSize];
  }

  getTime(seq: number): number | undefined {
    const chunk = this.chunks[Math.floor(seq / this.pageSize)];
    const index = seq % this.pageSize;
    return chunk?.outputs[index] === undefined ? undefined : chunk.times[index];
  }

  /** Stores lines, skipping the ones already held; returns how many were new. */
  put(lines: readonly LogLine[]): number {
    let added = 0;
    for (const line of lines) {
      if (!Number.isInteger(line.seq) || line.seq < 0) continue;
      const chunkIndex = Math.floor(line.seq / this.pageSize);
      let chunk = this.chunks[chunkIndex];
      if (!chunk) {
        chunk = {
          outputs: new Array<string | undefined>(this.pageSize),
          times: new Float64Array(this.pageSize),
          filled: 0,
        };
        this.chunks[chunkIndex] = chunk;
      }
      const index = line.seq % this.pageSize;
      if (chunk.outputs[index] !== undefined) continue;
      chunk.outputs[index] = line.output;
      chunk.times[index] = Date.parse(line.time);
      chunk.filled += 1;
      added += 1;
      if (line.seq >= this.length) this.length = line.seq + 1;
    }
    this.loaded += added;
    return added;
  }

  /** Raises the known line count. */
  extendTo(count: number): void {
    if (count > this.length) this.length = count;
  }

  /**
   * Stores live lines and returns the gaps they reveal: lines after the previously known end
   * that nobody has sent (the socket joined mid-task, reconnected, or a batch skipped lines).
   * Unloaded lines before the known end are not gaps: they load when scrolled to.
   */
  appendLive(lines: readonly LogLine[]): { added: number; gaps: SeqRange[] } {
    const knownEnd = this.length;
    const added = this.put(lines);
    const newest = this.length;
    return { added, gaps: newest > knownEnd ? this.missing(knownEnd, newest) : [] };
  }

  /** True when every line of [from, to) is held. */
  isLoaded(from: number, to: number): boolean {
    return this.missing(from, to).length === 0;
  }

  /** The sub-ranges of [from, to) with lines not held. */
  missing(from: number, to: number): SeqRange[] {
    const ranges: SeqRange[] = [];
    let open: number | null = null;
    let seq = Math.max(0, from);
    while (seq < to) {
      const chunkIndex = Math.floor(seq / this.pageSize);
      const chunk = this.chunks[chunkIndex];
      const chunkEnd = Math.min(to, (chunkIndex + 1) * this.pageSize);
      if (!chunk || chunk.filled === 0) {
        open ??= seq;
        seq = chunkEnd;
        continue;
      }
      if (chunk.filled === this.pageSize) {
        if (open !== null) ranges.push({ from: open, to: seq });
        open = null;
        seq = chunkEnd;
        continue;
      }
      for (; seq < chunkEnd; seq++) {
        const held = chunk.outputs[seq % this.pageSize] !== undefined;
        if (!held) open ??= seq;
        else if (open !== null) {
          ranges.push({ from: open, to: seq });
          open = null;
        }
      }
    }
    if (open !== null) ranges.push({ from: open, to });
    return ranges;
  }
}

/** Removes from `ranges` every part covered by `taken` (both lists of half-open ranges). */
export function subtractRanges(ranges: readonly SeqRange[], taken: Iterable<SeqRange>): SeqRange[] {
  let result = [...ranges];
  for (const cut of taken) {
    const next: SeqRange[] = [];
    for (const range of result) {
      if (cut.to <= range.from || cut.from >= range.to) {
        next.push(range);
        continue;
      }
      if (cut.from > range.from) next.push({ from: range.from, to: cut.from });
      if (cut.to < range.to) next.push({ from: cut.to, to: range.to });
    }
    result = next;
  }
  return result;
}

/** Cuts ranges into pieces no longer than `size` that never cross a chunk boundary. */
export function splitRanges(ranges: readonly SeqRange[], size: number): SeqRange[] {
  const pieces: SeqRange[] = [];
  for (const range of ranges) {
    for (let from = range.from; from < range.to;) {
      const to = Math.min(range.to, (Math.floor(from / size) + 1) * size);
      pieces.push({ from, to });
      from = to;
    }
  }
  return pieces;
}
