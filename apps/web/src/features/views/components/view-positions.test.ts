import { describe, expect, it } from 'vitest';
import { computeChangedPositions, moveItem } from './view-positions.ts';

const views = [
  { id: 1, position: 0 },
  { id: 2, position: 1 },
  { id: 3, position: 2 },
  { id: 4, position: 3 },
];

describe('view reordering', () => {
  it('sends only the views whose position changed', () => {
    expect(computeChangedPositions(moveItem(views, 1, 2))).toEqual({ 2: 2, 3: 1 });
    expect(computeChangedPositions(moveItem(views, 3, 0))).toEqual({ 4: 0, 1: 1, 2: 2, 3: 3 });
  });

  it('sends nothing when the order is what the server holds', () => {
    expect(computeChangedPositions(views)).toEqual({});
    expect(computeChangedPositions(moveItem(views, 2, 2))).toEqual({});
  });

  it('renumbers positions with gaps and leaves unsaved views out', () => {
    const gappy = [
      { id: 7, position: 0 },
      { id: -1, position: 1 },
      { id: 9, position: 5 },
    ];
    expect(computeChangedPositions(gappy)).toEqual({ 9: 2 });
  });

  it('ignores moves outside the list', () => {
    expect(moveItem(views, 0, 9)).toEqual(views);
    expect(moveItem(views, -1, 0)).toEqual(views);
  });
});
