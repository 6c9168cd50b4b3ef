import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQuery } from '../../lib/shared-queries.ts';
import { storage } from '../../lib/storage.ts';
import { paths } from '../../lib/paths.ts';

/**
 * The base page: the page a visitor asked for before signing in, else the last project (or the first)
 * when there is one, the new-project form otherwise.
 */
export function HomeRedirect() {
  const location = useLocation();
  const projects = useQuery(projectsQuery);
  const returnPath = storage.getReturnPath();
  // Forgotten once followed (an effect: a render may run twice), so the base page is itself again.
  useEffect(() => {
    if (returnPath !== null) storage.setReturnPath(null);
  }, [returnPath]);
  if (returnPath !== null) return <Navigate to={returnPath} replace />;
  if (!projects.data) return null;
  if (projects.data.length === 0)
    return <Navigate to={{ pathname: paths.newProject, search: location.search }} replace />;
  const lastId = storage.getLastProjectId();
  const project = projects.data.find((candidate) => candidate.id === lastId) ?? projects.data[0];
  return <Navigate to={{ pathname: `/project/${project?.id ?? ''}/history`, search: location.search }} replace />;
}
