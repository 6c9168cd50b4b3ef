import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { projectsQuery } from '../../lib/shared-queries.ts';
import { storage } from '../../lib/storage.ts';
import { useProjectId } from '../../lib/use-project-id.ts';
import { NotFound } from './not-found-page.tsx';

/** Every /project/:projectId route: selects the project (remembered for next time) or says it is unknown. */
export function ProjectLayout() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const projects = useQuery(projectsQuery);
  const project = projects.data?.find((candidate) => candidate.id === projectId);

  useEffect(() => {
    if (project) storage.setLastProjectId(project.id);
  }, [project]);

  if (!projects.data) return null;
  if (!project) {
    return (
      <NotFound
        title={t('projects.notFound.title')}
        text={t('projects.notFound.text')}
        home={t('projects.notFound.back')}
      />
    );
  }
  return <Outlet />;
}
