import { useParams } from 'react-router';

/** The numeric project id of the current /project/:projectId/... route. */
export function useProjectId(): number {
  const { projectId } = useParams();
  const id = Number(projectId);
  if (!Number.isInteger(id) || id <= 0) throw new Error(`Invalid project id "${projectId ?? ''}"`);
  return id;
}
