import type { ResourceRefs } from '@gantry/contract';

/**
 * Every address inside the app, built in one place (the routes that match them are in
 * app/routes/signed-in-routes.tsx). Links and navigations take their paths from here.
 */

/** The pages of a project that sit at /project/{id}/{page}. */
export type ProjectPage =
  | 'history'
  | 'activity'
  | 'settings'
  | 'runners'
  | 'team'
  | 'templates'
  | 'inventory'
  | 'environment'
  | 'keys'
  | 'repositories'
  | 'schedule'
  | 'integrations'
  | 'workflows';

/** The tabs of a template's page, and its form. */
export type TemplatePage = 'tasks' | 'details' | 'state' | 'edit';

/** The query parameter that opens a task's log over the current page: ?t=taskId. */
export const TASK_PARAM = 't';

export const paths = {
  home: '/',
  login: '/auth/login',
  newProject: '/project/new',
  restoreProject: '/project/restore',
  account: '/account',
  users: '/users',
  apps: '/apps',
  activeTasks: '/tasks',
  runners: '/runners',
  premiumFeatures: '/features',
  project: (projectId: number) => `/project/${projectId}`,
  projectPage: (projectId: number, page: ProjectPage) => `/project/${projectId}/${page}`,
  /** The template list, of a view or of all templates. */
  templates: (projectId: number, viewId?: number) =>
    viewId ? `/project/${projectId}/views/${viewId}/templates` : `/project/${projectId}/templates`,
  /** A template's page, within a view or all templates; a tab of it, or its form. */
  template: (projectId: number, templateId: number, { viewId, page }: { viewId?: number; page?: TemplatePage } = {}) =>
    `${paths.templates(projectId, viewId)}/${templateId}${page ? `/${page}` : ''}`,
  /** The new template form for an app, within a view or all templates. */
  newTemplate: (projectId: number, app: string, viewId?: number) =>
    `${paths.templates(projectId, viewId)}/new?app=${encodeURIComponent(app)}`,
  /** A workflow's page (its graph editor), or the form of a new one. */
  workflow: (projectId: number, workflowId: number | 'new') => `/project/${projectId}/workflows/${workflowId}`,
  workflowRun: (projectId: number, workflowId: number, runId: number) =>
    `/project/${projectId}/workflows/${workflowId}/runs/${runId}`,
  integration: (projectId: number, integrationId: number) => `/project/${projectId}/integrations/${integrationId}`,
  /** One item of a project's list, opened in its dialog (seed 001 section 2). */
  item: (projectId: number, kind: keyof ResourceRefs, itemId: number) => `/project/${projectId}/${kind}/${itemId}`,
  /** A task's log, over the project's history. */
  taskLog: (projectId: number, taskId: number) => `/project/${projectId}/history?${TASK_PARAM}=${taskId}`,
  /** Where "back" leads from a page outside projects: the last project, or home. */
  back: (lastProjectId: number | undefined | null) => (lastProjectId ? paths.project(lastProjectId) : '/'),
};
