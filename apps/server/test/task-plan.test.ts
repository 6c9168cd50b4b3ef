import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();
const SECRET = 'plan-Secret-4242';

/**
 * A stand-in terraform: its plan has changes; `show -json` prints a plan whose resources are created,
 * updated, replaced (both orders), deleted, read and left alone, the first keyed by a secret of the
 * task's variable group, with a warning on stderr that must not spoil the JSON.
 */
function createFakeTerraform(): string {
  const changes = [
    ['null_resource.k["__TOKEN__"]', ['create']],
    ['null_resource.created', ['create']],
    ['null_resource.updated', ['update']],
    ['null_resource.replaced', ['delete', 'create']],
    ['null_resource.replaced_first', ['create', 'delete']],
    ['null_resource.deleted', ['delete']],
    ['data.null_data_source.read', ['read']],
    ['null_resource.same', ['no-op']],
  ].map(([address, actions]) => ({ address, change: { actions } }));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plan-tf-'));
  writeFileSync(path.join(dir, 'plan.json'), JSON.stringify({ format_version: '1.2', resource_changes: changes }));
  const file = path.join(dir, 'terraform');
  writeFileSync(
    file,
    [
      '#!/bin/bash',
      'echo "terraform $1" >&2',
      'if [ "$1" = plan ]; then exit 2; fi',
      'if [ "$1" = show ]; then',
      '  echo "Warning: something" >&2',
      `  sed "s/__TOKEN__/$API_TOKEN/" '${dir}/plan.json'`,
      'fi',
      'exit 0',
    ].join('\n') + '\n',
  );
  chmodSync(file, 0o755);
  return file;
}

describe.each(dialects)('terraform plan summary on %s', (dialect) => {
  const t = useTestApp(dialect);
  let p: ProjectFixture;
  let templateId: number;
  beforeAll(async () => {
    expect(
      (await t.request('PUT', '/api/apps/terraform', { as: t.adminCookie, body: { path: createFakeTerraform() } }))
        .status,
    ).toBe(204);
    p = await createProjectFixture(t, { 'infra/main.tf': '' });
    const groupId = await p.createVariableGroup('secrets', [{ type: 'env', name: 'API_TOKEN', secret: SECRET }]);
    templateId = await p.createTemplate({ app: 'terraform', playbook: 'infra', environment_id: groupId });
  });

  it('counts what the plan changes and lists the resources before it waits for confirmation, secrets masked', async () => {
    const taskId = await p.runTask(templateId);
    const waiting = await p.waitForStatus(taskId, ['waiting_confirmation', 'error']);
    expect(waiting.status).toBe('waiting_confirmation');
    // As terraform's "Plan:" line counts: a replacement is one to add and one to destroy; reads and no-ops are none.
    expect(waiting.plan_recap).toEqual({ add: 4, change: 1, destroy: 3 });
    const plan = await t.request('GET', `${p.base}/tasks/${taskId}/plan`, { as: t.adminCookie });
    expect(plan.status).toBe(200);
    expect(plan.body).toEqual({
      recap: { add: 4, change: 1, destroy: 3 },
      resources: [
        { address: 'null_resource.k["********"]', action: 'create' },
        { address: 'null_resource.created', action: 'create' },
        { address: 'null_resource.updated', action: 'update' },
        { address: 'null_resource.replaced', action: 'replace' },
        { address: 'null_resource.replaced_first', action: 'replace' },
        { address: 'null_resource.deleted', action: 'delete' },
      ],
      truncated: false,
    });
    expect(JSON.stringify(plan.body)).not.toContain(SECRET);
    // The JSON stays out of the log.
    expect((await p.output(taskId)).join('\n')).not.toContain('resource_changes');
    const history = await t.request('GET', `${p.base}/tasks/last`, { as: t.adminCookie });
    expect(
      (history.body as { id: number; plan_recap: unknown }[]).find((task) => task.id === taskId)?.plan_recap,
    ).toEqual({
      add: 4,
      change: 1,
      destroy: 3,
    });
    expect((await t.request('POST', `${p.base}/tasks/${taskId}/reject`, { as: t.adminCookie })).status).toBe(204);
    await p.waitForStatus(taskId, ['rejected']);
  });

  it('answers 404 for a task without a plan, a task of another project and an unknown task', async () => {
    const scriptTemplate = await p.createTemplate({ playbook: 'infra/main.tf', app: 'bash' });
    const plain = await p.runTask(scriptTemplate);
    await p.waitForStatus(plain, ['success', 'error']);
    expect((await t.request('GET', `${p.base}/tasks/${plain}`, { as: t.adminCookie })).body).toMatchObject({
      plan_recap: null,
    });
    const none = await t.request('GET', `${p.base}/tasks/${plain}/plan`, { as: t.adminCookie });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ error: 'Plan not found' });

    const other = await createProjectFixture(t, { 'x.sh': 'true\n' });
    const taskId = await p.runTask(templateId);
    await p.waitForStatus(taskId, ['waiting_confirmation']);
    expect((await t.request('GET', `${other.base}/tasks/${taskId}/plan`, { as: t.adminCookie })).status).toBe(404);
    expect((await t.request('GET', `${p.base}/tasks/2147483647/plan`, { as: t.adminCookie })).status).toBe(404);
    expect((await t.request('GET', `${p.base}/tasks/abc/plan`, { as: t.adminCookie })).status).toBe(400);
    expect((await t.request('GET', `${p.base}/tasks/${taskId}/plan`)).status).toBe(401);
    expect((await t.request('POST', `${p.base}/tasks/${taskId}/reject`, { as: t.adminCookie })).status).toBe(204);
    await p.waitForStatus(taskId, ['rejected']);
  });
});
