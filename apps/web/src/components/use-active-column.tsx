import type { UseMutationResult } from '@tanstack/react-query';
import Switch from '@mui/material/Switch';
import type { Column } from './data-table.tsx';
import { useSnackbar } from './snackbar-provider.tsx';

interface ActiveColumnOptions<T extends { id: TId; active: boolean }, TId> {
  header: string;
  /** The switch's accessible name on a row ("Active: deploy"). */
  label: (row: T) => string;
  /** Saves a row's new state (a mutation that refetches after a failure too). */
  setActive: UseMutationResult<unknown, Error, { id: TId; active: boolean }>;
  /** The caller may not switch rows. */
  disabled?: boolean;
  /**
   * The mutation shows the new state at once (an optimistic update), so the switch stays usable
   * while it saves; otherwise the row's switch waits for the answer.
   */
  optimistic?: boolean;
  /** A small switch in a narrower column, for a denser table. */
  small?: boolean;
}

/** A list's active column: a switch per row that saves at once, a failure said in a snackbar. */
export function useActiveColumn<T extends { id: TId; active: boolean }, TId>({
  header,
  label,
  setActive,
  disabled = false,
  optimistic = false,
  small = false,
}: ActiveColumnOptions<T, TId>): Column<T> {
  const snackbar = useSnackbar();
  const isSaving = (row: T) => !optimistic && setActive.isPending && setActive.variables?.id === row.id;
  return {
    id: 'active',
    header,
    width: small ? 72 : 88,
    render: (row) => (
      <Switch
        size={small ? 'small' : undefined}
        checked={row.active}
        disabled={disabled || isSaving(row)}
        onChange={(event) =>
          setActive.mutate({ id: row.id, active: event.target.checked }, { onError: snackbar.showFailure })
        }
        slotProps={{ input: { 'aria-label': label(row) } }}
      />
    ),
  };
}
