import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { initI18n } from '../lib/i18n.ts';

await initI18n('en', 'all');

// Every test ends its own stubs of globals (fetch...) and leaves an empty page and storage behind.
afterEach(() => {
  vi.unstubAllGlobals();
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
