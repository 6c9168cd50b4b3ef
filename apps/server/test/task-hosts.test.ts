import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRunnerAgent, createRunnerClient } from '@gantry/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { createTestApp, listen, type TestApp } from './test-app.ts';
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

interface HostRow {
  host: string;
  ok: number;
  changed: number;
  failed: number;
  unreachable: number;
  skipped: number;
  results: { task: string; status: string; message: string; play: string; duration_ms: number }[];
}

describe.each(dialects)('task hosts on %s', (dialect) => {
  let t: TestApp;
  let p: ProjectFixture;
  let templateId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.secrets.add(TOKEN);
    p = await createProjectFixture(t, { 'site.yml': HOSTS_PLAYBOOK, 'hello.sh': 'echo hello\n' });
    const inventory = await t.request('POST', `${p.base}/inventory`, {
      as: t.adminCookie,
      body: { name: 'fleet', type: 'static', inventory: HOSTS_INVENTORY, ssh_key_id: p.noneKeyId },
    });
    const group = await t.request('POST', `${p.base}/environment`, {
      as: t.adminCookie,
      body: {
        name: 'secrets',
        json: '{}',
        env: '{}',
        secrets: [{ operation: 'create', type: 'var', name: 'api_token', secret: TOKEN }],
      },
    });
    templateId = await p.createTemplate({
      app: 'ansible',
      playbook: 'site.yml',
      inventory_id: (inventory.body as { id: number }).id,
      environment_id: (group.body as { id: number }).id,
    });
  });
  afterAll(() => t.close());

  async function hostsOf(taskId: number): Promise<HostRow[]> {
    const response = await t.request('GET', `${p.base}/tasks/${taskId}/hosts`, { as: t.adminCookie });
    expect(response.status, response.text).toBe(200);
    return (response.body as { hosts: HostRow[] }).hosts;
  }

  function expectFleetResults(hosts: HostRow[]) {
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
    const runner = await t.request('POST', `${p.base}/runners`, { as: t.adminCookie, body: { name: 'remote' } });
    expect(runner.status, runner.text).toBe(201);
    const { id: runnerId, token } = runner.body as { id: number; token: string };
    const url = await listen(t.app);
    const agent = createRunnerAgent({
      client: createRunnerClient(url, token),
      workDir: mkdtempSync(path.join(os.tmpdir(), 'gantry-hosts-runner-')),
      baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: os.tmpdir() },
      print: () => undefined,
      pollWaitSeconds: 1,
    });
    const running = agent.run();
    try {
      const taskId = await p.runTask(templateId);
      const task = await p.waitForStatus(taskId, ['success', 'error'], 120_000);
      expect(task).toMatchObject({ status: 'error', runner_id: runnerId });
      expectFleetResults(await hostsOf(taskId));
      expect(task.host_recap).toEqual({ ok: 0, changed: 1, failed: 1, unreachable: 1 });
    } finally {
      agent.stop();
      await running;
      // The runner client's kept-alive connections would hold the server's close open.
      t.app.server.closeAllConnections();
      await t.request('DELETE', `${p.base}/runners/${runnerId}`, { as: t.adminCookie });
    }
  });
});
