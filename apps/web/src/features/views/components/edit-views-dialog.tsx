import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ViewBody } from '@gantry/contract';
import type { View } from '@gantry/contract';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { translateValidationMessage } from '../../../lib/i18n.ts';
import { useCreateView, useDeleteView, useSetViewPositions, useUpdateView } from '../api/views-queries.ts';
import { computeChangedPositions, moveItem } from './view-positions.ts';

/** A row of the dialog; new views have a temporary negative id until saved. */
interface ViewRow {
  id: number;
  title: string;
  position: number;
  editing: boolean;
  draft: string;
  error?: string;
}

const toRows = (views: readonly View[]): ViewRow[] =>
  views.map((view) => ({ id: view.id, title: view.title, position: view.position, editing: false, draft: view.title }));

interface EditViewsDialogProps {
  open: boolean;
  projectId: number;
  views: readonly View[];
  onClose: () => void;
}

export function EditViewsDialog({ open, projectId, views, onClose }: EditViewsDialogProps) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<ViewRow[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [dragIndex, setDragIndex] = useState<number | null>(null);
  const nextTempId = useRef(-1);
  const create = useCreateView(projectId);
  const update = useUpdateView(projectId);
  const remove = useDeleteView(projectId);
  const setPositions = useSetViewPositions(projectId);
  const busy = create.isPending || update.isPending || remove.isPending || setPositions.isPending;

  useEffect(() => {
    if (!open) return;
    setRows(toRows(views));
    setFailure(null);
    // Start from the server's views each time the dialog opens; while open, the rows are the truth.
  }, [open]);

  const patch = (id: number, change: Partial<ViewRow>) =>
    setRows((current) => current.map((row) => (row.id === id ? { ...row, ...change } : row)));
  const fail = (error: unknown) => setFailure(getErrorMessage(error));

  const add = () => {
    const id = nextTempId.current;
    nextTempId.current -= 1;
    setRows((current) => [...current, { id, title: '', position: current.length, editing: true, draft: '' }]);
  };

  const save = (row: ViewRow, index: number) => {
    const parsed = ViewBody.shape.title.safeParse(row.draft);
    if (!parsed.success) {
      patch(row.id, { error: parsed.error.issues[0]?.message });
      return;
    }
    const title = parsed.data;
    setFailure(null);
    if (row.id < 0) {
      create.mutate(
        { title, position: index },
        {
          onSuccess: (view) =>
            patch(row.id, {
              id: view.id,
              title: view.title,
              draft: view.title,
              position: view.position,
              editing: false,
              error: undefined,
            }),
          onError: fail,
        },
      );
    } else {
      update.mutate(
        { viewId: row.id, title, position: row.position },
        { onSuccess: () => patch(row.id, { title, draft: title, editing: false, error: undefined }), onError: fail },
      );
    }
  };

  const cancel = (row: ViewRow) => {
    if (row.id < 0) setRows((current) => current.filter((other) => other.id !== row.id));
    // An existing view gets its saved title back.
    else patch(row.id, { editing: false, draft: row.title, error: undefined });
  };

  const deleteRow = (row: ViewRow) => {
    if (row.id < 0) {
      cancel(row);
      return;
    }
    setFailure(null);
    remove.mutate(row.id, {
      onSuccess: () => setRows((current) => current.filter((other) => other.id !== row.id)),
      onError: fail,
    });
  };

  const move = (from: number, to: number) => {
    const reordered = moveItem(rows, from, to);
    if (reordered.every((row, index) => row.id === rows[index]?.id)) return;
    setRows(reordered);
    const changes = computeChangedPositions(reordered);
    if (Object.keys(changes).length === 0) return;
    setFailure(null);
    setPositions.mutate(changes, {
      onSuccess: () =>
        setRows((current) =>
          current.map((row) =>
            changes[String(row.id)] === undefined ? row : { ...row, position: changes[String(row.id)] ?? row.position },
          ),
        ),
      onError: (error) => {
        fail(error);
        setRows(rows);
      },
    });
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="edit-views-title">
      <DialogTitle id="edit-views-title">{t('views.editTitle')}</DialogTitle>
      <DialogContent>
        {failure ? (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        ) : null}
        {rows.length === 0 ? (
          <Typography color="text.secondary" variant="body2" sx={{ py: 2 }}>
            {t('views.empty')}
          </Typography>
        ) : null}
        <List dense aria-label={t('views.listLabel')} disablePadding>
          {rows.map((row, index) => (
            <ListItem
              key={row.id}
              disableGutters
              draggable={!row.editing && !busy}
              onDragStart={(event) => {
                setDragIndex(index);
                event.dataTransfer.effectAllowed = 'move';
                event.dataTransfer.setData('text/plain', String(row.id));
              }}
              onDragOver={(event) => {
                if (dragIndex !== null) event.preventDefault();
              }}
              onDrop={(event) => {
                event.preventDefault();
                if (dragIndex !== null) move(dragIndex, index);
                setDragIndex(null);
              }}
              onDragEnd={() => setDragIndex(null)}
              data-testid={`view-row-${row.title || 'new'}`}
              sx={{
                gap: 1,
                py: 0.5,
                borderBottom: 1,
                borderColor: 'divider',
                opacity: dragIndex === index ? 0.4 : 1,
                bgcolor: row.editing ? 'action.hover' : undefined,
                borderRadius: 1,
                px: 1,
              }}
            >
              <DragIndicatorIcon
                fontSize="small"
                sx={{ color: 'text.disabled', cursor: row.editing ? 'default' : 'grab' }}
                aria-hidden
              />
              {row.editing ? (
                <TextField
                  size="small"
                  autoFocus
                  value={row.draft}
                  placeholder={t('views.titlePlaceholder')}
                  onChange={(event) => patch(row.id, { draft: event.target.value, error: undefined })}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') {
                      event.preventDefault();
                      save(row, index);
                    } else if (event.key === 'Escape') {
                      event.preventDefault();
                      event.stopPropagation();
                      cancel(row);
                    }
                  }}
                  error={row.error !== undefined}
                  helperText={row.error ? translateValidationMessage(t, row.error) : undefined}
                  slotProps={{ htmlInput: { 'aria-label': t('views.viewTitle') } }}
                  sx={{ flexGrow: 1 }}
                />
              ) : (
                <Typography sx={{ flexGrow: 1, minWidth: 0 }} noWrap>
                  {row.title}
                </Typography>
              )}
              <Stack direction="row" spacing={0.25} sx={{ flexShrink: 0 }}>
                {row.editing ? (
                  <>
                    <IconButton
                      size="small"
                      onClick={() => save(row, index)}
                      disabled={busy}
                      aria-label={t('views.saveView')}
                    >
                      <CheckIcon fontSize="small" />
                    </IconButton>
                    <IconButton
                      size="small"
                      onClick={() => cancel(row)}
                      disabled={busy}
                      aria-label={t('views.cancelEdit')}
                    >
                      <CloseIcon fontSize="small" />
                    </IconButton>
                  </>
                ) : (
                  <>
                    <IconButton
                      size="small"
                      onClick={() => move(index, index - 1)}
                      disabled={busy || index === 0}
                      aria-label={t('views.moveUp', { name: row.title })}
                    >
                      <ArrowUpwardIcon fontSize="small" />
                    </IconButton>
                    <IconButton
                      size="small"
                      onClick={() => move(index, index + 1)}
                      disabled={busy || index === rows.length - 1}
                      aria-label={t('views.moveDown', { name: row.title })}
                    >
                      <ArrowDownwardIcon fontSize="small" />
                    </IconButton>
                    <IconButton
                      size="small"
                      onClick={() => patch(row.id, { editing: true, draft: row.title })}
                      disabled={busy}
                      aria-label={t('lists.editNamed', { name: row.title })}
                    >
                      <EditOutlinedIcon fontSize="small" />
                    </IconButton>
                  </>
                )}
                <IconButton
                  size="small"
                  onClick={() => deleteRow(row)}
                  disabled={busy}
                  aria-label={t('lists.deleteNamed', { name: row.title || t('views.newView') })}
                >
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              </Stack>
            </ListItem>
          ))}
        </List>
        <Box sx={{ mt: 1.5 }}>
          <Button startIcon={<AddIcon />} onClick={add} disabled={busy}>
            {t('views.addView')}
          </Button>
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} variant="contained" disableElevation>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
