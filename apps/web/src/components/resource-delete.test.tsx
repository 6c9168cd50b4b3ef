import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { emptyRefs } from '@gantry/contract';
import type { ResourceRefs } from '@gantry/contract';
import { StartButton, renderWithProviders } from '../testing/render.tsx';
import { useResourceDelete } from './resource-delete.tsx';

afterEach(() => vi.restoreAllMocks());

function Harness({ refs, remove }: { refs: () => Promise<ResourceRefs>; remove: () => Promise<unknown> }) {
  const deletion = useResourceDelete(7);
  return (
    <StartButton
      onClick={() =>
        void deletion.request({
          name: 'deploy',
          title: 'Delete key?',
          message: 'Key deploy will be deleted.',
          loadRefs: refs,
          remove,
        })
      }
    >
      {deletion.element}
    </StartButton>
  );
}

describe('resource delete flow', () => {
  it('lists what uses the item, with links, and offers no delete', async () => {
    const remove = vi.fn(() => Promise.resolve());
    const refs = () =>
      Promise.resolve({
        ...emptyRefs(),
        templates: [{ id: 3, name: 'Deploy site' }],
        inventories: [{ id: 5, name: 'production' }],
      });
    renderWithProviders(<Harness refs={refs} remove={remove} />);
    fireEvent.click(screen.getByRole('button', { name: 'start' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cannot delete' });
    expect(dialog.querySelector('a[href="/project/7/templates/3"]')?.textContent).toBe('Deploy site');
    expect(dialog.querySelector('a[href="/project/7/inventories/5"]')?.textContent).toBe('production');
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(remove).not.toHaveBeenCalled();
  });

  it('confirms, deletes, and shows a failed delete in a snackbar', async () => {
    const remove = vi.fn(() => Promise.reject(new Error('Access key is in use and cannot be deleted')));
    renderWithProviders(<Harness refs={() => Promise.resolve(emptyRefs())} remove={remove} />);
    fireEvent.click(screen.getByRole('button', { name: 'start' }));
    await screen.findByRole('dialog', { name: 'Delete key?' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(remove).toHaveBeenCalledOnce());
    expect(await screen.findByText('Access key is in use and cannot be deleted')).toBeTruthy();
  });
});
