import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { initI18n } from '../lib/i18n.ts';

await initI18n('en', 'all');

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
