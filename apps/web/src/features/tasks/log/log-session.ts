import { LOG_PAGE_SIZE, LogBuffer, splitRanges, subtractRanges } from './log-buffer.ts';
import type { LogLine, SeqRange } from './log-buffer.ts';

export interface LogSessionOptions {
  /** Reads stored lines with seq in [offset, offset + limit). */
  fetchLines: (offset: number, limit: number, signal: AbortSignal) => Promise<LogLine[]>;
  pageSize?: number;
  /** Lines of the very first request, which fills the first screen. */
  firstPageSize?: number;
  /** Parallel requests per round while looking for the line count. */
  probeFanout?: number;
  /** How change notifications are batched; the browser's next frame by default. */
  scheduleNotify?: (callback: () => void) => void;
}

/**
 * How many lines a log has, when all that can be asked is "does line N exist": doubles past the
 * known count until a line is missing, then narrows the bracket, `fanout` probes per round.
 * A million lines take about nine rounds of tiny requests.
 */
export async function findLineCount(
  exists: (seq: number) => Promise<boolean>,
  knownCount: number,
  fanout = 6,
): Promise<number> {
  // Invariant: line `lo` exists (or lo is -1), line `hi` does not.
  let lo = knownCount - 1;
  let hi: number | undefined;
  while (hi === undefined) {
    const base = lo + 1;
    const points = Array.from({ length: fanout }, (_, i) => Math.max(base, 1) * 2 ** (i + 1) - 1);
    const found = await Promise.all(points.map(exists));
    const firstMissing = found.indexOf(false);
    if (firstMissing === -1) lo = points.at(-1) ?? lo;
    else {
      hi = points[firstMissing];
      if (firstMissing > 0) lo = points[firstMissing - 1] ?? lo;
    }
  }
  while (hi - lo > 1) {
    const span = hi - lo;
    const points = [
      ...new Set(Array.from({ length: fanout }, (_, i) => lo + Math.round(((i + 1) * span) / (fanout + 1)))),
    ].filter((p) => p > lo && p < (hi ?? 0));
    const found = await Promise.all(points.map(exists));
    for (let i = 0; i < points.length; i++) {
      const point = points[i] ?? 0;
      if (found[i]) lo = Math.max(lo, point);
      else hi = Math.min(hi, point);
    }
  }
  return lo + 1;
}

const defaultSchedule = (callback: () => void) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(callback);
  else setTimeout(callback, 16);
};

/**
 * Loads one task's log for the virtualized view: the first page at once, then the line count,
 * then whatever range the view shows, chunk by chunk; live lines from the websocket join with
 * de-duplication, and a gap they reveal is fetched. Listeners hear about changes at most once a
 * frame, however fast lines arrive.
 */
export class TaskLogSession {
  readonly buffer: LogBuffer;
  /** The line count is exact: a short first page, or probing finished. */
  countKnown = false;
  error: unknown = null;
  private readonly options: Required<Omit<LogSessionOptions, 'pageSize'>>;
  private readonly pageSize: number;
  private readonly inflight = new Set<SeqRange>();
  private readonly controller = new AbortController();
  private readonly listeners = new Set<() => void>();
  private version = 0;
  private notifyScheduled = false;
  private started: Promise<void> | undefined;
  private tailSync: Promise<void> | undefined;
  private tailSyncAgain = false;

  constructor({
    fetchLines,
    pageSize = LOG_PAGE_SIZE,
    firstPageSize = 1000,
    probeFanout = 6,
    scheduleNotify = defaultSchedule,
  }: LogSessionOptions) {
    this.pageSize = pageSize;
    this.buffer = new LogBuffer(pageSize);
    this.options = { fetchLines, firstPageSize, probeFanout, scheduleNotify };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Changes with every batch of changes the listeners were told about (a snapshot for useSyncExternalStore). */
  getVersion = (): number => this.version;

  get loading(): boolean {
    return this.inflight.size > 0 || (this.started !== undefined && !this.countKnown && this.error === null);
  }

  /** Loads the first page, then finds the line count. */
  start(): Promise<void> {
    this.started ??= (async () => {
      // A small first request fills the first screen sooner; the rest of the chunk follows.
      const firstSize = Math.min(this.options.firstPageSize, this.pageSize);
      const first = await this.load({ from: 0, to: firstSize });
      if (first === undefined) return;
      if (first < firstSize) {
        this.countKnown = true;
        this.changed();
        return;
      }
      if (firstSize < this.pageSize) this.loadRanges([{ from: firstSize, to: this.pageSize }]);
      try {
        const count = await findLineCount(
          async (seq) =>
            this.buffer.has(seq) || (await this.options.fetchLines(seq, 1, this.controller.signal)).length > 0,
          firstSize,
          this.options.probeFanout,
        );
        this.buffer.extendTo(count);
        this.countKnown = true;
      } catch (error) {
        if (!this.controller.signal.aborted) this.error = error;
      }
      this.changed();
    })();
    return this.started;
  }

  /** Makes sure the lines of [from, to) are loaded or on their way, a whole chunk at a time. */
  ensure(from: number, to: number): void {
    const end = Math.min(to, this.buffer.length);
    if (end <= from) return;
    const wanted: SeqRange[] = [];
    for (let chunk = Math.floor(from / this.pageSize); chunk * this.pageSize < end; chunk++) {
      const chunkFrom = chunk * this.pageSize;
      const gaps = this.buffer.missing(chunkFrom, Math.min(chunkFrom + this.pageSize, this.buffer.length));
      const first = gaps[0];
      const last = gaps.at(-1);
      if (first && last) wanted.push({ from: first.from, to: last.to });
    }
    this.loadRanges(wanted);
  }

  /** Live lines: stored unless already there; lines skipped before them are fetched (the part near the tail at once). */
  appendLive(lines: readonly LogLine[]): void {
    const { added, gaps } = this.buffer.appendLive(lines);
    const lastGap = gaps.at(-1);
    if (lastGap) {
      const nearTail = lastGap.to - this.pageSize;
      this.loadRanges(
        gaps.map((gap) => ({ from: Math.max(gap.from, nearTail), to: gap.to })).filter((gap) => gap.to > gap.from),
      );
    }
    if (added > 0 || gaps.length > 0) this.changed();
  }

  /** Reads whatever was stored after the last known line (after a reconnect, or once the task finished). */
  syncTail(): Promise<void> {
    if (this.tailSync) {
      this.tailSyncAgain = true;
      return this.tailSync;
    }
    this.tailSync = (async () => {
      await this.started;
      do {
        this.tailSyncAgain = false;
        for (;;) {
          const from = this.buffer.length;
          const count = await this.load({ from, to: from + this.pageSize });
          if (count === undefined || count < this.pageSize) break;
        }
      } while (this.tailSyncAgain && !this.controller.signal.aborted);
    })().finally(() => {
      this.tailSync = undefined;
    });
    return this.tailSync;
  }

  /** Tries the failed requests again. */
  retry(): void {
    this.error = null;
    if (!this.countKnown) this.started = undefined;
    void this.start();
    this.changed();
  }

  dispose(): void {
    this.controller.abort();
    this.listeners.clear();
  }

  private loadRanges(ranges: readonly SeqRange[]): void {
    for (const range of splitRanges(subtractRanges(ranges, this.inflight), this.pageSize)) void this.load(range);
  }

  /** Fetches one range; resolves with the number of lines received, undefined on failure. */
  private async load(range: SeqRange): Promise<number | undefined> {
    this.inflight.add(range);
    this.changed();
    try {
      const lines = await this.options.fetchLines(range.from, range.to - range.from, this.controller.signal);
      this.buffer.put(lines);
      return lines.length;
    } catch (error) {
      if (!this.controller.signal.aborted) this.error = error;
      return undefined;
    } finally {
      this.inflight.delete(range);
      this.changed();
    }
  }

  private changed(): void {
    if (this.notifyScheduled) return;
    this.notifyScheduled = true;
    this.options.scheduleNotify(() => {
      this.notifyScheduled = false;
      this.version += 1;
      for (const listener of this.listeners) listener();
    });
  }
}
