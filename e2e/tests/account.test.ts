import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { openDialog, signOut } from '../support/ui.ts';

async function openAccountPage(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account and settings' }).click();
  await page.getByRole('menuitem', { name: 'Security & API tokens' }).click();
  await page.waitForURL(/\/account$/);
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
}

/** The authenticator's side: the otpauth library, fed with the key the page shows for manual entry. */
function authenticatorFor(base32: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(base32), algorithm: 'SHA1', digits: 6, period: 30 });
}

/**
 * The code of the next 30-second step. The server accepts one step of clock drift and refuses any
 * step already spent, so this is the code an app shows a moment later, never a replay of the last one.
 */
function nextCode(totp: OTPAuth.TOTP): string {
  return totp.generate({ timestamp: Date.now() + 30_000 });
}

/** A code the app shows at none of the steps the server could accept in the next minute. */
function wrongCode(totp: OTPAuth.TOTP): string {
  const valid = new Set(
    [-30_000, 0, 30_000, 60_000].map((offset) => totp.generate({ timestamp: Date.now() + offset })),
  );
  return ['111111', '222222', '333333'].find((code) => !valid.has(code)) ?? '444444';
}

describe('account security in the browser', () => {
  const gantry = useGantry({ GANTRY_TOTP_ENABLED: 'true' });

  it('sets up TOTP with the QR dialog, signs in with a code and once with the recovery code, and turns it off with a code', async () => {
    const page = await gantry.signedInPage({ waitForUrl: /\/project\/new/ });
    await openAccountPage(page);

    const dialog = await openDialog(page, 'Set up two-factor authentication');
    const qr = dialog.getByRole('img', { name: 'QR code for the authenticator app' });
    await qr.waitFor();
    await expect
      .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    const secret = (await dialog.getByLabel('Setup key', { exact: true }).textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const totp = authenticatorFor(secret);

    await dialog.getByLabel('6-digit code').fill(totp.generate());
    await dialog.getByRole('button', { name: 'Turn on' }).click();
    await dialog.getByText('Two-factor authentication is on.').waitFor();
    const recoveryCode = (await dialog.getByLabel('Recovery code', { exact: true }).textContent()) ?? '';
    expect(recoveryCode).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){4}$/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByText(/^On since/).waitFor();
    await signOut(page);

    // Password first, then the second step asks for the code.
    await gantry.signIn(page);
    await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    await page.getByLabel('6-digit code').fill(wrongCode(totp));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid passcode' }).waitFor();
    await page.getByLabel('6-digit code').fill(nextCode(totp));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/project\/new/);
    await signOut(page);

    // Lost phone: the recovery code signs in once and turns the factor off.
    await gantry.signIn(page);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCode);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/project\/new/);
    await openAccountPage(page);

    // Set up again, then turn it off: that takes a code from the app, not just the open session.
    const again = await openDialog(page, 'Set up two-factor authentication');
    const secondApp = authenticatorFor((await again.getByLabel('Setup key', { exact: true }).textContent()) ?? '');
    await again.getByLabel('6-digit code').fill(secondApp.generate());
    await again.getByRole('button', { name: 'Turn on' }).click();
    await again.getByRole('button', { name: 'Done' }).click();
    const turnOff = await openDialog(page, 'Turn off');
    await turnOff.getByLabel('6-digit code').fill(wrongCode(secondApp));
    await turnOff.getByRole('button', { name: 'Turn off' }).click();
    await turnOff.getByText('Invalid passcode').waitFor();
    await turnOff.getByLabel('6-digit code').fill(nextCode(secondApp));
    await turnOff.getByRole('button', { name: 'Turn off' }).click();
    await page.getByText('Two-factor authentication is off.').waitFor();
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).waitFor();
    await page.context().close();
  });

  it('creates an API token shown once, uses it as a Bearer token, revokes it and sees it refused', async () => {
    const page = await gantry.signedInPage({ waitForUrl: /\/project\/new/ });
    await openAccountPage(page);

    const dialog = await openDialog(page, 'New token');
    await dialog.getByLabel('Name', { exact: true }).fill('ci pipeline');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Copy the token now: it will not be shown again.').waitFor();
    const token = (await dialog.getByLabel('Token', { exact: true }).textContent()) ?? '';
    expect(token).toMatch(/^[a-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row').filter({ hasText: 'ci pipeline' });
    await row.waitFor();
    // The list shows only the token's first characters, never the whole secret.
    expect(await page.getByText(token).count()).toBe(0);
    await row.getByText(`${token.slice(0, 8)}…`).waitFor();

    const asToken = () => fetch(`${gantry.server.url}/api/user`, { headers: { Authorization: `Bearer ${token}` } });
    const allowed = await asToken();
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({ username: gantry.server.adminLogin });

    await row.getByRole('button', { name: 'Revoke ci pipeline' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Token revoked.').waitFor();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'ci pipeline' }).count()).toBe(0);
    expect((await asToken()).status).toBe(401);
    await page.context().close();
  });
});

describe('TOTP required by the server, in the browser', () => {
  const gantry = useGantry({ GANTRY_TOTP_ENABLED: 'true', GANTRY_TOTP_REQUIRED: 'true' });

  it('makes the admin set up TOTP right after the password, then asks for a code at the next sign-in', async () => {
    const page = await gantry.signedInPage();
    await page.getByText('Your administrator requires two-factor authentication. Set it up to continue.').waitFor();
    const secret = (await page.getByLabel('Setup key', { exact: true }).textContent()) ?? '';
    const totp = authenticatorFor(secret);
    await page.getByLabel('6-digit code').fill(totp.generate());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByLabel('Recovery code', { exact: true }).waitFor();
    // Still on the sign-in page until the recovery code has been acknowledged.
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL(/\/project\/new/);
    await signOut(page);

    await gantry.signIn(page);
    await page.getByLabel('6-digit code').fill(nextCode(totp));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/project\/new/);
    await page.context().close();
  });
});
