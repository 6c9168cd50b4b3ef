import { Navigate, Outlet } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { NoProjectPage } from '../../features/projects/components/no-project-page.tsx';
import { currentUserQuery, projectsQuery } from '../../lib/shared-queries.ts';

/**
 * Above new and restore project: they are for users who may create projects. Anyone else goes to the base
 * page, or, with no project at all, learns that they have none yet and whom to ask.
 */
export function ProjectCreationRoute() {
  const me = useQuery(currentUserQuery);
  const projects = useQuery(projectsQuery);
  if (!me.data || !projects.data) return null;
  if (me.data.can_create_project) return <Outlet />;
  if (projects.data.length === 0) return <NoProjectPage />;
  return <Navigate to="/" replace />;
}
