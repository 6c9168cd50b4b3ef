import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '../testing/render.tsx';
import { DataTable } from './data-table.tsx';

interface Row {
  id: number;
  name: string;
}

const rows: Row[] = [
  { id: 1, name: 'deploy' },
  { id: 2, name: 'backup' },
];

function renderTable(list: Row[] | undefined, emptyHint?: string) {
  return renderWithProviders(
    <DataTable
      aria-label="Schedules"
      columns={[{ id: 'name', header: 'Name', render: (row: Row) => row.name }]}
      query={{ data: list, isPending: false, error: null }}
      emptyText="No schedules yet."
      emptyHint={emptyHint}
      paginated={false}
      expansion={{
        render: (row) => `Last tasks of ${row.name}`,
        toggleLabel: (row, open) => `${open ? 'Hide' : 'Show'} tasks of ${row.name}`,
      }}
    />,
  );
}

describe('data table with expandable rows', () => {
  it('opens a detail row under the toggled row only, and closes it again', () => {
    renderTable(rows);
    expect(screen.queryByText(/^Last tasks of/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Show tasks of backup' }));
    expect(screen.getByText('Last tasks of backup')).toBeTruthy();
    expect(screen.queryByText('Last tasks of deploy')).toBeNull();
    const toggle = screen.getByRole('button', { name: 'Hide tasks of backup' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    // The detail cell spans the toggle column and every data column.
    expect(screen.getByText('Last tasks of backup').closest('td')?.getAttribute('colspan')).toBe('2');

    fireEvent.click(toggle);
    expect(screen.queryByText('Last tasks of backup')).toBeNull();
  });

  it('shows the empty text with its hint across the whole row', () => {
    renderTable([], 'Create one with the button above.');
    const empty = screen.getByText('No schedules yet.');
    expect(empty.closest('td')?.getAttribute('colspan')).toBe('2');
    expect(screen.getByText('Create one with the button above.')).toBeTruthy();
  });
});
