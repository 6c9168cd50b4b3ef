import type { ReactElement, ReactNode } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import { ColorModeProvider } from '../app/color-mode.tsx';
import { SnackbarProvider } from '../components/snackbar-provider.tsx';

/** Renders a component with the app's providers around it, at a given URL. */
export function renderWithProviders(ui: ReactElement, { url = '/' }: { url?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <ColorModeProvider>
        <SnackbarProvider>
          <MemoryRouter initialEntries={[url]}>{ui}</MemoryRouter>
        </SnackbarProvider>
      </ColorModeProvider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

interface StartButtonProps {
  onClick: () => void;
  disabled?: boolean;
  /** What the flow shows once started (its dialogs). */
  children: ReactNode;
}

/** A button named "start" that begins the flow a test drives, followed by what the flow shows. */
export function StartButton({ onClick, disabled, children }: StartButtonProps) {
  return (
    <>
      <Button onClick={onClick} disabled={disabled}>
        start
      </Button>
      {children}
    </>
  );
}

/** A fetch stand-in answering by method and path; unknown calls get a 404 like the server's. */
export function fakeFetch(routes: Record<string, (init: RequestInit | undefined) => Response>) {
  const calls: Array<{ method: string; url: string; body: unknown }> = [];
  const fetchImpl = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    const handler = routes[`${method} ${url}`];
    return Promise.resolve(handler ? handler(init) : json(404, { error: 'Not Found' }));
  };
  return { fetchImpl, calls };
}

/** Stubs the global fetch with fakeFetch's stand-in for the rest of the test; the calls it answered. */
export function stubFetch(routes: Parameters<typeof fakeFetch>[0]) {
  const { fetchImpl, calls } = fakeFetch(routes);
  vi.stubGlobal('fetch', fetchImpl);
  return { calls };
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
