import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { EditViewsDialog } from './edit-views-dialog.tsx';

const views = [
  { id: 1, project_id: 1, title: 'Production', position: 0 },
  { id: 2, project_id: 1, title: 'Staging', position: 1 },
  { id: 3, project_id: 1, title: 'Dev', position: 2 },
];

describe('EditViewsDialog', () => {
  it('sends only the positions that changed when a view moves', async () => {
    const { calls } = stubFetch({
      'POST /api/project/1/views/positions': () => new Response(null, { status: 204 }),
      'GET /api/project/1/views': () => json(200, views),
    });
    renderWithProviders(<EditViewsDialog open projectId={1} views={views} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Move Dev up' }));
    await waitFor(() => expect(calls.some((call) => call.url.endsWith('/views/positions'))).toBe(true));
    expect(calls.find((call) => call.url.endsWith('/views/positions'))?.body).toEqual({ 3: 1, 2: 2 });
  });

  it('requires a title before saving a new view and restores a renamed title on cancel', async () => {
    const { calls } = stubFetch({});
    renderWithProviders(<EditViewsDialog open projectId={1} views={views} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add view' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save view' }));
    expect(await screen.findByText('Title is required')).toBeTruthy();
    expect(calls).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel editing' }));

    fireEvent.click(screen.getByRole('button', { name: 'Edit Staging' }));
    fireEvent.change(screen.getByLabelText('View title'), { target: { value: 'QA' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel editing' }));
    expect(screen.getByText('Staging')).toBeTruthy();
    expect(screen.queryByText('QA')).toBeNull();
  });
});
