import { Navigate, useLocation } from 'react-router';

/** /project/:projectId opens the project's history, keeping the query string (?t=taskId). */
export function ProjectIndexRedirect() {
  const location = useLocation();
  return <Navigate to={{ pathname: 'history', search: location.search }} replace />;
}
