import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Link, Route, Routes } from 'react-router';
import { renderWithProviders } from '../../testing/render.tsx';
import { RouteErrorBoundary } from './error-screen.tsx';

function Broken(): never {
  throw new Error('The screen broke');
}

describe('RouteErrorBoundary', () => {
  it('shows the error screen for a screen that throws, and the next navigation leaves it', async () => {
    // React reports the caught error on the console; the screen is what matters here.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithProviders(
      <>
        <Link to="/fine">Elsewhere</Link>
        <RouteErrorBoundary>
          <Routes>
            <Route path="/broken" element={<Broken />} />
            <Route path="/fine" element={<p>All good</p>} />
          </Routes>
        </RouteErrorBoundary>
      </>,
      { url: '/broken' },
    );
    expect(await screen.findByText('The screen broke')).toBeTruthy();
    expect(screen.getByRole('alert')).toBeTruthy();

    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('All good')).toBeTruthy();
    expect(screen.queryByText('The screen broke')).toBeNull();
    consoleError.mockRestore();
  });
});
