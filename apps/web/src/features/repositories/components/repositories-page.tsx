import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import CallSplitIcon from '@mui/icons-material/CallSplit';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { Repository } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { ResourceListPage } from '../../../components/resource-list-page.tsx';
import { useResourceList } from '../../../components/use-resource-list.ts';
import { DASH } from '../../../lib/format-date.ts';
import { keysQuery } from '../../../lib/project-resources.ts';
import { repositoriesResource } from '../api/repositories-queries.ts';
import { isLocalUrl } from './git-url.ts';
import { RepositoryDialog } from './repository-dialog.tsx';

export function RepositoriesPage() {
  const { t } = useTranslation();
  const list = useResourceList(repositoriesResource, { linkPage: 'repositories' });
  const keys = useQuery(keysQuery(list.projectId));
  const keyNames = new Map((keys.data ?? []).map((key) => [key.id, key.name]));

  const columns: Column<Repository>[] = [
    { id: 'name', header: t('repositories.name'), render: (repository) => repository.name },
    {
      id: 'url',
      header: t('repositories.url'),
      render: (repository) => (
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Box component="code" sx={{ fontSize: 13, wordBreak: 'break-all' }}>
            {repository.git_url}
          </Box>
          {!isLocalUrl(repository.git_url) && repository.git_branch ? (
            <Chip
              size="small"
              variant="outlined"
              icon={<CallSplitIcon />}
              label={repository.git_branch}
              title={t('repositories.branch')}
              sx={{ height: 22, fontSize: 12 }}
            />
          ) : null}
        </Stack>
      ),
    },
    {
      id: 'key',
      header: t('repositories.accessKey'),
      hideBelow: 'sm',
      render: (repository) => keyNames.get(repository.ssh_key_id) ?? DASH,
    },
  ];

  return <ResourceListPage list={list} columns={columns} dialog={RepositoryDialog} />;
}
