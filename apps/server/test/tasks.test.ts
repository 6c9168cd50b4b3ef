import { execFileSync } from 'node:child_process';
import { isRunning } from '../../../packages/runner/test/support/process-state.ts';
import { describe, expect, it } from 'vitest';
import { VERSION_AND_COUNT_SURVEY } from './survey-fixture.ts';
import { createGitRepository, useProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const SCRIPTS = {
  'hello.sh':
    'echo "hello from $0 with $*"\nfor i in $(seq 1 500); do echo "line $i"; done\nprintf "\\033[32mgreen\\033[0m\\n"\n',
  'fail.sh': 'echo "going down"\nexit 3\n',
  'slow.sh': 'echo started\nsleep 60 &\necho "grandchild $!"\nwait\n',
  'secret.sh':
    'echo "db password is $DB_PASSWORD"\necho "survey secret is $(cat /dev/null)${TOKEN}"\nps -eo args | grep -c "[h]unter2-Secret" || true\n',
  'wait.sh': 'sleep "${1:-1}"\necho done\n',
};

describe.each(dialects)('task engine on %s', (dialect) => {
  const t = useTestApp(dialect);
  const p = useProjectFixture(t, SCRIPTS);

  it('runs a bash template from git to success, storing every line in order with the commit', async () => {
    const templateId = await p.createTemplate({ name: 'Hello', playbook: 'hello.sh', arguments: '["--loud"]' });
    const taskId = await p.runTask(templateId, { message: 'first run' });
    const task = await p.waitForStatus(taskId, ['success', 'error']);
    expect(task).toMatchObject({
      status: 'success',
      message: 'first run',
      tpl_alias: 'Hello',
      tpl_app: 'bash',
      user_name: 'Administrator',
    });
    expect(task.start).toEqual(expect.any(String));
    expect(task.end).toEqual(expect.any(String));
    expect(task.commit_hash).toBe(
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd: p.repoDir, encoding: 'utf8' }).trim(),
    );
    const lines = await p.output(taskId);
    expect(lines).toContain('hello from hello.sh with --loud');
    const numbered = lines.filter((l) => /^line \d+$/.test(l));
    expect(numbered).toEqual(Array.from({ length: 500 }, (_, i) => `line ${i + 1}`));
    expect(lines.at(-1)).toBe('Task finished successfully.');
    const raw = await t.request('GET', `${p.base}/tasks/${taskId}/raw_output`, { as: t.adminCookie });
    expect(raw.headers['content-type']).toMatch(/^text\/plain/);
    expect(raw.text).toContain('\ngreen\n');
    const page = (await t.request('GET', `${p.base}/tasks/${taskId}/output?offset=10&limit=5`, { as: t.adminCookie }))
      .body as { seq: number }[];
    expect(page.map((r) => r.seq)).toEqual([10, 11, 12, 13, 14]);
  });

  it('runs a local path repository in place: the branch it was saved with is never checked out', async () => {
    const repo = createGitRepository({ 'which.sh': 'echo "on main"\n' });
    const git = (...args: string[]) => execFileSync('git', ['-C', repo.dir, ...args], { encoding: 'utf8' }).trim();
    git('checkout', '-q', '-b', 'release');
    repo.commit({ 'which.sh': 'echo "on release"\n' }, 'release');
    git('checkout', '-q', 'main');
    const repository = await t.request('POST', `${p.base}/repositories`, {
      as: t.adminCookie,
      body: { name: 'local', git_url: repo.dir, git_branch: 'release', ssh_key_id: p.noneKeyId },
    });
    expect(repository.body).toMatchObject({ git_url: repo.dir, git_branch: 'release' });
    const templateId = await p.createTemplate({
      playbook: 'which.sh',
      repository_id: (repository.body as { id: number }).id,
    });
    const taskId = await p.runTask(templateId);
    expect((await p.waitForStatus(taskId, ['success', 'error'])).status).toBe('success');
    const lines = await p.output(taskId);
    expect(lines).toContain('on main');
    expect(lines.some((line) => /^(Cloning|Updating) repository/.test(line))).toBe(false);
    expect(git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
  });

  it('a failing script ends in error and says why', async () => {
    const templateId = await p.createTemplate({ playbook: 'fail.sh' });
    const taskId = await p.runTask(templateId);
    expect((await p.waitForStatus(taskId, ['success', 'error'])).status).toBe('error');
    expect(await p.output(taskId)).toEqual(
      expect.arrayContaining(['going down', 'Process exited with code 3', 'Task failed.']),
    );
  });

  it('stop ends a running task and kills the processes it started', async () => {
    const templateId = await p.createTemplate({ playbook: 'slow.sh' });
    const taskId = await p.runTask(templateId);
    await p.waitForStatus(taskId, ['running']);
    let lines: string[] = [];
    for (let i = 0; i < 200 && !lines.some((l) => l.startsWith('grandchild')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      lines = await p.output(taskId);
    }
    const pid = Number(lines.find((l) => l.startsWith('grandchild'))?.split(' ')[1]);
    expect(
      (await t.request('POST', `${p.base}/tasks/${taskId}/stop`, { as: t.adminCookie, body: { force: false } })).status,
    ).toBe(204);
    expect((await p.waitForStatus(taskId, ['stopped', 'error', 'success'])).status).toBe('stopped');
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => isRunning(pid)).toBe(false);
  });

  it('stopping a queued task stops it without running it', async () => {
    const templateId = await p.createTemplate({ playbook: 'wait.sh', arguments: '["2"]' });
    const first = await p.runTask(templateId);
    const second = await p.runTask(templateId);
    expect((await t.request('GET', `${p.base}/tasks/${second}`, { as: t.adminCookie })).body).toMatchObject({
      status: 'waiting',
    });
    await t.request('POST', `${p.base}/tasks/${second}/stop`, { as: t.adminCookie, body: { force: true } });
    expect((await p.waitForStatus(second, ['stopped'])).start).toBeNull();
    await t.request('POST', `${p.base}/tasks/${first}/stop`, { as: t.adminCookie, body: { force: true } });
    await p.waitForStatus(first, ['stopped']);
  });

  it('runs tasks of one template one at a time, and in parallel when the template allows it', async () => {
    const serial = await p.createTemplate({ playbook: 'wait.sh', arguments: '["0.5"]' });
    const a = await p.runTask(serial);
    const b = await p.runTask(serial);
    const [taskA, taskB] = [await p.waitForStatus(a, ['success']), await p.waitForStatus(b, ['success'])];
    expect(String(taskB.start) >= String(taskA.end)).toBe(true);

    const parallel = await p.createTemplate({ playbook: 'wait.sh', arguments: '["1"]', allow_parallel_tasks: true });
    const c = await p.runTask(parallel);
    const d = await p.runTask(parallel);
    const [taskC, taskD] = [await p.waitForStatus(c, ['success']), await p.waitForStatus(d, ['success'])];
    expect(String(taskD.start) < String(taskC.end)).toBe(true);
  });

  it('secrets of the variable group and the survey reach the script but never the log, the process list or a response', async () => {
    t.secrets.add('hunter2-Secret');
    t.secrets.add('survey-Token-77');
    const groupId = await p.createVariableGroup('secrets', [
      { type: 'env', name: 'DB_PASSWORD', secret: 'hunter2-Secret' },
    ]);
    const templateId = await p.createTemplate({
      playbook: 'secret.sh',
      environment_id: groupId,
      survey_vars: [{ name: 'TOKEN', title: 'Token', type: 'secret' }],
    });
    const taskId = await p.runTask(templateId, { secret: JSON.stringify({ TOKEN: 'survey-Token-77' }) });
    expect((await p.waitForStatus(taskId, ['success', 'error'])).status).toBe('success');
    const lines = await p.output(taskId);
    expect(lines).toContain('db password is ********');
    expect(lines).toContain('survey secret is ********');
    // No process of the machine carries the secret in its arguments (the [h] keeps grep from matching itself).
    expect(lines).toContain('0');
    const stored = await t.runtime.connection.db
      .selectFrom('task')
      .select(['secret', 'environment'])
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    expect(stored.secret).toBeNull();
  });

  it('validates new tasks with the seed rules', async () => {
    const templateId = await p.createTemplate({
      playbook: 'hello.sh',
      survey_vars: VERSION_AND_COUNT_SURVEY,
    });
    const post = (body: Record<string, unknown>) =>
      t.request('POST', `${p.base}/tasks`, { as: t.adminCookie, body: { template_id: templateId, ...body } });
    expect((await post({})).body).toMatchObject({ error: 'Version is required' });
    expect((await post({ environment: '{"version": "1", "count": "x1"}' })).body).toMatchObject({
      error: 'Count: Must be integer',
    });
    // Like Semaphore, CLI args the template does not allow are dropped (task-request-rights.test.ts checks the log line).
    expect((await post({ environment: '{"version": "1"}', arguments: '["-v"]' })).body).toMatchObject({
      arguments: null,
    });
    expect((await post({ environment: '[1]' })).body).toMatchObject({ error: 'Environment must be a JSON object' });
    expect(
      (await t.request('POST', `${p.base}/tasks`, { as: t.adminCookie, body: { template_id: 999999 } })).body,
    ).toMatchObject({
      error: 'Template not found in this project',
    });
    const allowed = await p.createTemplate({ playbook: 'hello.sh', allow_override_args_in_task: true });
    expect(
      (
        await t.request('POST', `${p.base}/tasks`, {
          as: t.adminCookie,
          body: { template_id: allowed, arguments: '{"a":1}' },
        })
      ).body,
    ).toMatchObject({
      error: 'CLI args must be a JSON array of strings',
    });
    const ok = await p.runTask(allowed, { arguments: '["from-task"]' });
    await p.waitForStatus(ok, ['success']);
    expect(await p.output(ok)).toContain('hello from hello.sh with from-task');
  });

  it('numbers builds from the start version and deploys a chosen build, automatically with autorun', async () => {
    const build = await p.createTemplate({
      name: 'Build',
      playbook: 'hello.sh',
      type: 'build',
      start_version: '1.0.0',
    });
    const deploy = await p.createTemplate({
      name: 'Deploy',
      playbook: 'hello.sh',
      type: 'deploy',
      build_template_id: build,
      autorun: true,
    });
    const first = await p.runTask(build);
    expect((await p.waitForStatus(first, ['success'])).version).toBe('1.0.0');
    const second = await p.runTask(build);
    expect((await p.waitForStatus(second, ['success'])).version).toBe('1.0.1');

    const deploys = async () =>
      (await t.request('GET', `${p.base}/templates/${deploy}/tasks`, { as: t.adminCookie })).body as Record<
        string,
        unknown
      >[];
    await expect.poll(async () => (await deploys()).length, { timeout: 20_000 }).toBe(2);
    const auto = (await deploys())[0] ?? {};
    expect(auto).toMatchObject({ build_task_id: second, version: '1.0.1', user_id: null });
    expect(auto.build_task).toMatchObject({ id: second, version: '1.0.1' });

    expect(
      (await t.request('POST', `${p.base}/tasks`, { as: t.adminCookie, body: { template_id: deploy } })).body,
    ).toMatchObject({ error: 'Build version is required' });
    const manual = await p.runTask(deploy, { build_task_id: first });
    expect((await p.waitForStatus(manual, ['success'])).version).toBe('1.0.0');
    const successes = (
      await t.request('GET', `${p.base}/templates/${build}/tasks?status=success`, { as: t.adminCookie })
    ).body as unknown[];
    expect(successes).toHaveLength(2);
  });

  it('lists history, template tasks with limits, last task on templates and per-day stats', async () => {
    const templateId = await p.createTemplate({ name: 'Stats', playbook: 'hello.sh' });
    const ids = [await p.runTask(templateId), await p.runTask(templateId)];
    for (const id of ids) await p.waitForStatus(id, ['success']);
    const last = (await t.request('GET', `${p.base}/templates/${templateId}/tasks/last?limit=1`, { as: t.adminCookie }))
      .body as { id: number }[];
    expect(last.map((x) => x.id)).toEqual([ids[1]]);
    const history = (await t.request('GET', `${p.base}/tasks/last`, { as: t.adminCookie })).body as { id: number }[];
    expect(history[0]?.id).toBeGreaterThanOrEqual(ids[1] ?? 0);
    const template = (await t.request('GET', `${p.base}/templates/${templateId}`, { as: t.adminCookie })).body as {
      last_task: { id: number } | null;
    };
    expect(template.last_task?.id).toBe(ids[1]);
    const today = new Date().toISOString().slice(0, 10);
    const stats = (
      await t.request('GET', `${p.base}/templates/${templateId}/stats?start=${today}`, { as: t.adminCookie })
    ).body as {
      date: string;
      count_by_status: Record<string, number>;
    }[];
    expect(stats).toEqual([{ date: today, count_by_status: { success: 2, failed: 0, stopped: 0 } }]);
    expect(
      (await t.request('GET', `${p.base}/templates/${templateId}/stats?start=bad`, { as: t.adminCookie })).body,
    ).toMatchObject({ error: 'Invalid start date' });
  });

  it('admins see active tasks and delete finished ones; running ones cannot be deleted', async () => {
    const templateId = await p.createTemplate({ playbook: 'wait.sh', arguments: '["30"]' });
    const taskId = await p.runTask(templateId);
    await p.waitForStatus(taskId, ['running']);
    const active = (await t.request('GET', '/api/tasks', { as: t.adminCookie })).body as {
      task_id: number;
      location: string;
    }[];
    expect(active).toEqual(expect.arrayContaining([expect.objectContaining({ task_id: taskId, location: 'running' })]));
    expect((await t.request('DELETE', `${p.base}/tasks/${taskId}`, { as: t.adminCookie })).status).toBe(400);
    expect((await t.request('DELETE', `/api/tasks/${taskId}`, { as: t.adminCookie })).status).toBe(204);
    await p.waitForStatus(taskId, ['stopped']);
    expect((await t.request('DELETE', `${p.base}/tasks/${taskId}`, { as: t.adminCookie })).status).toBe(204);
    expect((await t.request('GET', `${p.base}/tasks/${taskId}`, { as: t.adminCookie })).status).toBe(404);
  });
});
