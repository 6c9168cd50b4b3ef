import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.ts';
import { createLogMatcher } from '../src/modules/tasks/log-matcher.ts';

describe('log matcher', () => {
  it('answers a pattern whose match fails inside the worker with a 400, not an unexpected error', async () => {
    const matcher = createLogMatcher({ budgetMs: 20_000, maxConcurrent: 1, maxPerUser: 1 });
    const session = matcher.open({ source: '(?:a|b)*c', flags: '' }, false, 1);
    try {
      // Backtracking over a 10 MB line overflows the regular expression's stack in the worker.
      const failure = await session.match([`${'ab'.repeat(5_000_000)}d`]).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ status: 400 });
      expect((failure as Error).message).toMatch(/^The search failed: Maximum call stack size exceeded/);
    } finally {
      session.close();
    }
    // The slot is free again and a new search works.
    const next = matcher.open({ source: 'b$', flags: '' }, false, 1);
    try {
      expect([...(await next.match(['ab', 'ba', 'b']))]).toEqual([0, 2]);
    } finally {
      next.close();
    }
  });

  it('limits the searches one user runs at once, and all of them on the server, with a 429 and Retry-After', async () => {
    const matcher = createLogMatcher({ budgetMs: 20_000, maxConcurrent: 3, maxPerUser: 2 });
    const open = (userId: number) => matcher.open({ source: 'a', flags: '' }, true, userId);
    const refusal = (userId: number) => {
      try {
        open(userId).close();
        return undefined;
      } catch (error) {
        return error;
      }
    };
    const first = [open(1), open(1)];
    // The same user, even a guest, gets no third slot; another user still searches.
    expect(refusal(1)).toMatchObject({ status: 429, retryAfterSeconds: 1, message: expect.stringMatching(/^You are/) });
    const other = open(2);
    expect([...(await other.match(['a', 'b']))]).toEqual([0]);
    // The server's cap holds across users.
    expect(refusal(3)).toMatchObject({ status: 429, retryAfterSeconds: 1, message: /^Too many log searches/ });
    other.close();
    other.close();
    expect(refusal(3)).toBeUndefined();
    for (const session of first) session.close();
    expect(refusal(1)).toBeUndefined();
  });

  it('gives the slot back when the worker cannot start', () => {
    const failing = createLogMatcher({ budgetMs: 20_000, maxConcurrent: 1, maxPerUser: 1 }, () => {
      throw new Error('no thread available');
    });
    for (let attempt = 0; attempt < 3; attempt++)
      expect(() => failing.open({ source: 'a', flags: '' }, true, 1)).toThrow('no thread available');
  });
});
