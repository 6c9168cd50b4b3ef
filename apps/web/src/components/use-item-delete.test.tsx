import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useMutation } from '@tanstack/react-query';
import { StartButton, renderWithProviders } from '../testing/render.tsx';
import { deleteTextsOf, useItemDelete } from './use-item-delete.ts';

interface Key {
  id: number;
  name: string;
}

const deploy: Key = { id: 4, name: 'deploy' };

function Harness({ remove, onDeleted }: { remove: (id: number) => Promise<unknown>; onDeleted: () => void }) {
  const deletion = useItemDelete<Key>({
    projectId: 7,
    texts: deleteTextsOf('keys'),
    remove: useMutation({ mutationFn: remove }),
  });
  return (
    <StartButton onClick={() => deletion.request(deploy, onDeleted)} disabled={deletion.isDeleting(deploy)}>
      {deletion.element}
    </StartButton>
  );
}

describe('deleting an item of a list', () => {
  it("asks with the kind's texts, deletes the item by id and says so", async () => {
    const remove = vi.fn((_id: number) => Promise.resolve());
    const onDeleted = vi.fn();
    renderWithProviders(<Harness remove={remove} onDeleted={onDeleted} />);
    fireEvent.click(screen.getByRole('button', { name: 'start' }));
    await screen.findByRole('dialog', { name: 'Delete key?' });
    expect(screen.getByText('Key deploy will be deleted.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Key deploy deleted')).toBeTruthy();
    expect(remove).toHaveBeenCalledOnce();
    expect(remove.mock.calls[0]?.[0]).toBe(4);
    expect(onDeleted).toHaveBeenCalledOnce();
  });

  it('keeps the row waiting while its delete is under way, and leaves it alone after a failure', async () => {
    let fail: (error: Error) => void = () => undefined;
    const remove = vi.fn(() => new Promise((_resolve, reject) => (fail = reject)));
    const onDeleted = vi.fn();
    renderWithProviders(<Harness remove={remove} onDeleted={onDeleted} />);
    fireEvent.click(screen.getByRole('button', { name: 'start' }));
    await screen.findByRole('dialog', { name: 'Delete key?' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'start' }).hasAttribute('disabled')).toBe(true));
    fail(new Error('Access key is in use and cannot be deleted'));
    expect(await screen.findByText('Access key is in use and cannot be deleted')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'start' }).hasAttribute('disabled')).toBe(false));
    expect(onDeleted).not.toHaveBeenCalled();
  });
});
