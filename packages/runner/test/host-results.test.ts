import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOST_LIMITS, type TaskHostReport } from '@gantry/contract';
import { describe, expect, it } from 'vitest';
import { createHostEvents, readHostReport } from '../src/host-results.ts';
import { runTask } from '../src/run-task.ts';
import { createGitRepository } from './support/git-fixture.ts';
import { buildSpec, keylessRepository } from './support/spec.ts';
import { createTaskHooks } from './support/task-hooks.ts';

const PLAYBOOK = `- name: Site
  hosts: all
  gather_facts: false
  tasks:
    - name: say hello
      command: echo hello
    - name: tolerated failure
      command: /bin/false
      ignore_errors: true
    - block:
        - name: broken step
          command: /bin/false
      rescue:
        - name: repair
          debug: msg=repaired
    - name: skipped step
      debug: msg=never
      when: false
    - name: fail with a secret
      fail: msg="deploy failed for token s3cr3t-Token-42"
`;

// One host that runs locally, one on a closed port: unreachable on purpose.
const INVENTORY = `[all]
web1 ansible_connection=local ansible_python_interpreter=/usr/bin/python3
down1 ansible_host=127.0.0.1 ansible_port=1 ansible_connection=ssh ansible_ssh_common_args='-o ConnectTimeout=5'
`;

// The user's own callback plugin, enabled by their ansible.cfg: it must still run beside Gantry's.
const USER_PLUGIN = `from ansible.plugins.callback import CallbackBase
class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'notification'
    CALLBACK_NAME = 'user_marker'
    CALLBACK_NEEDS_ENABLED = True
    def v2_playbook_on_stats(self, stats):
        self._display.display('USER CALLBACK RAN')
`;

describe('host results of an ansible task', () => {
  it('are recorded per host with statuses, durations and masked failure messages, beside an unchanged log', async () => {
    const repo = createGitRepository({
      'site.yml': PLAYBOOK,
      'ansible.cfg': '[defaults]\ncallback_plugins = ./plugins\ncallbacks_enabled = user_marker\n',
      'plugins/user_marker.py': USER_PLUGIN,
    });
    const reports: TaskHostReport[] = [];
    const { hooks, lines } = createTaskHooks({
      onHosts: (report) => {
        reports.push(report);
        return Promise.resolve();
      },
    });
    const outcome = await runTask(
      buildSpec({
        app: 'ansible',
        playbook: 'site.yml',
        repository: keylessRepository(1, repo.dir, ''),
        inventory: {
          id: 1,
          type: 'static',
          content: INVENTORY,
          user_key: { type: 'none' },
          become_key: { type: 'none' },
        },
        secrets: ['s3cr3t-Token-42'],
      }),
      hooks,
    );
    const log = lines.join('\n');
    expect(outcome, log).toBe('error');
    // The text log is ansible's default output, the user's plugin included.
    expect(log).toContain('PLAY RECAP');
    expect(log).toContain('USER CALLBACK RAN');
    expect(reports).toHaveLength(1);
    const report = reports[0];
    expect(report?.truncated).toBe(false);
    expect(report?.hosts).toEqual(
      expect.arrayContaining([
        { host: 'down1', ok: 0, changed: 0, failed: 0, unreachable: 1, skipped: 0, rescued: 0, ignored: 0 },
        { host: 'web1', ok: 1, changed: 1, failed: 1, unreachable: 0, skipped: 1, rescued: 1, ignored: 1 },
      ]),
    );
    const web = report?.results.filter((r) => r.host === 'web1') ?? [];
    expect(web.map((r) => [r.task, r.status])).toEqual([
      ['say hello', 'changed'],
      ['tolerated failure', 'ignored'],
      ['broken step', 'rescued'],
      ['repair', 'ok'],
      ['skipped step', 'skipped'],
      ['fail with a secret', 'failed'],
    ]);
    expect(web.every((r) => r.play === 'Site' && r.duration_ms >= 0)).toBe(true);
    expect(web.at(-1)?.message).toBe('deploy failed for token ********');
    const down = report?.results.find((r) => r.host === 'down1');
    expect(down?.status).toBe('unreachable');
    expect(down?.message).toMatch(/port 1/);
    expect(JSON.stringify(report)).not.toContain('s3cr3t');
  });

  it('keeps counts for every host but task results only up to the bound', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-events-'));
    const file = path.join(dir, 'events.jsonl');
    const events: string[] = [];
    const hosts = 3 * Math.ceil(HOST_LIMITS.maxResults / 3) + 30;
    for (let i = 0; i < hosts; i++)
      events.push(
        JSON.stringify({
          type: 'result',
          host: `h${i}`,
          play: 'p',
          task: 't',
          status: 'failed',
          duration_ms: 5,
          message: 'x'.repeat(5000),
        }),
      );
    events.push('not json', JSON.stringify({ type: 'result', host: 'bad', status: 'exploded' }));
    writeFileSync(file, events.join('\n') + '\n');
    const report = await readHostReport(file, (text) => text);
    expect(report?.hosts).toHaveLength(hosts);
    expect(report?.hosts[hosts - 1]).toMatchObject({ host: `h${hosts - 1}`, failed: 1 });
    expect(report?.results).toHaveLength(HOST_LIMITS.maxResults);
    expect(report?.results[0]?.message).toHaveLength(HOST_LIMITS.messageLength);
    expect(report?.truncated).toBe(true);
  });

  it('reads nothing a task put in place of its events file: a symlink, a FIFO, a device', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-events-'));
    const real = path.join(dir, 'real.jsonl');
    const event = { type: 'result', host: 'h', play: 'p', task: 't', status: 'ok', duration_ms: 1, message: '' };
    writeFileSync(real, `${JSON.stringify(event)}\n`);
    expect(await readHostReport(real, (text) => text)).not.toBeNull();
    const linked = path.join(dir, 'linked.jsonl');
    symlinkSync(real, linked);
    const fifo = path.join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    const device = path.join(dir, 'device.jsonl');
    symlinkSync('/dev/zero', device);
    for (const file of [linked, fifo, device]) expect(await readHostReport(file, (text) => text)).toBeNull();
  });

  it("takes the callback path of a repository's ansible.cfg only from a regular file", () => {
    const events = createHostEvents({ writePrivateFile: () => '/private/host-events.jsonl' });
    const settings = (cwd: string) => events.environment({ HOME: '/home/gantry' }, cwd).ANSIBLE_CALLBACK_PLUGINS;
    const plain = mkdtempSync(path.join(os.tmpdir(), 'gantry-cfg-'));
    writeFileSync(path.join(plain, 'ansible.cfg'), '[defaults]\ncallback_plugins = ./mine\n');
    expect(settings(plain)).toMatch(new RegExp(`:${plain}/mine$`));
    // A symlink to a device or a FIFO would stall the server reading it: the default path is used.
    const device = mkdtempSync(path.join(os.tmpdir(), 'gantry-cfg-'));
    symlinkSync('/dev/zero', path.join(device, 'ansible.cfg'));
    const fifo = mkdtempSync(path.join(os.tmpdir(), 'gantry-cfg-'));
    execFileSync('mkfifo', [path.join(fifo, 'ansible.cfg')]);
    for (const cwd of [device, fifo]) expect(settings(cwd)).toContain('/home/gantry/.ansible/plugins/callback');
  });

  it('is nothing when ansible ran no task on any host', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-events-'));
    const file = path.join(dir, 'events.jsonl');
    writeFileSync(file, '');
    expect(await readHostReport(file, (text) => text)).toBeNull();
  });
});
