import { lazy, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { isApiError } from '../../lib/api-client.ts';
import { loadAppCatalogues } from '../../lib/i18n.ts';
import { currentUserQuery } from '../../lib/shared-queries.ts';
import { storage } from '../../lib/storage.ts';
import { DelayedProgress } from '../layout/delayed-progress.tsx';

// The shell and its routes (menus, task log, live events) and the texts of every area are only for
// a signed-in user: fetched, together, once there is one.
const SignedInRoutes = lazy(async () => {
  const [routes] = await Promise.all([import('./signed-in-routes.tsx'), loadAppCatalogues()]);
  return { default: routes.SignedInRoutes };
});

/** Everything behind sign-in: anonymous visitors go to the sign-in page before the signed-in app is fetched. */
export function SignedInGate() {
  const location = useLocation();
  const user = useQuery(currentUserQuery);
  // The query string travels through sign-in (the sign-in page hands it back to the base page), and
  // the base page then leads to the page that was asked for.
  if (user.isError && isApiError(user.error, 401)) {
    if (location.pathname !== '/') storage.setReturnPath(location.pathname + location.search);
    return <Navigate to={{ pathname: '/auth/login', search: location.search }} replace />;
  }
  if (user.isPending) return <DelayedProgress />;
  return (
    <Suspense fallback={<DelayedProgress />}>
      <SignedInRoutes />
    </Suspense>
  );
}
