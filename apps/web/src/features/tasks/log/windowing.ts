/**
 * Windowing math of the virtualized log: which lines to render for a scroll position, with a
 * fixed line height. Browsers cap an element's height (about 17.9 million px in Firefox), so past
 * MAX_SCROLL_HEIGHT the scrollbar is scaled: its range maps linearly onto the real content.
 */

/** Below every browser's element-height limit. */
const MAX_SCROLL_HEIGHT = 15_000_000;

export interface WindowInput {
  scrollTop: number;
  viewportHeight: number;
  lineHeight: number;
  count: number;
  /** Extra lines rendered above and below the viewport. */
  overscan: number;
  /** Cap of the scrollable height; tests pass small values. */
  maxScrollHeight?: number;
}

export interface LineWindow {
  /** First rendered line (inclusive). */
  start: number;
  /** Last rendered line (exclusive). */
  end: number;
  /** Offset in px of the first rendered line from the top of the scrollable content. */
  offsetTop: number;
  /** Height in px of the scrollable content. */
  scrollHeight: number;
  /** First line at least partly visible. */
  firstVisible: number;
  /** Line after the last one at least partly visible. */
  endVisible: number;
}

export function getScrollHeight(count: number, lineHeight: number, maxScrollHeight = MAX_SCROLL_HEIGHT): number {
  return Math.min(count * lineHeight, maxScrollHeight);
}

/** The real content offset (px, as if nothing were scaled) shown at the top of the viewport. */
function realTopFor(scrollTop: number, viewportHeight: number, contentHeight: number, scrollHeight: number): number {
  const maxScroll = Math.max(0, scrollHeight - viewportHeight);
  const realMax = Math.max(0, contentHeight - viewportHeight);
  if (maxScroll === 0) return 0;
  const top = Math.min(Math.max(scrollTop, 0), maxScroll);
  return scrollHeight === contentHeight ? top : (top / maxScroll) * realMax;
}

export function computeWindow({
  scrollTop,
  viewportHeight,
  lineHeight,
  count,
  overscan,
  maxScrollHeight = MAX_SCROLL_HEIGHT,
}: WindowInput): LineWindow {
  const contentHeight = count * lineHeight;
  const scrollHeight = getScrollHeight(count, lineHeight, maxScrollHeight);
  const maxScroll = Math.max(0, scrollHeight - viewportHeight);
  const clampedTop = Math.min(Math.max(scrollTop, 0), maxScroll);
  const realTop = realTopFor(clampedTop, viewportHeight, contentHeight, scrollHeight);
  const firstVisible = Math.min(count, Math.floor(realTop / lineHeight));
  const endVisible = Math.min(count, Math.ceil((realTop + viewportHeight) / lineHeight));
  const start = Math.max(0, firstVisible - overscan);
  const offsetTop = clampedTop + (start * lineHeight - realTop);
  // Rendered lines must never reach past the scrollable height, or they would grow it.
  const fitting = Math.max(0, Math.floor((scrollHeight - offsetTop) / lineHeight + 1e-6));
  const end = Math.min(count, endVisible + overscan, start + fitting);
  return { start, end, offsetTop, scrollHeight, firstVisible, endVisible };
}

/** The scrollTop that puts a line at the top of the viewport (clamped to the scroll range). */
export function scrollTopForLine(
  line: number,
  {
    viewportHeight,
    lineHeight,
    count,
    maxScrollHeight = MAX_SCROLL_HEIGHT,
  }: Omit<WindowInput, 'scrollTop' | 'overscan'>,
): number {
  const contentHeight = count * lineHeight;
  const scrollHeight = getScrollHeight(count, lineHeight, maxScrollHeight);
  const maxScroll = Math.max(0, scrollHeight - viewportHeight);
  const realMax = Math.max(0, contentHeight - viewportHeight);
  const realTop = Math.min(Math.max(line * lineHeight, 0), realMax);
  if (realMax === 0) return 0;
  return scrollHeight === contentHeight ? realTop : (realTop / realMax) * maxScroll;
}

/** True when the viewport shows the end of the content (within half a line). */
export function isAtBottom(
  scrollTop: number,
  viewportHeight: number,
  scrollHeight: number,
  lineHeight: number,
): boolean {
  return scrollTop + viewportHeight >= scrollHeight - lineHeight / 2;
}
