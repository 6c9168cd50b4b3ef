import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcTestProvider, type OidcTestProvider } from '../../apps/server/test/oidc-test-provider.ts';
import { useGantry } from '../support/gantry-fixture.ts';
import { findFreePort } from '../support/server.ts';

describe('single sign-on through an OpenID provider', () => {
  let idp: OidcTestProvider;
  let idpPort = 0;
  // Gantry learns the provider's address at start, the provider learns Gantry's callback after: fix the port first.
  const gantry = useGantry(async () => {
    idpPort = await findFreePort();
    return {
      GANTRY_OIDC_PROVIDERS: JSON.stringify({
        corp: {
          display_name: 'Corp SSO',
          color: '#0b5394',
          icon: 'mdi-microsoft',
          provider_url: `http://127.0.0.1:${idpPort}`,
          client_id: 'gantry',
          client_secret: 'e2e-client-secret',
        },
      }),
    };
  });

  beforeAll(async () => {
    idp = await startOidcTestProvider({
      port: idpPort,
      clients: [
        {
          client_id: 'gantry',
          client_secret: 'e2e-client-secret',
          redirect_uris: [`${gantry.server.url}/api/auth/oidc/corp/redirect`],
        },
      ],
      accounts: {
        olivia: { email: 'olivia@example.org', name: 'Olivia Oidc', preferred_username: 'olivia' },
        clash: { email: 'admin@localhost', name: 'Clash', preferred_username: 'clash' },
      },
    });
  });
  afterAll(async () => {
    await idp?.close();
  });

  it('signs in with the provider button and lands signed in as an external user', async () => {
    const page = await gantry.newPage();
    await page.goto('/auth/login');
    const button = page.getByRole('link', { name: 'Corp SSO' });
    expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(11, 83, 148)');
    await button.click();
    await page.getByLabel('Login').fill('olivia');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === gantry.server.url && !url.pathname.startsWith('/auth/login'));
    await page.getByRole('button', { name: 'Account and settings' }).waitFor();
    const me = (await (await page.request.get('/api/user')).json()) as {
      username: string;
      name: string;
      external: boolean;
    };
    expect(me).toMatchObject({ username: 'olivia', name: 'Olivia Oidc', external: true });
    await page.context().close();
  });

  it('brings the user back to the sign-in page with the reason when the account cannot be used', async () => {
    const page = await gantry.newPage();
    await page.goto('/auth/login');
    await page.getByRole('link', { name: 'Corp SSO' }).click();
    await page.getByLabel('Login').fill('clash');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/auth\/login\?error=sso_local_user_conflict/);
    await expect
      .poll(() => page.getByText('A local account already uses this e-mail address', { exact: false }).isVisible())
      .toBe(true);
    await page.context().close();
  });
});
