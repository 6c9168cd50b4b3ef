import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { AccessKey } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { ResourceListPage } from '../../../components/resource-list-page.tsx';
import { useResourceList } from '../../../components/use-resource-list.ts';
import { keysResource } from '../api/keys-queries.ts';
import { KeyDialog } from './key-dialog.tsx';

export function KeysPage() {
  const { t } = useTranslation();
  const list = useResourceList(keysResource);

  const columns: Column<AccessKey>[] = [
    {
      id: 'name',
      header: t('keys.name'),
      render: (key) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <span>{key.name}</span>
          {key.empty && key.type !== 'none' ? (
            <Chip
              label={t('keys.emptyBadge')}
              size="small"
              color="warning"
              variant="outlined"
              title={t('keys.emptyHint')}
              sx={{ height: 20, fontSize: 11 }}
            />
          ) : null}
        </Stack>
      ),
    },
    { id: 'type', header: t('keys.type'), render: (key) => t(`keys.types.${key.type}`) },
  ];

  return <ResourceListPage list={list} create={{ label: t('keys.newKey') }} columns={columns} dialog={KeyDialog} />;
}
