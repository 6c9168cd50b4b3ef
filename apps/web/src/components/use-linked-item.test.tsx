import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Link, Route, Routes } from 'react-router';
import { renderWithProviders } from '../testing/render.tsx';
import { useLinkedItem } from './use-linked-item.ts';

const items = [{ id: 5 }];
const canOpen = () => true;

function ItemList({ open }: { open: (item: { id: number }) => void }) {
  const { leave } = useLinkedItem({ items, ready: true, canOpen, open, listPath: '/items' });
  return (
    <>
      <Link to="/items/5">item 5</Link>
      <button type="button" onClick={leave}>
        close
      </button>
    </>
  );
}

describe('useLinkedItem', () => {
  it('opens the linked item again when it is linked again after its dialog closed', async () => {
    const open = vi.fn();
    const list = <ItemList open={open} />;
    renderWithProviders(
      <Routes>
        <Route path="/items" element={list} />
        <Route path="/items/:itemId" element={list} />
      </Routes>,
      { url: '/items/5' },
    );
    await vi.waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    fireEvent.click(screen.getByRole('button', { name: 'close' }));
    fireEvent.click(await screen.findByRole('link', { name: 'item 5' }));
    await vi.waitFor(() => expect(open).toHaveBeenCalledTimes(2));
  });
});
