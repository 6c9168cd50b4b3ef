import { useCallback, useState } from 'react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListSubheader from '@mui/material/ListSubheader';
import type { ResourceRefs } from '@gantry/contract';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { useSnackbar } from './snackbar-provider.tsx';
import { paths } from '../lib/paths.ts';

type RefKind = keyof ResourceRefs;

/** The reference kinds in the order the in-use dialog lists them. */
const REF_KINDS: readonly RefKind[] = [
  'templates',
  'inventories',
  'repositories',
  'integrations',
  'schedules',
  'workflows',
];

function hasRefs(refs: ResourceRefs): boolean {
  return REF_KINDS.some((kind) => refs[kind].length > 0);
}

export interface DeleteRequest {
  /** The item's name, shown in the dialogs. */
  name: string;
  /** Title of the confirmation, e.g. "Delete key?". */
  title: string;
  /** Text of the confirmation. */
  message: ReactNode;
  /** GET {item}/refs; absent for items nothing can refer to. */
  loadRefs?: () => Promise<ResourceRefs>;
  /** DELETE on the item. */
  remove: () => Promise<unknown>;
  onDeleted?: () => void;
}

interface InUseState {
  name: string;
  refs: ResourceRefs;
}

/**
 * The delete flow every resource shares: ask what uses the item; when anything does, show those
 * users with links and offer no delete; otherwise confirm, then delete. Failures go to a red snackbar.
 */
export function useResourceDelete(projectId: number) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const [confirming, setConfirming] = useState<DeleteRequest | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [inUse, setInUse] = useState<InUseState | null>(null);
  const [inUseOpen, setInUseOpen] = useState(false);
  const [checking, setChecking] = useState(false);

  const request = useCallback(
    async (item: DeleteRequest) => {
      if (item.loadRefs) {
        setChecking(true);
        try {
          const refs = await item.loadRefs();
          if (hasRefs(refs)) {
            setInUse({ name: item.name, refs });
            setInUseOpen(true);
            return;
          }
        } catch (error) {
          snackbar.showFailure(error);
          return;
        } finally {
          setChecking(false);
        }
      }
      setConfirming(item);
      setConfirmOpen(true);
    },
    [snackbar],
  );

  const confirmed = () => {
    const item = confirming;
    if (!item) return;
    item.remove().then(() => item.onDeleted?.(), snackbar.showFailure);
  };

  const element = (
    <>
      <ConfirmDialog
        open={confirmOpen}
        title={confirming?.title ?? ''}
        message={confirming?.message ?? ''}
        onConfirm={confirmed}
        onClose={() => setConfirmOpen(false)}
      />
      <Dialog
        open={inUseOpen}
        onClose={() => setInUseOpen(false)}
        maxWidth="xs"
        fullWidth
        aria-labelledby="in-use-dialog-title"
      >
        <DialogTitle id="in-use-dialog-title">{t('refs.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('refs.message', { name: inUse?.name ?? '' })}</DialogContentText>
          {inUse
            ? REF_KINDS.filter((kind) => inUse.refs[kind].length > 0).map((kind) => (
                <List
                  key={kind}
                  dense
                  subheader={
                    <ListSubheader disableGutters sx={{ bgcolor: 'transparent', lineHeight: 2.5 }}>
                      {t(`refs.kinds.${kind}`)}
                    </ListSubheader>
                  }
                >
                  {inUse.refs[kind].map((ref) => (
                    <ListItem key={ref.id} disableGutters sx={{ py: 0.25 }}>
                      <Link
                        component={RouterLink}
                        to={paths.item(projectId, kind, ref.id)}
                        underline="hover"
                        onClick={() => setInUseOpen(false)}
                      >
                        {ref.name}
                      </Link>
                    </ListItem>
                  ))}
                </List>
              ))
            : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => setInUseOpen(false)} variant="contained" disableElevation autoFocus>
            {t('common.close')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );

  return { request, checking, element };
}
