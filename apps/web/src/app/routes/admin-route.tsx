import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery } from '../../lib/shared-queries.ts';

/** Pages of the whole server (users, active tasks, global runners) are for admins; anyone else goes to the base page. */
export function AdminRoute({ children }: { children: ReactNode }) {
  const me = useQuery(currentUserQuery);
  if (!me.data) return null;
  if (!me.data.admin) return <Navigate to="/" replace />;
  return children;
}
