import { defineConfig } from 'vitest/config';

// Browser flows drive one real server and one Chromium each; run the files one after another.
export default defineConfig({
  root: import.meta.dirname,
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // A page's first rows can take more than the default second to show on a slow machine (a navigation
    // loads its chunks and four API answers one after the other): polls wait up to 10 s.
    expect: { poll: { timeout: 10_000 } },
  },
});
