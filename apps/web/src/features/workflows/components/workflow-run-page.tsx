import { useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ReplayIcon from '@mui/icons-material/Replay';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { Permission, workflowsApi } from '@gantry/contract';
import type { WorkflowStepRun } from '@gantry/contract';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { api, getErrorMessage } from '../../../lib/api-client.ts';
import { formatDate, formatDuration } from '../../../lib/format-date.ts';
import { TASK_PARAM, paths } from '../../../lib/paths.ts';
import { templatesQuery } from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import {
  useRetryWorkflowRun,
  useStopWorkflowRun,
  workflowKeys,
  workflowQuery,
  workflowRunQuery,
} from '../api/workflows-queries.ts';
import { RetryRunDialog } from './retry-run-dialog.tsx';
import { STEP_STATUS_COLORS, StepNode, StepStatusChip, useStepSummary } from './step-node.tsx';
import { ApprovalSection } from './approval-section.tsx';
import { StepOutputsSection } from './step-outputs-section.tsx';
import { WorkflowGraph } from './workflow-graph.tsx';
import { WorkflowRunLink } from './workflow-run-link.tsx';

/** /workflows/{id}/runs/{runId}: the run's graph with each step's status, read again while the run goes on. */
export function WorkflowRunPage() {
  const { t, i18n } = useTranslation();
  const projectId = useProjectId();
  const params = useParams();
  const location = useLocation();
  const workflowId = Number(params.workflowId);
  const runId = Number(params.runId);
  const snackbar = useSnackbar();
  const access = useProjectAccess(projectId);
  const navigate = useNavigate();
  const [confirmStop, setConfirmStop] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const run = useQuery(workflowRunQuery(projectId, workflowId, runId));
  const workflow = useQuery(workflowQuery(projectId, workflowId));
  const revision = run.data?.revision;
  // The graph the run ran: its own revision, which later saves do not change.
  const definition = useQuery({
    queryKey: [...workflowKeys.one(projectId, workflowId), 'version', revision] as const,
    queryFn: ({ signal }) =>
      api(workflowsApi.version, { params: { projectId, workflowId, version: revision ?? 0 }, signal }),
    enabled: revision !== undefined,
    staleTime: Infinity,
  });
  const templates = useQuery(templatesQuery(projectId));
  const templateNames = useMemo(
    () => new Map((templates.data ?? []).map((template) => [template.id, template.name])),
    [templates.data],
  );
  const summaryOf = useStepSummary(templateNames);
  const stop = useStopWorkflowRun(projectId, workflowId);
  const retry = useRetryWorkflowRun(projectId, workflowId);
  const steps = definition.data?.definition.steps;
  const keys = useMemo(() => (steps ?? []).map((step) => step.key), [steps]);
  const stepsByKey = useMemo(() => new Map((steps ?? []).map((step) => [step.key, step])), [steps]);
  const stepRuns = useMemo(
    () => new Map<string, WorkflowStepRun>((run.data?.steps ?? []).map((step) => [step.key, step])),
    [run.data?.steps],
  );
  const workflowPath = paths.workflow(projectId, workflowId);

  const error = run.error ?? definition.error;
  if (error) {
    return (
      <Page>
        <PageHeader title={t('workflows.runLabel', { id: runId })} backTo={workflowPath} />
        <Alert severity="error">{getErrorMessage(error)}</Alert>
      </Page>
    );
  }
  if (!run.data || !definition.data) {
    return (
      <Page>
        <CircularProgress aria-label="…" />
      </Page>
    );
  }
  const current = run.data;
  const logHref = (taskId: number) => {
    const search = new URLSearchParams(location.search);
    search.set(TASK_PARAM, String(taskId));
    return { pathname: location.pathname, search: `?${search.toString()}` };
  };

  return (
    <Page>
      <PageHeader
        title={t('workflows.runTitleOf', {
          id: current.id,
          name: workflow.data?.name ?? definition.data.definition.name,
        })}
        backTo={`${workflowPath}?tab=runs`}
        actions={
          !access.can(Permission.runProjectTasks) ? null : current.status === 'running' ? (
            <Button
              variant="outlined"
              color="error"
              startIcon={<StopCircleOutlinedIcon />}
              onClick={() => setConfirmStop(true)}
              disabled={stop.isPending}
            >
              {t('workflows.stopRun')}
            </Button>
          ) : (current.status === 'failed' || current.status === 'stopped') && current.retried_by === null ? (
            <Button variant="outlined" startIcon={<ReplayIcon />} onClick={() => setRetrying(true)}>
              {t('workflows.retryRun')}
            </Button>
          ) : null
        }
      />
      <Stack
        direction="row"
        useFlexGap
        spacing={2}
        sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2, fontSize: 14 }}
      >
        <Box aria-label={t('workflows.runStatus')} role="status">
          <StepStatusChip status={current.status} />
        </Box>
        <Box sx={{ color: 'text.secondary' }}>
          {t('workflows.runMeta', {
            start: formatDate(current.start, { locale: i18n.language }),
            duration: formatDuration([current.start, current.end], { locale: i18n.language }),
            revision: current.revision,
          })}
        </Box>
        {current.retry_of !== null ? (
          <WorkflowRunLink projectId={projectId} workflowId={workflowId} runId={current.retry_of}>
            {t('workflows.retryOf', { id: current.retry_of })}
          </WorkflowRunLink>
        ) : null}
        {current.retried_by !== null ? (
          <WorkflowRunLink projectId={projectId} workflowId={workflowId} runId={current.retried_by}>
            {t('workflows.retriedBy', { id: current.retried_by })}
          </WorkflowRunLink>
        ) : null}
      </Stack>
      {current.message ? (
        <Alert severity={current.status === 'failed' ? 'error' : 'info'} sx={{ mb: 2 }}>
          {current.message}
        </Alert>
      ) : null}
      <WorkflowGraph
        keys={keys}
        edges={definition.data.definition.edges}
        nodeLabel={(key) => {
          const status = stepRuns.get(key)?.status ?? 'pending';
          return t('workflows.stepWithStatus', { name: key, status: t(`workflows.status.${status}`) });
        }}
        nodeColor={(key) => {
          const color = STEP_STATUS_COLORS[stepRuns.get(key)?.status ?? 'pending'];
          return color === 'default' ? undefined : `${color}.main`;
        }}
        renderNode={(key) => {
          const step = stepsByKey.get(key);
          const stepRun = stepRuns.get(key);
          if (!step) return null;
          return (
            <StepNode
              step={step}
              summary={
                stepRun?.approval
                  ? t('approvals.approvalCount', {
                      approvals: stepRun.approval.approvals,
                      required: stepRun.approval.required,
                    })
                  : summaryOf(step)
              }
            >
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5, fontSize: 12 }}>
                <StepStatusChip status={stepRun?.status ?? 'pending'} />
                {stepRun?.start ? (
                  <Box component="span" sx={{ color: 'text.secondary', whiteSpace: 'nowrap' }}>
                    {formatDuration([stepRun.start, stepRun.end], { locale: i18n.language })}
                  </Box>
                ) : null}
                {stepRun?.task_id ? (
                  <Link
                    component={RouterLink}
                    to={logHref(stepRun.task_id)}
                    underline="hover"
                    aria-label={t('workflows.stepLogNamed', { name: key })}
                    sx={{ whiteSpace: 'nowrap' }}
                  >
                    {t('workflows.log')}
                  </Link>
                ) : null}
              </Stack>
            </StepNode>
          );
        }}
      />
      <ApprovalSection
        projectId={projectId}
        workflowId={workflowId}
        runId={current.id}
        steps={(steps ?? []).flatMap((step) => {
          const stepRun = stepRuns.get(step.key);
          return step.kind === 'approval' && stepRun ? [{ step, run: stepRun }] : [];
        })}
      />
      <StepOutputsSection steps={current.steps} />
      <StepMessages steps={current.steps} />
      <RetryRunDialog
        open={retrying}
        steps={current.steps}
        pending={retry.isPending}
        onClose={() => setRetrying(false)}
        onRetry={(step) =>
          retry.mutate(
            { runId: current.id, step },
            {
              onSuccess: (started) => {
                setRetrying(false);
                snackbar.showSuccess(t('workflows.runRetried', { id: current.id, retry: started.id }));
                void navigate(paths.workflowRun(projectId, workflowId, started.id));
              },
              onError: snackbar.showFailure,
            },
          )
        }
      />
      <ConfirmDialog
        open={confirmStop}
        title={t('workflows.stopRunTitle')}
        message={t('workflows.stopRunConfirm')}
        confirmLabel={t('workflows.stopRun')}
        onClose={() => setConfirmStop(false)}
        onConfirm={() => {
          setConfirmStop(false);
          stop.mutate(current.id, {
            onSuccess: () => snackbar.showSuccess(t('workflows.runStopped', { id: current.id })),
            onError: snackbar.showFailure,
          });
        }}
      />
    </Page>
  );
}

/** The steps' messages (why a step failed or was skipped), under the graph where they have room. */
function StepMessages({ steps }: { steps: readonly WorkflowStepRun[] }) {
  const withMessage = steps.filter((step) => step.message);
  if (withMessage.length === 0) return null;
  return (
    <Box component="ul" sx={{ mt: 2, pl: 2, fontSize: 14, color: 'text.secondary' }}>
      {withMessage.map((step) => (
        <li key={step.key}>
          <Box component="code" sx={{ fontSize: 13 }}>
            {step.key}
          </Box>
          : {step.message}
        </li>
      ))}
    </Box>
  );
}
