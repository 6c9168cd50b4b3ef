import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import Alert from '@mui/material/Alert';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import { getErrorMessage } from '../lib/api-client.ts';

/** Tables show 20 rows per page. */
const PAGE_SIZE = 20;

export interface Column<T> {
  id: string;
  header: ReactNode;
  render: (row: T) => ReactNode;
  align?: 'left' | 'right' | 'center';
  width?: number | string;
  /** Hidden on screens narrower than this breakpoint: the less important columns give way first. */
  hideBelow?: 'sm' | 'md' | 'lg' | 'xl';
  /**
   * Takes the width the other columns leave and cuts its single line with an ellipsis, instead of
   * pushing the table wider than the page (names, messages). Its content should carry a title.
   */
  fill?: boolean;
}

function getCellSx<T>(column: Column<T>, part: 'head' | 'body'): SxProps<Theme> {
  return {
    width: column.fill ? '100%' : column.width,
    maxWidth: column.fill ? 0 : undefined,
    minWidth: column.fill ? 96 : undefined,
    overflow: column.fill ? 'hidden' : undefined,
    textOverflow: column.fill ? 'ellipsis' : undefined,
    whiteSpace: column.fill || part === 'head' ? 'nowrap' : undefined,
    display: column.hideBelow ? { xs: 'none', [column.hideBelow]: 'table-cell' } : undefined,
  };
}

/** Rows that open a detail row beneath them (a template's or a schedule's last tasks). */
export interface RowExpansion<T> {
  render: (row: T) => ReactNode;
  /** The toggle's accessible name, closed and open ("Show tasks of deploy"). */
  toggleLabel: (row: T, open: boolean) => string;
}

/** The rows and whether they are still loading or failed to: a list query as it is, or rows made from queries. */
export type TableRows<T> = Pick<UseQueryResult<readonly T[]>, 'data' | 'isPending' | 'error'>;

type RowKey = string | number;

/** Rows with an `id` are keyed by it unless told otherwise; other rows name their key. */
type RowKeyProps<T> =
  { getRowKey: (row: T) => RowKey } | (T extends { id: RowKey } ? { getRowKey?: undefined } : never);

/** What a table shows, besides its name and its empty text. */
export type TableContentProps<T> = RowKeyProps<T> & {
  columns: readonly Column<T>[];
  query: TableRows<T>;
  /** A second, quieter line under the empty text. */
  emptyHint?: string;
  expansion?: RowExpansion<T>;
  /** Tables of project resources show every row; the others 20 per page. */
  paginated?: boolean;
};

type DataTableProps<T> = TableContentProps<T> & {
  emptyText: string;
  'aria-label'?: string;
};

/** The key of a row that has an id: the props' type allows no getRowKey for other rows. */
const keyById = (row: unknown): RowKey => (row as { id: RowKey }).id;

export function DataTable<T>({
  columns,
  query: { data: rows, isPending: loading, error },
  getRowKey = keyById,
  emptyText,
  emptyHint,
  expansion,
  paginated = true,
  ...rest
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const [expanded, setExpanded] = useState<ReadonlySet<RowKey>>(new Set());
  const columnCount = columns.length + (expansion ? 1 : 0);
  const count = rows?.length ?? 0;
  const lastPage = Math.max(0, Math.ceil(count / PAGE_SIZE) - 1);

  // Deleting the last row of the last page must not leave an empty page behind.
  useEffect(() => {
    if (page > lastPage) setPage(lastPage);
  }, [page, lastPage]);

  const visible = (paginated ? rows?.slice(page * PAGE_SIZE, page * PAGE_SIZE + PAGE_SIZE) : rows) ?? [];
  const toggle = (key: RowKey) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      {loading ? <LinearProgress sx={{ height: 2 }} /> : <div style={{ height: 2 }} />}
      <TableContainer>
        <Table size="medium" aria-label={rest['aria-label']} sx={{ '& td, & th': { py: 1 }, '& th': { py: 1.5 } }}>
          <TableHead>
            <TableRow>
              {expansion ? <TableCell padding="checkbox" /> : null}
              {columns.map((column) => (
                <TableCell key={column.id} align={column.align} sx={getCellSx(column, 'head')}>
                  {column.header}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((row) => {
              const key = getRowKey(row);
              const open = expanded.has(key);
              return (
                <Fragment key={key}>
                  <TableRow hover sx={open ? { '& > td': { borderBottom: 0 } } : undefined}>
                    {expansion ? (
                      <TableCell padding="checkbox">
                        <IconButton
                          size="small"
                          onClick={() => toggle(key)}
                          aria-expanded={open}
                          aria-label={expansion.toggleLabel(row, open)}
                        >
                          {open ? (
                            <KeyboardArrowDownIcon fontSize="small" />
                          ) : (
                            <KeyboardArrowRightIcon fontSize="small" />
                          )}
                        </IconButton>
                      </TableCell>
                    ) : null}
                    {columns.map((column) => (
                      <TableCell key={column.id} align={column.align} sx={getCellSx(column, 'body')}>
                        {column.render(row)}
                      </TableCell>
                    ))}
                  </TableRow>
                  {expansion && open ? (
                    <TableRow>
                      <TableCell colSpan={columnCount} sx={{ bgcolor: 'action.hover', py: 1, px: { xs: 1, sm: 3 } }}>
                        {expansion.render(row)}
                      </TableCell>
                    </TableRow>
                  ) : null}
                </Fragment>
              );
            })}
            {error !== undefined && error !== null ? (
              <TableRow>
                <TableCell colSpan={columnCount} sx={{ borderBottom: 0 }}>
                  <Alert severity="error">{getErrorMessage(error)}</Alert>
                </TableCell>
              </TableRow>
            ) : null}
            {!loading && !error && count === 0 ? (
              <TableRow>
                <TableCell colSpan={columnCount} sx={{ borderBottom: 0, py: 6 }}>
                  <Typography color="text.secondary" align="center" variant="body2">
                    {emptyText}
                  </Typography>
                  {emptyHint ? (
                    <Typography color="text.secondary" align="center" variant="body2" sx={{ mt: 0.5 }}>
                      {emptyHint}
                    </Typography>
                  ) : null}
                </TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
      </TableContainer>
      {paginated && count > 0 ? (
        <TablePagination
          component="div"
          count={count}
          page={Math.min(page, lastPage)}
          onPageChange={(_, next) => setPage(next)}
          rowsPerPage={PAGE_SIZE}
          rowsPerPageOptions={[]}
          labelDisplayedRows={({ from, to, count: total }) => t('table.displayedRows', { from, to, count: total })}
          getItemAriaLabel={(type) => t(`table.${type}Page`)}
        />
      ) : null}
    </Paper>
  );
}
