import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import SaveOutlinedIcon from '@mui/icons-material/SaveOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import { Permission } from '@gantry/contract';
import type { Workflow, WorkflowDefinition, WorkflowStep } from '@gantry/contract';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useMenuAnchor } from '../../../components/use-menu-anchor.ts';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { paths } from '../../../lib/paths.ts';
import { templatesQuery } from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { useSaveWorkflow, validateWorkflow, workflowKeys, workflowQuery } from '../api/workflows-queries.ts';
import {
  STEP_KINDS,
  checkDraft,
  connectSteps,
  emptyDefinition,
  newStepForm,
  removeStep,
  saveStep,
  stepToForm,
} from '../workflow-draft.ts';
import type { StepForm } from '../workflow-draft.ts';
import { EdgeDialog } from './edge-dialog.tsx';
import { EdgeList } from './edge-list.tsx';
import { RunDialog } from './run-dialog.tsx';
import { StepDialog } from './step-dialog.tsx';
import { StepNode, useStepSummary } from './step-node.tsx';
import { VariablesTab } from './variables-tab.tsx';
import { WorkflowGraph } from './workflow-graph.tsx';
import { WorkflowRunsTab } from './workflow-runs-tab.tsx';
import { WorkflowVersionsTab, WorkflowYamlTab } from './workflow-file-tabs.tsx';

const TABS = ['graph', 'variables', 'runs', 'yaml', 'versions'] as const;
type EditorTab = (typeof TABS)[number];
/** Server checks wait for the editing to pause this long. */
const VALIDATE_DELAY_MS = 500;

/** /workflows/{id} (or /workflows/new): the workflow's graph editor, variables, runs, YAML and versions. */
export function WorkflowEditorPage() {
  const projectId = useProjectId();
  const param = useParams().workflowId;
  const workflowId = param === 'new' ? undefined : Number(param);
  const workflow = useQuery({
    ...workflowQuery(projectId, workflowId ?? 0),
    enabled: workflowId !== undefined && Number.isInteger(workflowId) && workflowId > 0,
  });
  if (workflowId === undefined) return <WorkflowEditor key="new" projectId={projectId} />;
  if (workflow.error) {
    return (
      <Page>
        <Alert severity="error">{getErrorMessage(workflow.error)}</Alert>
      </Page>
    );
  }
  if (!workflow.data) {
    return (
      <Page>
        <CircularProgress aria-label="…" />
      </Page>
    );
  }
  return (
    <WorkflowEditor key={`${workflow.data.id}-${workflow.data.revision}`} projectId={projectId} saved={workflow.data} />
  );
}

const definitionOf = (workflow: Workflow): WorkflowDefinition => ({
  name: workflow.name,
  description: workflow.description,
  variables: workflow.variables,
  steps: workflow.steps,
  edges: workflow.edges,
});

function WorkflowEditor({ projectId, saved }: { projectId: number; saved?: Workflow }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const access = useProjectAccess(projectId);
  const canManage = access.can(Permission.manageProjectResources);
  const canRun = access.can(Permission.runProjectTasks);
  const [searchParams, setSearchParams] = useSearchParams();
  const requestedTab = searchParams.get('tab');
  const tab: EditorTab = saved ? (TABS.find((name) => name === requestedTab) ?? 'graph') : 'graph';
  const initial = useMemo(() => (saved ? definitionOf(saved) : emptyDefinition()), [saved]);
  const [draft, setDraft] = useState<WorkflowDefinition>(initial);
  const [stepDialog, setStepDialog] = useState<{ form: StepForm; step?: WorkflowStep } | null>(null);
  const [edgeDialog, setEdgeDialog] = useState<{ initial?: { from: string; to: string } } | null>(null);
  const [runDialogOpen, setRunDialogOpen] = useState(false);
  const addMenu = useMenuAnchor();
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const save = useSaveWorkflow(projectId);
  const templates = useQuery(templatesQuery(projectId));
  const templateNames = useMemo(
    () => new Map((templates.data ?? []).map((template) => [template.id, template.name])),
    [templates.data],
  );
  const summaryOf = useStepSummary(templateNames);

  const localErrors = useMemo(() => checkDraft(draft), [draft]);
  const dirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(initial), [draft, initial]);
  const keys = useMemo(() => draft.steps.map((step) => step.key), [draft.steps]);
  const stepsByKey = useMemo(() => new Map(draft.steps.map((step) => [step.key, step])), [draft.steps]);

  // The project's rules (templates exist, survey variables, approvers) are the server's to check.
  useEffect(() => {
    if (!canManage || localErrors.length > 0) {
      setServerErrors([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      validateWorkflow(projectId, draft, controller.signal)
        .then((result) => setServerErrors(result.errors))
        .catch(() => undefined);
    }, VALIDATE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [projectId, draft, canManage, localErrors.length]);

  const errors = localErrors.length > 0 ? localErrors : serverErrors;
  const stepLabel = (key: string) => {
    const step = stepsByKey.get(key);
    return step?.name ? `${step.name} (${key})` : key;
  };

  const submitSave = () => {
    save.mutate(
      { id: saved?.id, revision: saved?.revision, body: draft },
      {
        onSuccess: async (result) => {
          snackbar.showSuccess(t('workflows.savedRevision', { name: result.name, revision: result.revision }));
          if (!saved) {
            void navigate(paths.workflow(projectId, result.id), { replace: true });
            return;
          }
          await queryClient.invalidateQueries({ queryKey: workflowKeys.one(projectId, result.id) });
        },
        onError: snackbar.showFailure,
      },
    );
  };

  const actions = (
    <>
      {saved && canRun ? (
        <Button
          variant={canManage ? 'outlined' : 'contained'}
          disableElevation
          startIcon={<PlayArrowIcon />}
          onClick={() => setRunDialogOpen(true)}
          disabled={dirty}
          title={dirty ? t('workflows.saveBeforeRun') : undefined}
        >
          {t('workflows.run')}
        </Button>
      ) : null}
      {canManage ? (
        <Button
          variant="contained"
          disableElevation
          disabled={save.isPending || !dirty || localErrors.length > 0}
          startIcon={save.isPending ? <CircularProgress size={16} color="inherit" /> : <SaveOutlinedIcon />}
          onClick={submitSave}
        >
          {t('workflows.save')}
        </Button>
      ) : null}
    </>
  );

  return (
    <Page>
      <PageHeader
        title={saved ? saved.name : t('workflows.newWorkflow')}
        backTo={paths.projectPage(projectId, 'workflows')}
        actions={actions}
      >
        {saved ? (
          <Tabs
            value={tab}
            onChange={(_, value: EditorTab) =>
              setSearchParams(value === 'graph' ? {} : { tab: value }, { replace: true })
            }
            variant="scrollable"
            allowScrollButtonsMobile
            sx={{ mt: 1, borderBottom: 1, borderColor: 'divider' }}
          >
            {TABS.map((name) => (
              <Tab key={name} value={name} label={t(`workflows.tabs.${name}`)} />
            ))}
          </Tabs>
        ) : null}
      </PageHeader>

      {tab === 'graph' || tab === 'variables' ? (
        <Stack spacing={2}>
          {saved ? (
            <Box sx={{ color: 'text.secondary', fontSize: 14 }}>
              {dirty
                ? t('workflows.unsaved', { revision: saved.revision })
                : t('workflows.atRevision', { revision: saved.revision })}
            </Box>
          ) : null}
          {tab === 'graph' ? (
            <>
              <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
                <TextField
                  label={t('workflows.name')}
                  value={draft.name}
                  onChange={(event) => setDraft({ ...draft, name: event.target.value })}
                  required
                  disabled={!canManage}
                  sx={{ flex: 1 }}
                />
                <TextField
                  label={t('workflows.description')}
                  value={draft.description}
                  onChange={(event) => setDraft({ ...draft, description: event.target.value })}
                  disabled={!canManage}
                  sx={{ flex: 2 }}
                />
              </Stack>
              {canManage ? (
                <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
                  <Button variant="outlined" startIcon={<AddIcon />} onClick={addMenu.openAt}>
                    {t('workflows.addStep')}
                  </Button>
                  <Menu {...addMenu.menuProps}>
                    {STEP_KINDS.map((kind) => (
                      <MenuItem
                        key={kind}
                        onClick={addMenu.closeThen(() => setStepDialog({ form: newStepForm(draft, kind) }))}
                      >
                        {t(`workflows.stepKinds.${kind}`)}
                      </MenuItem>
                    ))}
                  </Menu>
                  <Button
                    variant="outlined"
                    startIcon={<AddIcon />}
                    onClick={() => setEdgeDialog({})}
                    disabled={draft.steps.length < 2}
                  >
                    {t('workflows.addEdge')}
                  </Button>
                </Stack>
              ) : null}
              {draft.steps.length === 0 ? (
                <Box sx={{ color: 'text.secondary', py: 4, textAlign: 'center' }}>{t('workflows.noSteps')}</Box>
              ) : (
                <WorkflowGraph
                  keys={keys}
                  edges={draft.edges}
                  nodeLabel={(key) => t('workflows.stepNamed', { name: stepLabel(key) })}
                  renderNode={(key) => {
                    const step = stepsByKey.get(key);
                    return step ? <StepNode step={step} summary={summaryOf(step)} /> : null;
                  }}
                  onSelect={
                    canManage
                      ? (key) => {
                          const step = stepsByKey.get(key);
                          if (step) setStepDialog({ form: stepToForm(step), step });
                        }
                      : undefined
                  }
                  onConnect={canManage ? (from, to) => setEdgeDialog({ initial: { from, to } }) : undefined}
                />
              )}
              <EdgeList
                edges={draft.edges}
                stepLabel={stepLabel}
                editable={canManage}
                onChange={(edges) => setDraft({ ...draft, edges })}
              />
            </>
          ) : (
            <VariablesTab
              variables={draft.variables}
              editable={canManage}
              onChange={(variables) => setDraft({ ...draft, variables })}
            />
          )}
          {canManage && errors.length > 0 ? (
            <Alert
              severity={draft.steps.length === 0 ? 'info' : 'warning'}
              role="status"
              aria-label={t('workflows.problems')}
            >
              <Box component="ul" sx={{ m: 0, pl: 2 }}>
                {errors.map((error) => (
                  <li key={error}>{error}</li>
                ))}
              </Box>
            </Alert>
          ) : null}
        </Stack>
      ) : null}
      {saved && tab === 'runs' ? <WorkflowRunsTab projectId={projectId} workflowId={saved.id} /> : null}
      {saved && tab === 'yaml' ? <WorkflowYamlTab projectId={projectId} workflowId={saved.id} /> : null}
      {saved && tab === 'versions' ? <WorkflowVersionsTab projectId={projectId} workflowId={saved.id} /> : null}

      {stepDialog ? (
        <StepDialog
          projectId={projectId}
          initial={stepDialog.form}
          step={stepDialog.step}
          variables={draft.variables}
          onClose={() => setStepDialog(null)}
          onSave={(step) => {
            setDraft(saveStep(draft, step, stepDialog.step?.key));
            setStepDialog(null);
          }}
          onRemove={
            stepDialog.step
              ? () => {
                  if (stepDialog.step) setDraft(removeStep(draft, stepDialog.step.key));
                  setStepDialog(null);
                }
              : undefined
          }
        />
      ) : null}
      {edgeDialog ? (
        <EdgeDialog
          steps={draft.steps.map((step) => ({ key: step.key, label: stepLabel(step.key) }))}
          initial={edgeDialog.initial}
          onClose={() => setEdgeDialog(null)}
          onSave={(edge) => {
            setDraft(connectSteps(draft, edge));
            setEdgeDialog(null);
          }}
        />
      ) : null}
      {runDialogOpen && saved ? (
        <RunDialog
          projectId={projectId}
          workflowId={saved.id}
          name={saved.name}
          variables={saved.variables}
          onClose={() => setRunDialogOpen(false)}
          onStarted={(run) => void navigate(paths.workflowRun(projectId, saved.id, run.id))}
        />
      ) : null}
    </Page>
  );
}
