import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PageOptions } from '../support/browser.ts';
import { useGantry } from '../support/gantry-fixture.ts';
import { saveShot } from '../support/browser.ts';

const PLAYBOOK = `- name: Site
  hosts: all
  gather_facts: false
  tasks:
    - name: say hello
      command: echo hello
`;

// web1 runs locally; down1 is a closed port on this machine: unreachable on purpose.
const INVENTORY = `[fleet]
web1 ansible_connection=local ansible_python_interpreter=/usr/bin/python3
down1 ansible_host=127.0.0.1 ansible_port=1 ansible_connection=ssh ansible_ssh_common_args='-o ConnectTimeout=5'
`;

interface TaskView {
  id: number;
  status: string;
  rerun_of_task_id: number | null;
  params: { limit?: string[] };
}

describe('the hosts of an ansible task', () => {
  const gantry = useGantry();
  let page: Page;
  let projectId: number;
  let firstTaskId: number;
  let rerunTaskId: number;

  const getTask = (taskId: number) => gantry.api<TaskView>('GET', `/api/project/${projectId}/tasks/${taskId}`);
  const waitForEnd = async (taskId: number) => {
    await expect
      .poll(async () => (await getTask(taskId)).status, { timeout: 90_000, interval: 500 })
      .toMatch(/^(success|error)$/);
  };

  beforeAll(async () => {
    const setup = await gantry.projectPage('Fleet', { 'site.yml': PLAYBOOK }, {});
    ({ page, projectId } = setup);
    const [key] = await gantry.api<Array<{ id: number }>>('GET', `/api/project/${projectId}/keys`);
    const inventory = await gantry.api<{ id: number }>('POST', `/api/project/${projectId}/inventory`, {
      name: 'fleet',
      type: 'static',
      inventory: INVENTORY,
      ssh_key_id: key?.id,
    });
    const templateId = await setup.project.createTemplate('Site', {
      app: 'ansible',
      playbook: 'site.yml',
      inventory_id: inventory.id,
    });
    firstTaskId = await gantry.startTask(projectId, templateId);
  }, 120_000);

  it('shows the counts per host and reruns the unreachable host with --limit set to it', async () => {
    await waitForEnd(firstTaskId);
    await page.goto(`/project/${projectId}/history?t=${firstTaskId}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Task #${firstTaskId}` }).waitFor();
    await dialog.getByLabel('Hosts by outcome').getByText('1 changed · 1 unreachable').waitFor();
    await dialog.getByRole('button', { name: 'Hosts', exact: true }).click();
    const hosts = dialog.getByRole('region', { name: 'Hosts' });
    await hosts.locator('[data-host="down1"]').getByText('1 unreachable').waitFor();
    await hosts.locator('[data-host="web1"]').getByText('1 changed').waitFor();
    await saveShot(page, 'task-hosts-view-1280');

    await dialog.getByRole('button', { name: 'Rerun failed hosts' }).click();
    const started = page.getByText(/^Task \d+ started for the failed hosts$/);
    await started.waitFor();
    rerunTaskId = Number(/Task (\d+)/.exec((await started.textContent()) ?? '')?.[1]);
    expect(rerunTaskId).toBeGreaterThan(firstTaskId);
    // The dialog now shows the new task, which names the one it repeats.
    await dialog.getByRole('heading', { name: `Task #${rerunTaskId}` }).waitFor();
    await dialog.getByRole('button', { name: `Rerun of task ${firstTaskId}` }).waitFor();
    expect(page.url()).toContain(`t=${rerunTaskId}`);

    const rerun = await getTask(rerunTaskId);
    expect(rerun).toMatchObject({ rerun_of_task_id: firstTaskId, params: { limit: ['down1'] } });
    await waitForEnd(rerunTaskId);
    // ansible ran on down1 alone: its recap names no other host.
    const log = await gantry.api<Array<{ output: string }>>(
      'GET',
      `/api/project/${projectId}/tasks/${rerunTaskId}/output`,
    );
    const recap = log.map((line) => line.output.replace(/\u001b\[[0-9;]*m/g, '')).join('\n');
    expect(recap).toContain(' --limit=down1 ./site.yml');
    expect(recap).toMatch(/down1\s+: ok=0\s+changed=0\s+unreachable=1/);
    expect(recap).not.toMatch(/web1\s+:/);
    await dialog.getByLabel('Hosts by outcome').getByText('1 unreachable').waitFor();

    // Back at the first task, the link of the history row names the rerun too.
    await dialog.getByRole('button', { name: `Rerun of task ${firstTaskId}` }).click();
    await dialog.getByRole('heading', { name: `Task #${firstTaskId}` }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('link', { name: `Rerun of task ${firstTaskId}` }).waitFor();
  });

  it('lists the hosts of the project with their last run and the ones failing most, with links to the logs', async () => {
    await page.goto(`/project/${projectId}/history`);
    await page.getByRole('tab', { name: 'Hosts' }).click();
    await page.waitForURL(/\/hosts$/);
    const failing = page.getByRole('table', { name: 'Failing most' });
    const down1 = failing.getByRole('row').filter({ hasText: 'down1' });
    await down1.waitFor();
    expect(await down1.getByRole('cell').nth(1).textContent()).toBe('2');
    expect(await failing.getByRole('row').filter({ hasText: 'web1' }).count()).toBe(0);

    const all = page.getByRole('table', { name: 'All hosts' });
    const web1 = all.getByRole('row').filter({ hasText: 'web1' });
    await web1.getByRole('link', { name: `#${firstTaskId}` }).waitFor();
    await all
      .getByRole('row')
      .filter({ hasText: 'down1' })
      .getByRole('link', { name: `#${rerunTaskId}` })
      .waitFor();
    await saveShot(page, 'hosts-page-1280');

    await web1.getByRole('link', { name: `#${firstTaskId}` }).click();
    await page
      .getByRole('dialog')
      .getByRole('heading', { name: `Task #${firstTaskId}` })
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    /**
     * Opens the hosts page and the task's Hosts view in a new window (`options`), waiting for the table
     * `table` and the failed host, with screenshots named after `look`.
     */
    const showHostsIn = async (options: PageOptions, table: string, look: string) => {
      const other = await gantry.signedInPage({ ...options, waitForUrl: /\/project\/\d+\/history/ });
      await other.goto(`/project/${projectId}/hosts`);
      await other.getByRole('table', { name: table }).getByText('down1').waitFor();
      await saveShot(other, `hosts-page-${look}`);
      await other.goto(`/project/${projectId}/hosts?t=${firstTaskId}`);
      await other.getByRole('dialog').getByRole('button', { name: 'Hosts', exact: true }).click();
      await other.locator('[data-host="down1"]').waitFor();
      await saveShot(other, `task-hosts-view-${look}`);
      await other.context().close();
    };
    await showHostsIn({ width: 400 }, 'All hosts', '400');
    await showHostsIn({ colorScheme: 'dark' }, 'Failing most', 'dark');
  });
});
