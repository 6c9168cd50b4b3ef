import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Vitest requires a default export.
export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    // Dialog tests type through user-event in jsdom: seconds on a busy 2-core CI machine.
    testTimeout: 20_000,
  },
});
