import { Fragment, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { TERRAFORM_STATES_PER_PAGE } from '@gantry/contract';
import type { TerraformState } from '@gantry/contract';
import { ConfirmDialog, confirmItem } from '../../../components/confirm-dialog.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { getErrorMessage, isApiError } from '../../../lib/api-client.ts';
import { DASH, formatDate } from '../../../lib/format-date.ts';
import { stateQuery, statesPageQuery, useDeleteState } from '../api/terraform-queries.ts';
import { paths } from '../../../lib/paths.ts';
import { DeleteIconButton } from '../../../components/delete-icon-button.tsx';

/** The raw state of one version, loaded when its row opens; tall states scroll inside 400 px. */
function RawState({ projectId, inventoryId, stateId }: { projectId: number; inventoryId: number; stateId: number }) {
  const { t } = useTranslation();
  const state = useQuery(stateQuery(projectId, inventoryId, stateId));
  if (state.isPending) return <LinearProgress />;
  if (state.error)
    return (
      <Alert severity="error">
        {isApiError(state.error, 404) ? t('terraform.noState') : getErrorMessage(state.error)}
      </Alert>
    );
  let text = state.data.state ?? '';
  try {
    text = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Shown as stored.
  }
  return (
    <Box
      component="pre"
      aria-label={t('terraform.rawState')}
      sx={{ m: 0, p: 1.5, maxHeight: 400, overflow: 'auto', fontSize: 12, bgcolor: 'action.hover', borderRadius: 1 }}
    >
      {text}
    </Box>
  );
}

interface WorkspaceStatesProps {
  projectId: number;
  inventoryId: number;
  canManage: boolean;
}

/** The state history of a workspace, newest first, 20 per page. */
export function WorkspaceStates({ projectId, inventoryId, canManage }: WorkspaceStatesProps) {
  const { t, i18n } = useTranslation();
  const snackbar = useSnackbar();
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<number | null>(null);
  const states = useQuery(statesPageQuery(projectId, inventoryId, page));
  const remove = useDeleteState(projectId, inventoryId);
  const confirm = useDialogState<TerraformState>();
  const rows = states.data?.rows ?? [];
  // The server is asked for one row more than a page, so the total is known only up to the next page.
  const count = page * TERRAFORM_STATES_PER_PAGE + rows.length + (states.data?.hasMore ? 1 : 0);
  const columns = canManage ? 5 : 4;

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      {states.isFetching ? <LinearProgress sx={{ height: 2 }} /> : <div style={{ height: 2 }} />}
      <Table size="small" aria-label={t('terraform.states')}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 48 }} />
            <TableCell>{t('terraform.stateId')}</TableCell>
            <TableCell>{t('terraform.task')}</TableCell>
            <TableCell>{t('terraform.created')}</TableCell>
            {canManage ? <TableCell align="right" sx={{ width: 64 }} /> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((state) => (
            <Fragment key={state.id}>
              <TableRow hover>
                <TableCell>
                  {canManage ? (
                    <IconButton
                      size="small"
                      aria-label={t(open === state.id ? 'terraform.hideState' : 'terraform.showState', {
                        id: state.id,
                      })}
                      onClick={() => setOpen(open === state.id ? null : state.id)}
                    >
                      {open === state.id ? <KeyboardArrowDownIcon /> : <KeyboardArrowRightIcon />}
                    </IconButton>
                  ) : null}
                </TableCell>
                <TableCell>{state.id}</TableCell>
                <TableCell>
                  {state.task_id ? (
                    <Link component={RouterLink} to={paths.taskLog(projectId, state.task_id)}>
                      #{state.task_id}
                    </Link>
                  ) : (
                    DASH
                  )}
                </TableCell>
                <TableCell>{formatDate(state.created, { locale: i18n.language })}</TableCell>
                {canManage ? (
                  <TableCell align="right">
                    <DeleteIconButton
                      label={t('terraform.deleteState', { id: state.id })}
                      onClick={() => confirm.show(state)}
                    />
                  </TableCell>
                ) : null}
              </TableRow>
              {open === state.id ? (
                <TableRow>
                  <TableCell colSpan={columns} sx={{ py: 1 }}>
                    <Collapse in unmountOnExit>
                      <RawState projectId={projectId} inventoryId={inventoryId} stateId={state.id} />
                    </Collapse>
                  </TableCell>
                </TableRow>
              ) : null}
            </Fragment>
          ))}
          {states.error ? (
            <TableRow>
              <TableCell colSpan={columns}>
                <Alert severity="error">{getErrorMessage(states.error)}</Alert>
              </TableCell>
            </TableRow>
          ) : null}
          {states.isSuccess && rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns} sx={{ borderBottom: 0 }}>
                <Typography variant="body2" color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
                  {t('terraform.noState')}
                </Typography>
              </TableCell>
            </TableRow>
          ) : null}
        </TableBody>
      </Table>
      {page > 0 || states.data?.hasMore ? (
        <TablePagination
          component="div"
          count={count}
          page={page}
          onPageChange={(_event, next) => {
            setOpen(null);
            setPage(next);
          }}
          rowsPerPage={TERRAFORM_STATES_PER_PAGE}
          rowsPerPageOptions={[TERRAFORM_STATES_PER_PAGE]}
          labelDisplayedRows={({ from, to }) => `${from}–${to}`}
        />
      ) : null}
      <ConfirmDialog
        {...confirmItem(confirm, (state) => remove.mutate(state.id, { onError: snackbar.showFailure }))}
        title={t('terraform.deleteStateTitle')}
        message={t('terraform.deleteStateConfirm', { id: confirm.item?.id ?? '' })}
      />
    </Paper>
  );
}
