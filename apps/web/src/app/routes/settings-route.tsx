import { Navigate } from 'react-router';
import { Permission } from '@gantry/contract';
import { ProjectSettingsPage } from '../../features/projects/components/project-settings-page.tsx';
import { useProjectAccess } from '../../lib/shared-queries.ts';
import { useProjectId } from '../../lib/use-project-id.ts';
import { paths } from '../../lib/paths.ts';

/** Project settings are only for those who may update the project. */
export function SettingsRoute() {
  const projectId = useProjectId();
  const access = useProjectAccess(projectId);
  if (!access.isReady) return null;
  if (!access.can(Permission.updateProject)) return <Navigate to={paths.projectPage(projectId, 'history')} replace />;
  return <ProjectSettingsPage />;
}
