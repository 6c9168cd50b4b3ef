import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import { paths } from '../../../lib/paths.ts';

interface WorkflowRunLinkProps {
  projectId: number;
  workflowId: number;
  runId: number;
  children: ReactNode;
}

/** A link to a run's page: from the runs tab, and between a run and its retry. */
export function WorkflowRunLink({ projectId, workflowId, runId, children }: WorkflowRunLinkProps) {
  return (
    <Link component={RouterLink} to={paths.workflowRun(projectId, workflowId, runId)} underline="hover">
      {children}
    </Link>
  );
}
