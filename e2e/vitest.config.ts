import { defineConfig } from 'vitest/config';

// Browser flows drive one real server and one Chromium each; run the files one after another.
export default defineConfig({
  root: import.meta.dirname,
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
