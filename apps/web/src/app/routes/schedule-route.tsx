import { LastTasksRow } from '../../features/tasks/index.ts';
import { SchedulesPage } from '../../features/schedules/components/schedules-page.tsx';
import { useProjectId } from '../../lib/use-project-id.ts';

/** The schedules page, with the tasks area's last-tasks summary inside expanded rows. */
export function ScheduleRoute() {
  const projectId = useProjectId();
  return (
    <SchedulesPage renderLastTasks={(templateId) => <LastTasksRow projectId={projectId} templateId={templateId} />} />
  );
}
