import { useTranslation } from 'react-i18next';
import type { Environment } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { ResourceListPage } from '../../../components/resource-list-page.tsx';
import { useResourceList } from '../../../components/use-resource-list.ts';
import { environmentsResource } from '../api/environments-queries.ts';
import { EnvironmentDialog } from './environment-dialog.tsx';

export function EnvironmentsPage() {
  const { t } = useTranslation();
  const list = useResourceList(environmentsResource);

  const columns: Column<Environment>[] = [
    { id: 'name', header: t('environments.name'), render: (environment) => environment.name },
  ];

  return <ResourceListPage list={list} columns={columns} dialog={EnvironmentDialog} />;
}
