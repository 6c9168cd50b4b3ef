import { useTranslation } from 'react-i18next';
import type { AccessKey } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { NameWithBadge } from '../../../components/name-with-badge.tsx';
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
        <NameWithBadge
          name={key.name}
          badge={key.empty && key.type !== 'none' ? t('keys.emptyBadge') : undefined}
          color="warning"
          title={t('keys.emptyHint')}
        />
      ),
    },
    { id: 'type', header: t('keys.type'), render: (key) => t(`keys.types.${key.type}`) },
  ];

  return <ResourceListPage list={list} columns={columns} dialog={KeyDialog} />;
}
