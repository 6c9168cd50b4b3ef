import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitForTaskEnd } from '../support/api-client.ts';
import { saveShot } from '../support/browser.ts';
import { useGantry } from '../support/gantry-fixture.ts';

interface TableFit {
  label: string;
  /** How far the table reaches beyond its container (0 when it fits). */
  overflow: number;
  /** Headers of columns cut off or pushed outside the visible part of the page. */
  hidden: string[];
  /** The tallest body row, in pixels. */
  tallestRow: number;
}

/** Every table on the page: whether it fits its box and the window, and its tallest row. */
async function measureTables(page: Page): Promise<TableFit[]> {
  return page.$$eval('table', (tables) =>
    tables.map((table) => {
      const container = table.parentElement as HTMLElement;
      const right = Math.min(container.getBoundingClientRect().right, document.documentElement.clientWidth);
      const hidden = Array.from(table.querySelectorAll('thead th'))
        .filter((cell) => cell.getBoundingClientRect().width > 0 && cell.getBoundingClientRect().right > right + 1)
        .map((cell) => cell.textContent ?? '');
      const rows = Array.from(table.querySelectorAll('tbody > tr')).filter(
        (row) => row.querySelectorAll('td').length > 1,
      );
      return {
        label: table.getAttribute('aria-label') ?? table.querySelector('thead')?.textContent ?? '',
        overflow: Math.max(
          0,
          table.scrollWidth - container.clientWidth,
          table.getBoundingClientRect().right - document.documentElement.clientWidth,
        ),
        hidden,
        tallestRow: Math.max(0, ...rows.map((row) => row.getBoundingClientRect().height)),
      };
    }),
  );
}

describe('tables of the main pages at 1280 px, side menu open', () => {
  const gantry = useGantry();
  let page: Page;
  let base = '';
  let templateId = 0;
  let integrationId = 0;

  beforeAll(async () => {
    const scripts = await gantry.scriptsProject('Storefront platform', {
      'deploy.sh': 'echo "deploying the storefront"\nexit 0\n',
      'fail.sh': 'echo "migrating"\nexit 3\n',
    });
    const projectId = scripts.projectId;
    base = `/project/${projectId}`;
    const apiBase = `/api/project/${projectId}`;
    templateId = await scripts.createTemplate('Deploy storefront to production', {
      app: 'bash',
      playbook: 'deploy.sh',
      description: 'Ships the web shop',
    });
    const failing = await scripts.createTemplate('Migrate customer database', { app: 'bash', playbook: 'fail.sh' });
    await scripts.createTemplate('Build release candidate', {
      app: 'bash',
      playbook: 'deploy.sh',
      type: 'build',
      start_version: '1.0.0',
    });
    const key = await gantry.api<{ id: number }>('POST', `${apiBase}/keys`, {
      name: 'deploy credentials',
      type: 'login_password',
      login_password: { login: 'ci', password: 'e2e-Secret-42' },
    });
    await gantry.api('POST', `${apiBase}/inventory`, {
      name: 'production web servers',
      type: 'static',
      inventory: 'web1.example.com\nweb2.example.com\n',
      ssh_key_id: key.id,
    });
    await gantry.api('POST', `${apiBase}/environment`, {
      name: 'production settings',
      json: '{"region":"eu-west-1"}',
      env: '{"LOG_LEVEL":"info"}',
    });
    await gantry.api('POST', `${apiBase}/schedules`, {
      name: 'Nightly deploy of the storefront',
      template_id: templateId,
      cron_format: '30 2 * * 1-5',
      active: true,
    });
    integrationId = (
      await gantry.api<{ id: number }>('POST', `${apiBase}/integrations`, {
        name: 'GitHub push to main',
        template_id: templateId,
      })
    ).id;
    await gantry.api('POST', `${apiBase}/integrations/${integrationId}/values`, {
      name: 'commit',
      value_source: 'body',
      body_data_type: 'json',
      key: 'head_commit.id',
      variable: 'COMMIT_SHA',
      variable_type: 'environment',
    });
    await gantry.api('POST', `${apiBase}/integrations/${integrationId}/matchers`, {
      name: 'main branch',
      match_type: 'body',
      body_data_type: 'json',
      key: 'ref',
      method: 'equals',
      value: 'refs/heads/main',
    });
    const user = await gantry.api<{ id: number }>('POST', '/api/users', {
      name: 'Margaret Hamilton-Fitzgerald',
      username: 'margaret',
      email: 'margaret.hamilton-fitzgerald@example.com',
      password: 'margaret-Pass-1',
    });
    await gantry.api('POST', `${apiBase}/users`, { user_id: user.id, role: 'task_runner' });
    const tasks = [
      await gantry.api<{ id: number }>('POST', `${apiBase}/tasks`, {
        template_id: templateId,
        message: 'Release 2.4 with the new checkout and a longer message than usual',
      }),
      await gantry.api<{ id: number }>('POST', `${apiBase}/tasks`, { template_id: failing }),
    ];
    for (const task of tasks) await waitForTaskEnd(gantry.api, projectId, task.id);
    // Runners come after the tasks: a task placed on a runner that never connects would wait.
    await gantry.api('POST', '/api/runners', { name: 'build machine in the basement', max_parallel_tasks: 4 });
    await gantry.api('POST', `${apiBase}/runners`, { name: 'project runner', max_parallel_tasks: 2 });
    page = await gantry.signedInPage({ width: 1280 });
    await page.getByText('Storefront platform').first().waitFor();
  });

  const pages = () => [
    { path: `${base}/history`, table: 'Task' },
    { path: `${base}/activity`, table: 'Description' },
    { path: `${base}/templates`, table: 'Deploy storefront to production' },
    { path: `${base}/templates/${templateId}/tasks`, table: 'Release 2.4' },
    { path: `${base}/inventory`, table: 'production web servers' },
    { path: `${base}/environment`, table: 'production settings' },
    { path: `${base}/keys`, table: 'deploy credentials' },
    { path: `${base}/repositories`, table: 'scripts' },
    { path: `${base}/schedule`, table: 'Nightly deploy of the storefront' },
    { path: `${base}/integrations`, table: 'GitHub push to main' },
    { path: `${base}/integrations/${integrationId}`, table: 'COMMIT_SHA' },
    { path: `${base}/team`, table: 'Margaret Hamilton-Fitzgerald' },
    { path: `${base}/runners`, table: 'project runner' },
    { path: '/users', table: 'Margaret Hamilton-Fitzgerald' },
    { path: '/runners', table: 'build machine in the basement' },
    { path: '/apps', table: 'Ansible' },
    { path: '/features', table: 'Project runners' },
  ];

  /**
   * Opens each of `pages()` on `browserPage` (a window `width` px wide), waits until its table shows and the
   * page is idle, saves a screenshot when GANTRY_E2E_SHOTS names a directory, then runs `check` there.
   */
  async function forEachTablePage(
    browserPage: Page,
    width: number,
    check: (path: string, table: string) => Promise<void>,
  ): Promise<void> {
    for (const { path, table } of pages()) {
      await browserPage.goto(path);
      await browserPage.locator('table').filter({ hasText: table }).first().waitFor();
      await browserPage.waitForLoadState('networkidle');
      await saveShot(browserPage, `${width}${path.replaceAll('/', '_')}`);
      await check(path, table);
    }
  }

  it('every table fits its page: no sideways scrolling, every column visible, rows one line high', async () => {
    const problems: string[] = [];
    await forEachTablePage(page, 1280, async (path) => {
      for (const fit of await measureTables(page)) {
        if (fit.overflow > 1) problems.push(`${path}: table "${fit.label.slice(0, 40)}" is ${fit.overflow}px too wide`);
        if (fit.hidden.length > 0) problems.push(`${path}: columns ${fit.hidden.join(', ')} are outside the page`);
        if (fit.tallestRow > 64)
          problems.push(`${path}: a row of "${fit.label.slice(0, 40)}" is ${fit.tallestRow}px tall`);
      }
    });
    expect(problems).toEqual([]);
  });

  it('the template Tasks tab and History show Duration and the re-run action at 1280 px', async () => {
    await page.goto(`${base}/templates/${templateId}/tasks`);
    const tasksTable = page.locator('table').filter({ hasText: 'Release 2.4' }).first();
    await tasksTable.getByRole('columnheader', { name: 'Duration' }).waitFor();
    expect(await tasksTable.getByRole('columnheader', { name: 'Duration' }).isVisible()).toBe(true);
    const rerun = tasksTable.getByRole('link', { name: /re-?run/i }).first();
    expect(await rerun.isVisible()).toBe(true);
    const box = await rerun.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(1280);

    await page.goto(`${base}/history`);
    const history = page.locator('table').first();
    await history.getByRole('columnheader', { name: 'Duration' }).waitFor();
    const duration = await history.getByRole('columnheader', { name: 'Duration' }).boundingBox();
    expect(duration && duration.x + duration.width).toBeLessThanOrEqual(1280);
  });

  it('on a phone every main table still fits: less important columns give way, name and actions stay', async () => {
    const narrow = await gantry.signedInPage({ width: 400 });
    await narrow.getByText('Storefront platform').first().waitFor();
    const problems: string[] = [];
    await forEachTablePage(narrow, 400, async (path, table) => {
      for (const fit of await measureTables(narrow)) {
        if (fit.overflow > 1)
          problems.push(`${path}: table "${fit.label.slice(0, 40)}" is ${fit.overflow}px too wide at 400 px`);
        if (fit.hidden.length > 0)
          problems.push(`${path}: columns ${fit.hidden.join(', ')} are outside the page at 400 px`);
      }
      const firstRow = narrow
        .locator('table')
        .filter({ hasText: table })
        .first()
        .locator('tbody > tr')
        .filter({ hasText: table })
        .first();
      if ((await firstRow.count()) > 0 && !(await firstRow.getByText(table).first().isVisible()))
        problems.push(`${path}: the name "${table}" is hidden at 400 px`);
    });
    await narrow.context().close();
    expect(problems).toEqual([]);
  });
});
