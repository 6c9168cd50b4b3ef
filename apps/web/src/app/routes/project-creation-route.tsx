import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { NoProjectPage } from '../../features/projects/components/no-project-page.tsx';
import { currentUserQuery, projectsQuery } from '../../lib/shared-queries.ts';

/**
 * New and restore project are for users who may create projects. Anyone else goes to the base
 * page, or, with no project at all, learns that they have none yet and whom to ask.
 */
export function ProjectCreationRoute({ children }: { children: ReactNode }) {
  const me = useQuery(currentUserQuery);
  const projects = useQuery(projectsQuery);
  if (!me.data || !projects.data) return null;
  if (me.data.can_create_project) return children;
  if (projects.data.length === 0) return <NoProjectPage />;
  return <Navigate to="/" replace />;
}
