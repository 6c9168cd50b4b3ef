import type { TaskHost } from '@gantry/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture, insertTaskRow, type ProjectFixture } from './task-fixture.ts';
import { withRemoteRunner } from './runner-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const HOSTS_PLAYBOOK = `- name: Site
  hosts: all
  gather_facts: false
  tasks:
    - name: say hello
      command: echo hello
    - name: skipped step
      debug: msg=never
      when: false
    - name: check the token
      fail: msg="token {{ api_token }} refused"
      when: inventory_hostname == 'web2'
`;

// Two hosts that run locally (web2 fails on purpose) and one on a closed port: unreachable on purpose.
const HOSTS_INVENTORY = `[web]
web1 ansible_connection=local ansible_python_interpreter=/usr/bin/python3
web2 ansible_connection=local ansible_python_interpreter=/usr/bin/python3
down1 ansible_host=127.0.0.1 ansible_port=1 ansible_connection=ssh ansible_ssh_common_args='-o ConnectTimeout=5'
`;

const TOKEN = 'hosts-Token-7781';

describe.each(dialects)('task hosts on %s', (dialect) => {
  const t = useTestApp(dialect);
  let p: ProjectFixture;
  let templateId: number;
  /** The first run on the fleet: web2 failed, down1 unreachable. */
  let fleetTaskId: number;

  beforeAll(async () => {
    t.secrets.add(TOKEN);
    p = await createProjectFixture(t, { 'site.yml': HOSTS_PLAYBOOK, 'hello.sh': 'echo hello\n' });
    const inventory = await t.request('POST', `${p.base}/inventory`, {
      as: t.adminCookie,
      body: { name: 'fleet', type: 'static', inventory: HOSTS_INVENTORY, ssh_key_id: p.noneKeyId },
    });
    const groupId = await p.createVariableGroup('secrets', [{ type: 'var', name: 'api_token', secret: TOKEN }]);
    templateId = await p.createTemplate({
      app: 'ansible',
      playbook: 'site.yml',
      inventory_id: (inventory.body as { id: number }).id,
      environment_id: groupId,
    });
  });

  async function hostsOf(taskId: number): Promise<TaskHost[]> {
    const response = await t.request('GET', `${p.base}/tasks/${taskId}/hosts`, { as: t.adminCookie });
    expect(response.status, response.text).toBe(200);
    return (response.body as { hosts: TaskHost[] }).hosts;
  }

  function expectFleetResults(hosts: TaskHost[]) {
    const byName = new Map(hosts.map((h) => [h.host, h]));
    expect([...byName.keys()].sort()).toEqual(['down1', 'web1', 'web2']);
    expect(byName.get('web1')).toMatchObject({ changed: 1, skipped: 2, failed: 0, unreachable: 0 });
    expect(byName.get('web2')).toMatchObject({ changed: 1, skipped: 1, failed: 1, unreachable: 0 });
    expect(byName.get('down1')).toMatchObject({ ok: 0, changed: 0, unreachable: 1 });
    const failed = byName.get('web2')?.results.at(-1);
    expect(failed).toMatchObject({ play: 'Site', task: 'check the token', status: 'failed' });
    expect(failed?.message).toBe('token ******** refused');
    expect(byName.get('down1')?.results).toEqual([
      expect.objectContaining({ task: 'say hello', status: 'unreachable', message: expect.stringMatching(/port 1/) }),
    ]);
  }

  it('stores the results per host of a task run on the server, masks secrets, and shows the recap on the task', async () => {
    const taskId = await p.runTask(templateId);
    fleetTaskId = taskId;
    const task = await p.waitForStatus(taskId, ['success', 'error'], 120_000);
    const log = (await p.output(taskId)).join('\n');
    expect(task.status, log).toBe('error');
    // The text log is ansible's own, as before.
    expect(log).toContain('PLAY RECAP');
    expect(log).not.toContain(TOKEN);
    expectFleetResults(await hostsOf(taskId));
    expect(task.host_recap).toEqual({ ok: 0, changed: 1, failed: 1, unreachable: 1 });
    const history = (await t.request('GET', `${p.base}/tasks/last`, { as: t.adminCookie })).body as {
      id: number;
      host_recap: unknown;
    }[];
    expect(history.find((h) => h.id === taskId)?.host_recap).toEqual({ ok: 0, changed: 1, failed: 1, unreachable: 1 });
  });

  it('reruns the failed and unreachable hosts of a task as a new task of the template limited to them', async () => {
    const response = await t.request('POST', `${p.base}/tasks/${fleetTaskId}/rerun_failed_hosts`, {
      as: t.adminCookie,
    });
    expect(response.status, response.text).toBe(201);
    const rerun = response.body as { id: number; template_id: number; rerun_of_task_id: number; params: unknown };
    expect(rerun).toMatchObject({ template_id: templateId, rerun_of_task_id: fleetTaskId });
    expect((rerun.params as { limit: string[] }).limit.sort()).toEqual(['down1', 'web2']);
    const done = await p.waitForStatus(rerun.id, ['success', 'error'], 120_000);
    expect(done).toMatchObject({ status: 'error', rerun_of_task_id: fleetTaskId, limit: expect.any(String) });
    // Only the two hosts ran: web1 is not in the new task's results.
    expect((await hostsOf(rerun.id)).map((h) => h.host).sort()).toEqual(['down1', 'web2']);
    expect(done.host_recap).toEqual({ ok: 0, changed: 0, failed: 1, unreachable: 1 });
    const history = (await t.request('GET', `${p.base}/tasks/last`, { as: t.adminCookie })).body as {
      id: number;
      rerun_of_task_id: number | null;
    }[];
    expect(history.find((h) => h.id === rerun.id)?.rerun_of_task_id).toBe(fleetTaskId);
    expect(history.find((h) => h.id === fleetTaskId)?.rerun_of_task_id).toBeNull();
  });

  it('shows for each host the last task of each template and the hosts that failed most', async () => {
    const hosts = await t.request('GET', `${p.base}/hosts`, { as: t.adminCookie });
    expect(hosts.status, hosts.text).toBe(200);
    const list = (hosts.body as { hosts: { host: string; runs: Record<string, unknown>[] }[]; truncated: boolean })
      .hosts;
    expect(list.map((h) => h.host)).toEqual(['down1', 'web1', 'web2']);
    const tasks = (await t.request('GET', `${p.base}/tasks/last`, { as: t.adminCookie })).body as {
      id: number;
      template_id: number;
      status: string;
      end: string;
    }[];
    const rerunId = tasks.find((task) => task.template_id === templateId && task.id > fleetTaskId)?.id;
    const lastOf = (host: string) => list.find((h) => h.host === host)?.runs;
    // The rerun is the last task of the template on down1 and web2; web1 last ran in the first one.
    expect(lastOf('down1')).toEqual([
      expect.objectContaining({ template_id: templateId, task_id: rerunId, status: 'error', unreachable: 1 }),
    ]);
    expect(lastOf('web2')).toEqual([expect.objectContaining({ task_id: rerunId, failed: 1, unreachable: 0 })]);
    expect(lastOf('web1')).toEqual([
      expect.objectContaining({
        task_id: fleetTaskId,
        template_name: expect.any(String),
        failed: 0,
        time: tasks.find((task) => task.id === fleetTaskId)?.end,
      }),
    ]);

    const failing = await t.request('GET', `${p.base}/hosts/failing?days=30`, { as: t.adminCookie });
    expect(failing.status, failing.text).toBe(200);
    const failingHosts = (failing.body as { days: number; hosts: { host: string; failures: number }[] }).hosts;
    // At least the two runs of this file; the remote runner's run (later in the file) is not there yet.
    expect(failingHosts.map((h) => h.host).sort()).toEqual(['down1', 'web2']);
    expect(failingHosts[0]).toMatchObject({ failures: 2, last_task_id: rerunId });
    expect((failing.body as { days: number }).days).toBe(30);
    for (const bad of ['0', '366', 'x', '1.5'])
      expect((await t.request('GET', `${p.base}/hosts/failing?days=${bad}`, { as: t.adminCookie })).status).toBe(400);
    expect((await t.request('GET', `${p.base}/hosts/failing`, { as: t.adminCookie })).body).toMatchObject({ days: 30 });
  });

  it('refuses to rerun hosts whose names would change the --limit, a task without failed hosts and a task of another app', async () => {
    async function taskWithFailedHosts(names: string[]): Promise<number> {
      const id = await insertTaskRow(t, { project_id: p.projectId, template_id: templateId, status: 'error' });
      const counts = { ok: 0, changed: 0, failed: 1, unreachable: 0, skipped: 0, rescued: 0, ignored: 0 };
      await t.runtime.services.taskHosts.save(id, {
        hosts: names.map((host) => ({ host, ...counts })),
        results: [],
        truncated: false,
      });
      return id;
    }
    const before = ((await t.request('GET', `${p.base}/tasks/last`, { as: t.adminCookie })).body as unknown[]).length;
    for (const names of [
      ['web1', '@/etc/passwd'],
      ['a,b'],
      ['web1:web2'],
      ['!web1'],
      ['web*'],
      ['bad host'],
      ['x\u0007'],
    ]) {
      const id = await taskWithFailedHosts(names);
      const response = await t.request('POST', `${p.base}/tasks/${id}/rerun_failed_hosts`, { as: t.adminCookie });
      expect(response.status, names.join(' ')).toBe(400);
      expect((response.body as { error: string }).error).toMatch(/cannot be rerun by name/);
    }
    const allOk = await insertTaskRow(t, { project_id: p.projectId, template_id: templateId, status: 'success' });
    await t.runtime.services.taskHosts.save(allOk, {
      hosts: [{ host: 'web1', ok: 1, changed: 0, failed: 0, unreachable: 0, skipped: 0, rescued: 0, ignored: 0 }],
      results: [],
      truncated: false,
    });
    expect(await t.request('POST', `${p.base}/tasks/${allOk}/rerun_failed_hosts`, { as: t.adminCookie })).toMatchObject(
      {
        status: 400,
        body: { error: 'The task has no failed or unreachable hosts to rerun' },
      },
    );
    const bashTemplate = await p.createTemplate({ playbook: 'hello.sh' });
    const bashTask = await insertTaskRow(t, { project_id: p.projectId, template_id: bashTemplate, status: 'error' });
    expect(
      await t.request('POST', `${p.base}/tasks/${bashTask}/rerun_failed_hosts`, { as: t.adminCookie }),
    ).toMatchObject({
      status: 400,
      body: { error: 'Only an ansible task can rerun its failed hosts' },
    });
    // Nothing was queued by the refusals (the rows inserted here are the only new tasks).
    const after = ((await t.request('GET', `${p.base}/tasks/last`, { as: t.adminCookie })).body as unknown[]).length;
    expect(after).toBe(before + 7 + 2);
  });

  it('lets only members who may run tasks rerun, and answers 404 for another project or a non-member', async () => {
    const guest = await t.createUser(`rerun-guest-${dialect}`);
    const added = await t.request('POST', `${p.base}/users`, {
      as: t.adminCookie,
      body: { user_id: guest.id, role: 'guest' },
    });
    expect(added.status, added.text).toBe(204);
    const url = `${p.base}/tasks/${fleetTaskId}/rerun_failed_hosts`;
    expect(await t.request('POST', url, { as: guest.cookie })).toMatchObject({
      status: 403,
      body: { error: expect.any(String) },
    });
    // A task runner may: the request checks are those of starting the template.
    const runner = await t.createUser(`rerun-runner-${dialect}`);
    await t.request('POST', `${p.base}/users`, {
      as: t.adminCookie,
      body: { user_id: runner.id, role: 'task_runner' },
    });
    const failedWeb1 = await insertTaskRow(t, { project_id: p.projectId, template_id: templateId, status: 'error' });
    await t.runtime.services.taskHosts.save(failedWeb1, {
      hosts: [{ host: 'web1', ok: 0, changed: 0, failed: 1, unreachable: 0, skipped: 0, rescued: 0, ignored: 0 }],
      results: [],
      truncated: false,
    });
    const byRunner = await t.request('POST', `${p.base}/tasks/${failedWeb1}/rerun_failed_hosts`, { as: runner.cookie });
    expect(byRunner.status, byRunner.text).toBe(201);
    const rerun = byRunner.body as { id: number; user_id: number; rerun_of_task_id: number; limit: string };
    expect(rerun).toMatchObject({ user_id: runner.id, rerun_of_task_id: failedWeb1, limit: 'web1' });
    expect(await p.waitForStatus(rerun.id, ['success', 'error'], 120_000)).toMatchObject({ status: 'success' });
    // A guest reads the host history.
    expect((await t.request('GET', `${p.base}/hosts`, { as: guest.cookie })).status).toBe(200);
    expect((await t.request('GET', `${p.base}/hosts/failing`, { as: guest.cookie })).status).toBe(200);
    const other = await createProjectFixture(t, { 'hello.sh': 'echo hi\n' });
    expect(
      await t.request('POST', `${other.base}/tasks/${fleetTaskId}/rerun_failed_hosts`, { as: t.adminCookie }),
    ).toMatchObject({ status: 404, body: { error: 'Task not found' } });
    expect((await t.request('GET', `${other.base}/hosts`, { as: t.adminCookie })).body).toEqual({
      hosts: [],
      truncated: false,
    });
    const stranger = await t.createUser(`rerun-stranger-${dialect}`);
    expect((await t.request('POST', url, { as: stranger.cookie })).status).toBe(404);
    expect((await t.request('GET', `${p.base}/hosts`, { as: stranger.cookie })).status).toBe(404);
    expect((await t.request('POST', url)).status).toBe(401);
    expect(
      (await t.request('POST', `${p.base}/tasks/${2 ** 31}/rerun_failed_hosts`, { as: t.adminCookie })).status,
    ).toBe(400);
  });

  it('answers an empty list for a task without hosts and 404 for a task of another project or a non-member', async () => {
    const bashTask = await p.runTask(await p.createTemplate({ playbook: 'hello.sh' }));
    expect((await p.waitForStatus(bashTask, ['success', 'error'])).host_recap).toBeNull();
    expect((await t.request('GET', `${p.base}/tasks/${bashTask}/hosts`, { as: t.adminCookie })).body).toEqual({
      hosts: [],
      truncated: false,
    });
    const other = await createProjectFixture(t, { 'hello.sh': 'echo hi\n' });
    expect(await t.request('GET', `${other.base}/tasks/${bashTask}/hosts`, { as: t.adminCookie })).toMatchObject({
      status: 404,
      body: { error: expect.any(String) },
    });
    const stranger = await t.createUser(`stranger-${dialect}`);
    expect((await t.request('GET', `${p.base}/tasks/${bashTask}/hosts`, { as: stranger.cookie })).status).toBe(404);
    expect((await t.request('GET', `${p.base}/tasks/${bashTask}/hosts`)).status).toBe(401);
    expect((await t.request('GET', `${p.base}/tasks/${2 ** 31}/hosts`, { as: t.adminCookie })).status).toBe(400);
  });

  it('stores the results per host of a task run on a remote runner', async () => {
    await withRemoteRunner(t, p.base, 'remote', async (runnerId) => {
      const taskId = await p.runTask(templateId);
      const task = await p.waitForStatus(taskId, ['success', 'error'], 120_000);
      expect(task).toMatchObject({ status: 'error', runner_id: runnerId });
      expectFleetResults(await hostsOf(taskId));
      expect(task.host_recap).toEqual({ ok: 0, changed: 1, failed: 1, unreachable: 1 });
    });
  });
});
