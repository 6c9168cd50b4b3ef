import { Navigate, Outlet } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery } from '../../lib/shared-queries.ts';

/**
 * Above the pages of the whole server (users, active tasks, global runners): they are for admins;
 * anyone else goes to the base page.
 */
export function AdminRoute() {
  const me = useQuery(currentUserQuery);
  if (!me.data) return null;
  if (!me.data.admin) return <Navigate to="/" replace />;
  return <Outlet />;
}
