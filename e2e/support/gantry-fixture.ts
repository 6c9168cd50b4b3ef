import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { adminApiClient, waitForTaskEnd, type ApiClient } from './api-client.ts';
import { describeOpenPages, launchBrowser, newPage, type PageOptions } from './browser.ts';
import { createScriptsProject, type ScriptFile, type ScriptsProject } from './scripts-project.ts';
import { startGantry, type RunningServer } from './server.ts';
import { signIn } from './ui.ts';

/** Who signs in and where the page should land; the server's admin unless `login` is given. */
interface SignInOptions {
  login?: string;
  password?: string;
  waitForUrl?: RegExp;
}

interface Credentials {
  login: string;
  password: string;
}

/** Where signing in lands once there is a project: its history. */
const PROJECT_HISTORY = /\/project\/\d+\/history/;

/** A scripts project with its templates, and the admin's page on its history (see GantryFixture.projectPage). */
interface ProjectPage<TName extends string> {
  project: ScriptsProject;
  projectId: number;
  /** The ids of the templates, by name. */
  templateIds: Record<TName, number>;
  page: Page;
}

/** A built Gantry server on a fresh store and a browser, started before a test file's tests and closed after. */
export interface GantryFixture {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** The admin's API client; it signs in on its first call. */
  readonly api: ApiClient;
  /** A new page in its own browser context, not signed in. */
  newPage(options?: PageOptions): Promise<Page>;
  /** Signs `page` in through the sign-in form (see ui.ts signIn). */
  signIn(page: Page, options?: SignInOptions): Promise<void>;
  /** A new page in its own browser context, signed in through the sign-in form. */
  signedInPage(options?: SignInOptions & PageOptions): Promise<Page>;
  /**
   * A new user `username` (email `<username>@example.com`), with the role in the project when one is
   * given; what they sign in with.
   */
  createUser(username: string, member?: { projectId: number; role: string }): Promise<Credentials>;
  /** A project on a local scripts directory (see createScriptsProject), removed after the tests. */
  scriptsProject(name: string, files: Record<string, ScriptFile>): Promise<ScriptsProject>;
  /**
   * What a test of the task pages starts from: a scripts project with a template for each entry of
   * `templates` (its name → the fields of its request, created in that order), and a new page signed in
   * as the admin, landed on the project's history.
   */
  projectPage<TName extends string>(
    name: string,
    files: Record<string, ScriptFile>,
    templates: Record<TName, Record<string, unknown>>,
    pageOptions?: PageOptions,
  ): Promise<ProjectPage<TName>>;
  /** Starts a task of the template through the API, with the extra fields of the request; returns its id. */
  startTask(projectId: number, templateId: number, fields?: Record<string, unknown>): Promise<number>;
  /**
   * Starts a task and waits for it to succeed, the way a test sets up the tasks its page shows;
   * throws when it ends otherwise. Returns its id.
   */
  runTask(projectId: number, templateId: number, fields?: Record<string, unknown>): Promise<number>;
}

type Environment = Record<string, string>;

/**
 * Registers the `beforeAll` that starts Gantry (with `env`, or the environment `env()` resolves
 * to) and launches Chromium, and the `afterAll` that closes both. Call it in a `describe` body;
 * hooks the file registers after it run once the server is up, and close before it stops.
 */
export function useGantry(env: Environment | (() => Promise<Environment>) = {}): GantryFixture {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let admin: Promise<ApiClient> | undefined;
  const scripts: ScriptsProject[] = [];

  beforeAll(async () => {
    server = await startGantry(typeof env === 'function' ? await env() : env);
    browser = await launchBrowser();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && browser)
      console.error(`After the failure:\n${await describeOpenPages(browser)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    for (const project of scripts) project.remove();
  });

  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`The Gantry fixture's ${name} is used before its beforeAll ran`);
    return value;
  };
  const api: ApiClient = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    admin ??= adminApiClient(started(server, 'server'));
    return (await admin)<T>(method, url, body);
  };

  const fixture: GantryFixture = {
    get server() {
      return started(server, 'server');
    },
    get browser() {
      return started(browser, 'browser');
    },
    api,
    newPage: (options) => newPage(fixture.browser, fixture.server.url, options),
    async signIn(page, { login, password, waitForUrl } = {}) {
      const { adminLogin, adminPassword } = fixture.server;
      await signIn(page, login ?? adminLogin, login === undefined ? adminPassword : (password ?? ''), { waitForUrl });
    },
    async signedInPage({ login, password, waitForUrl, ...pageOptions } = {}) {
      const page = await fixture.newPage(pageOptions);
      await fixture.signIn(page, { login, password, waitForUrl });
      return page;
    },
    async createUser(username, member) {
      const password = `${username}-Pass-1`;
      const user = await api<{ id: number }>('POST', '/api/users', {
        name: `${username} user`,
        username,
        email: `${username}@example.com`,
        password,
      });
      if (member) {
        await api('POST', `/api/project/${member.projectId}/users`, { user_id: user.id, role: member.role });
      }
      return { login: username, password };
    },
    async scriptsProject(name, files) {
      const project = await createScriptsProject(api, name, files);
      scripts.push(project);
      return project;
    },
    async projectPage<TName extends string>(
      name: string,
      files: Record<string, ScriptFile>,
      templates: Record<TName, Record<string, unknown>>,
      pageOptions: PageOptions = {},
    ) {
      const project = await fixture.scriptsProject(name, files);
      const templateIds = {} as Record<TName, number>;
      for (const templateName of Object.keys(templates) as TName[]) {
        templateIds[templateName] = await project.createTemplate(templateName, templates[templateName]);
      }
      const page = await fixture.signedInPage({ ...pageOptions, waitForUrl: PROJECT_HISTORY });
      return { project, projectId: project.projectId, templateIds, page };
    },
    async startTask(projectId, templateId, fields = {}) {
      const task = await api<{ id: number }>('POST', `/api/project/${projectId}/tasks`, {
        template_id: templateId,
        ...fields,
      });
      return task.id;
    },
    async runTask(projectId, templateId, fields) {
      const taskId = await fixture.startTask(projectId, templateId, fields);
      const status = await waitForTaskEnd(api, projectId, taskId);
      if (status !== 'success') throw new Error(`task ${taskId} of template ${templateId} ended ${status}`);
      return taskId;
    },
  };
  return fixture;
}
