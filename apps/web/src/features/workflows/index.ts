/** What the app's routes use of workflows: the list, a workflow's page (graph editor, runs) and a run's page. */
export { WorkflowsPage } from './components/workflows-page.tsx';
export { WorkflowEditorPage } from './components/workflow-editor-page.tsx';
export { WorkflowRunPage } from './components/workflow-run-page.tsx';
