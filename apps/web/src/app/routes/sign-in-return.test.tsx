import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { storage } from '../../lib/storage.ts';
import { json, renderWithProviders, stubFetch } from '../../testing/render.tsx';
import { HomeRedirect } from './home-redirect.tsx';
import { SignedInGate } from './signed-in-gate.tsx';

function WhereAmI() {
  const location = useLocation();
  return <p>at {location.pathname + location.search}</p>;
}

const RUN = '/project/3/workflows/4/runs/12';

describe('the page asked for before signing in', () => {
  it('is remembered when a signed-out visitor is sent to sign in', async () => {
    stubFetch({ 'GET /api/user': () => new Response(null, { status: 401, statusText: 'Unauthorized' }) });
    renderWithProviders(
      <Routes>
        <Route path="/auth/login" element={<WhereAmI />} />
        <Route path="*" element={<SignedInGate />} />
      </Routes>,
      { url: `${RUN}?t=5` },
    );
    expect(await screen.findByText('at /auth/login?t=5')).toBeTruthy();
    expect(storage.getReturnPath()).toBe(`${RUN}?t=5`);
  });

  it('is where the base page leads once signed in, and only once', async () => {
    stubFetch({ 'GET /api/projects': () => json(200, []) });
    storage.setReturnPath(RUN);
    renderWithProviders(
      <Routes>
        <Route path="/" element={<HomeRedirect />} />
        <Route path="*" element={<WhereAmI />} />
      </Routes>,
    );
    expect(await screen.findByText(`at ${RUN}`)).toBeTruthy();
    expect(storage.getReturnPath()).toBeNull();
  });

  it('never leads to another site', async () => {
    stubFetch({ 'GET /api/projects': () => json(200, []) });
    for (const elsewhere of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      storage.setReturnPath(elsewhere);
      expect(storage.getReturnPath()).toBeNull();
    }
    renderWithProviders(
      <Routes>
        <Route path="/" element={<HomeRedirect />} />
        <Route path="*" element={<WhereAmI />} />
      </Routes>,
    );
    expect(await screen.findByText('at /project/new')).toBeTruthy();
  });
});
