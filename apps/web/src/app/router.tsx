import { Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { LoginPage } from '../features/auth/components/login-page.tsx';
import { DelayedProgress } from './layout/delayed-progress.tsx';
import { RouteErrorBoundary } from './layout/error-screen.tsx';
import { SignedInGate } from './routes/signed-in-gate.tsx';

/**
 * The routes the first page needs: sign-in, and the gate in front of everything else. The signed-in
 * routes (routes/signed-in-routes.tsx) and each of their screens are fetched on demand. Declarative
 * routes rather than a data router: the app loads its data with TanStack Query, and the data
 * router's loader and action machinery would cost the sign-in page about 50 KB of script.
 */
export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Suspense fallback={<DelayedProgress />}>
        <Routes>
          <Route path="/auth/login" element={<LoginPage />} />
          <Route path="*" element={<SignedInGate />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
