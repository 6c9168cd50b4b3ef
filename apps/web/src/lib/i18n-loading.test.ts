import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { initI18n, loadAppCatalogues } from './i18n.ts';

describe('catalogue loading', () => {
  afterEach(() => window.localStorage.clear());

  it('starts with the sign-in texts of the active language only; the signed-in app adds its areas', async () => {
    window.localStorage.setItem('gantry.language', 'de');
    await initI18n('de');
    const signIn = i18next.getResourceBundle('de', 'translation') as Record<string, unknown>;
    expect(Object.keys(signIn)).toEqual(expect.arrayContaining(['auth', 'account', 'sso']));
    expect(signIn.templates).toBeUndefined();
    expect(signIn.schedules).toBeUndefined();
    expect(i18next.language).toBe('de');

    await loadAppCatalogues();
    const app = i18next.getResourceBundle('de', 'translation') as Record<string, unknown>;
    expect(Object.keys(app)).toEqual(
      expect.arrayContaining([
        'auth',
        'templates',
        'schedules',
        'tasks',
        'terraform',
        'integrations',
        'backup',
        'runners',
      ]),
    );
  });
});
