import type { ReactNode } from 'react';
import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Permission } from '@gantry/contract';
import { Page } from '../../components/page.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ProMark } from '../../components/pro-notice.tsx';
import { projectsQuery, usePremiumFeature, useProjectAccess } from '../../lib/shared-queries.ts';
import { useProjectId } from '../../lib/use-project-id.ts';
import { paths } from '../../lib/paths.ts';

/** The project dashboard: history, hosts, log search, activity, settings and (for plain projects) runners as tabs. */
export function DashboardLayout() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const location = useLocation();
  const access = useProjectAccess(projectId);
  const projects = useQuery(projectsQuery);
  const project = projects.data?.find((candidate) => candidate.id === projectId);
  const base = paths.project(projectId);
  const current = location.pathname.slice(base.length + 1).split('/')[0] ?? 'history';

  const runnersOffered = usePremiumFeature('project_runners');

  const tabs: { value: string; label: ReactNode }[] = [
    { value: 'history', label: t('dashboard.history') },
    { value: 'hosts', label: t('dashboard.hosts') },
    { value: 'logs', label: t('dashboard.logs') },
    { value: 'activity', label: t('dashboard.activity') },
  ];
  if (access.can(Permission.updateProject)) tabs.push({ value: 'settings', label: t('dashboard.settings') });
  if (project?.type === '' && access.can(Permission.manageProjectResources)) {
    const mark = runnersOffered === false ? <ProMark label={t('runners.proMark')} /> : null;
    tabs.push({
      value: 'runners',
      label: (
        <span>
          {t('dashboard.runners')}
          {mark}
        </span>
      ),
    });
  }

  return (
    <Page>
      <PageHeader title={t('dashboard.title')}>
        <Tabs
          value={tabs.some((tab) => tab.value === current) ? current : false}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ mt: 1, borderBottom: 1, borderColor: 'divider' }}
        >
          {tabs.map((tab) => (
            <Tab
              key={tab.value}
              value={tab.value}
              component={RouterLink}
              to={`${base}/${tab.value}`}
              label={tab.label}
            />
          ))}
        </Tabs>
      </PageHeader>
      <Outlet />
    </Page>
  );
}
