import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { makeTask } from '../../../testing/task-fixtures.ts';
import { HistoryPage } from './history-page.tsx';

/** Tasks `from` down to `to`, newest first, as the history API lists them. */
const tasksFrom = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, i) => makeTask(from - i, { status: 'success' }));

describe('HistoryPage', () => {
  it('loads older tasks 200 at a time below the oldest shown, until a page comes back short', async () => {
    const fake = stubFetch({
      'GET /api/project/1/tasks/last?limit=200': () => json(200, tasksFrom(450, 251)),
      'GET /api/project/1/tasks/last?limit=200&before_id=251': () => json(200, tasksFrom(250, 51)),
      'GET /api/project/1/tasks/last?limit=200&before_id=51': () => json(200, tasksFrom(50, 1)),
    });
    renderWithProviders(
      <Routes>
        <Route path="/project/:projectId/history" element={<HistoryPage />} />
      </Routes>,
      { url: '/project/1/history' },
    );

    const loadOlder = await screen.findByRole('button', { name: 'Load older tasks' });
    expect(screen.getByText(/of 200/)).toBeTruthy();
    fireEvent.click(loadOlder);
    await waitFor(() => expect(screen.getByText(/of 400/)).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Load older tasks' }));
    await waitFor(() => expect(screen.getByText(/of 450/)).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Load older tasks' })).toBeNull();
    expect(fake.calls.map((call) => call.url).filter((url) => url.includes('/tasks/last'))).toEqual([
      '/api/project/1/tasks/last?limit=200',
      '/api/project/1/tasks/last?limit=200&before_id=251',
      '/api/project/1/tasks/last?limit=200&before_id=51',
    ]);
  });

  it('keeps the rows new tasks push off the newest page once older pages are shown', async () => {
    let newest = tasksFrom(450, 251);
    stubFetch({
      'GET /api/project/1/tasks/last?limit=200': () => json(200, newest),
      'GET /api/project/1/tasks/last?limit=200&before_id=251': () => json(200, tasksFrom(250, 51)),
    });
    const { queryClient } = renderWithProviders(
      <Routes>
        <Route path="/project/:projectId/history" element={<HistoryPage />} />
      </Routes>,
      { url: '/project/1/history' },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Load older tasks' }));
    await waitFor(() => expect(screen.getByText(/of 400/)).toBeTruthy());

    // Five new tasks: the newest page now ends at 256, and 255..251 must stay listed above 250.
    newest = tasksFrom(455, 256);
    await queryClient.invalidateQueries();
    await waitFor(() => expect(screen.getByText(/of 405/)).toBeTruthy());
  });

  it('offers no older tasks when the newest page holds the whole history', async () => {
    stubFetch({ 'GET /api/project/1/tasks/last?limit=200': () => json(200, tasksFrom(30, 1)) });
    renderWithProviders(
      <Routes>
        <Route path="/project/:projectId/history" element={<HistoryPage />} />
      </Routes>,
      { url: '/project/1/history' },
    );
    await screen.findByText(/of 30/);
    expect(screen.queryByRole('button', { name: 'Load older tasks' })).toBeNull();
  });
});
