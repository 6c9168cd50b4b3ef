import { beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('workflows on %s', (dialect) => {
  let p: ProjectFixture;
  let other: ProjectFixture;
  let buildId = 0;
  let deployId = 0;
  const users = { guest: { id: 0, cookie: '' }, runner: { id: 0, cookie: '' }, manager: { id: 0, cookie: '' } };

  const definition = () => ({
    name: 'Release',
    description: 'build, approve, deploy',
    variables: [{ name: 'version', required: true }],
    steps: [
      { key: 'build', kind: 'template', template_id: buildId, outputs: ['artifact'], survey_values: { ref: 'main' } },
      { key: 'approve', kind: 'approval', approvers: { roles: ['manager'] }, required: 1 },
      { key: 'pause', kind: 'wait', seconds: 30 },
      {
        key: 'deploy',
        kind: 'template',
        template_id: deployId,
        join: 'all',
        inputs: [
          { variable: 'ref', source: 'variable', name: 'version' },
          { variable: 'artifact', source: 'output', step: 'build', output: 'artifact' },
        ],
      },
    ],
    edges: [
      { from: 'build', to: 'approve', on: 'success' },
      { from: 'approve', to: 'pause', on: 'success' },
      { from: 'pause', to: 'deploy', on: 'always' },
    ],
  });

  const send = (method: string, path: string, body?: unknown, as = t.adminCookie) =>
    t.request(method, `${p.base}${path}`, { as, ...(body === undefined ? {} : { body }) });

  const t = useTestApp(dialect);
  beforeAll(async () => {
    p = await createProjectFixture(t, { 'run.sh': 'echo hi\n' });
    other = await createProjectFixture(t, { 'run.sh': 'echo other\n' });
    const surveyVar = (name: string) => ({ name, title: name });
    buildId = await p.createTemplate({ name: 'Build', playbook: 'run.sh', survey_vars: [surveyVar('ref')] });
    deployId = await p.createTemplate({
      name: 'Deploy',
      playbook: 'run.sh',
      survey_vars: [surveyVar('ref'), surveyVar('artifact')],
    });
    for (const [role, key] of [
      ['guest', 'guest'],
      ['task_runner', 'runner'],
      ['manager', 'manager'],
    ] as const) {
      users[key] = await t.createUser(`wf-${key}`);
      const added = await t.request('POST', `${p.base}/users`, {
        as: t.adminCookie,
        body: { user_id: users[key].id, role },
      });
      expect(added.status).toBe(204);
    }
  });

  it('creates, reads, lists, updates and deletes a workflow, keeping every saved change as a revision', async () => {
    const created = await send('POST', '/workflows', definition(), users.manager.cookie);
    expect(created.status, created.text).toBe(201);
    const workflow = created.body as { id: number; revision: number; steps: { join: string }[] };
    expect(workflow).toMatchObject({ name: 'Release', revision: 1, project_id: p.projectId });
    expect(workflow.steps[0]).toMatchObject({ join: 'all', inputs: [], params: {} });

    expect((await send('GET', `/workflows/${workflow.id}`, undefined, users.guest.cookie)).body).toEqual(workflow);
    expect((await send('GET', '/workflows', undefined, users.guest.cookie)).body).toEqual([
      expect.objectContaining({ id: workflow.id, name: 'Release', revision: 1, steps: 4 }),
    ]);

    const changed = { ...definition(), description: 'second' };
    const updated = await send('PUT', `/workflows/${workflow.id}`, changed);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ revision: 2, description: 'second' });
    // Saving the same definition again is no change: no new revision.
    expect((await send('PUT', `/workflows/${workflow.id}`, changed)).body).toMatchObject({ revision: 2 });
    // An edit started from revision 1 would undo revision 2: refused, and nothing is saved.
    const stale = await send('PUT', `/workflows/${workflow.id}?revision=1`, { ...definition(), description: 'stale' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: expect.stringContaining('saved meanwhile as revision 2') });
    for (const revision of ['0', 'x', '1.5', '99999999999'])
      expect((await send('PUT', `/workflows/${workflow.id}?revision=${revision}`, changed)).status).toBe(400);
    const based = await send('PUT', `/workflows/${workflow.id}?revision=2`, { ...definition(), description: 'third' });
    expect(based.body).toMatchObject({ revision: 3, description: 'third' });
    expect((await send('PUT', `/workflows/${workflow.id}?revision=3`, changed)).body).toMatchObject({ revision: 4 });

    const versions = (await send('GET', `/workflows/${workflow.id}/versions`, undefined, users.guest.cookie)).body;
    expect(versions).toEqual([
      expect.objectContaining({ number: 4, username: 'admin' }),
      expect.objectContaining({ number: 3, username: 'admin' }),
      expect.objectContaining({ number: 2, username: 'admin' }),
      expect.objectContaining({ number: 1, user_id: users.manager.id, username: 'wf-manager' }),
    ]);
    const first = await send('GET', `/workflows/${workflow.id}/versions/1`);
    expect(first.body).toMatchObject({ number: 1, definition: { description: 'build, approve, deploy' } });
    expect((await send('GET', `/workflows/${workflow.id}/versions/5`)).status).toBe(404);
    expect((await send('GET', `/workflows/${workflow.id}/versions/99999999999`)).status).toBe(400);

    expect((await send('DELETE', `/workflows/${workflow.id}`)).status).toBe(204);
    expect((await send('GET', `/workflows/${workflow.id}`)).status).toBe(404);
    expect((await send('GET', `/workflows/${workflow.id}/versions/1`)).status).toBe(404);
  });

  it('validates without saving and refuses to save an invalid workflow, naming every problem', async () => {
    expect((await send('POST', '/workflows/validate', definition())).body).toEqual({ valid: true, errors: [] });
    const broken = {
      ...definition(),
      steps: [...definition().steps, { key: 'ghost', kind: 'template', template_id: 999999 }],
      edges: [...definition().edges, { from: 'deploy', to: 'build', on: 'failure' }],
    };
    const validation = await send('POST', '/workflows/validate', broken);
    expect(validation.status).toBe(200);
    expect(validation.body).toEqual({
      valid: false,
      errors: [
        'Steps form a cycle: build → approve → pause → deploy → build',
        'Step "ghost": template 999999 not found in this project',
      ],
    });
    const refused = await send('POST', '/workflows', broken);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error:
        'Steps form a cycle: build → approve → pause → deploy → build; Step "ghost": template 999999 not found in this project',
      code: 'validation_failed',
    });
    expect((await send('GET', '/workflows')).body).toEqual([]);

    // A template of another project is not in this one.
    const foreign = await other.createTemplate({ name: 'Foreign', playbook: 'run.sh' });
    expect(
      (
        await send('POST', '/workflows/validate', {
          name: 'x',
          steps: [{ key: 'a', kind: 'template', template_id: foreign }],
        })
      ).body,
    ).toEqual({ valid: false, errors: [`Step "a": template ${foreign} not found in this project`] });

    expect(
      (await send('POST', '/workflows', { name: 'x', steps: [{ key: 'a', kind: 'wait', seconds: -1 }] })).body,
    ).toEqual({
      error: 'Wait must be 1 to 604800 seconds',
      code: 'validation_failed',
    });
    expect((await send('POST', '/workflows', { name: '', steps: [] })).status).toBe(400);
  });

  it('shows a workflow as YAML naming its templates and approvers', async () => {
    const body = definition();
    body.steps[1] = {
      key: 'approve',
      kind: 'approval',
      approvers: { user_ids: [users.manager.id] },
      required: 1,
    } as never;
    const created = (await send('POST', '/workflows', { ...body, name: 'As YAML' })).body as { id: number };
    const yaml = await send('GET', `/workflows/${created.id}/yaml`, undefined, users.guest.cookie);
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toMatch(/^application\/yaml/);
    expect(yaml.text).toContain('name: As YAML\n');
    expect(yaml.text).toContain('template: Build\n');
    expect(yaml.text).toContain('template: Deploy\n');
    expect(yaml.text).toContain('      users:\n        - wf-manager\n');
    expect(yaml.text).not.toContain('template_id');
    await send('DELETE', `/workflows/${created.id}`);
  });

  it('keeps names unique in a project', async () => {
    const first = await send('POST', '/workflows', { ...definition(), name: 'Unique' });
    expect(first.status).toBe(201);
    const again = await send('POST', '/workflows', { ...definition(), name: 'Unique' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'A workflow named "Unique" already exists in this project' });
    await send('DELETE', `/workflows/${(first.body as { id: number }).id}`);

    // Racing creates of one name: one wins, the others hear why, none gets a 500.
    const racing = await Promise.all(
      Array.from({ length: 4 }, () => send('POST', '/workflows', { ...definition(), name: 'Raced' })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
    for (const refused of racing.filter((r) => r.status === 400))
      expect(refused.body).toMatchObject({ error: 'A workflow named "Raced" already exists in this project' });
    const winner = racing.find((r) => r.status === 201)?.body as { id: number };
    await send('DELETE', `/workflows/${winner.id}`);
  });

  it('lets members read and only those who manage resources edit', async () => {
    const created = (await send('POST', '/workflows', { ...definition(), name: 'Perms' })).body as { id: number };
    for (const caller of [users.guest.cookie, users.runner.cookie]) {
      expect((await send('GET', `/workflows/${created.id}`, undefined, caller)).status).toBe(200);
      expect((await send('POST', '/workflows', definition(), caller)).status).toBe(403);
      expect((await send('POST', '/workflows/validate', definition(), caller)).status).toBe(403);
      expect((await send('PUT', `/workflows/${created.id}`, definition(), caller)).status).toBe(403);
      expect((await send('DELETE', `/workflows/${created.id}`, undefined, caller)).status).toBe(403);
    }
    const stranger = await t.createUser('wf-stranger');
    expect((await send('GET', `/workflows/${created.id}`, undefined, stranger.cookie)).status).toBe(404);
    // Another project's workflow is not found through this project, whatever the caller.
    const elsewhere = await t.request('GET', `${other.base}/workflows/${created.id}`, { as: t.adminCookie });
    expect(elsewhere.status).toBe(404);
    expect((await t.request('DELETE', `${other.base}/workflows/${created.id}`, { as: t.adminCookie })).status).toBe(
      404,
    );
    expect((await send('GET', `/workflows/${created.id}`)).status).toBe(200);
    await send('DELETE', `/workflows/${created.id}`);
  });

  it('lists a workflow among the references of its templates and refuses to delete them while it uses them', async () => {
    const created = (await send('POST', '/workflows', { ...definition(), name: 'Uses build' })).body as { id: number };
    const refs = (await send('GET', `/templates/${buildId}/refs`)).body;
    expect(refs).toMatchObject({ workflows: [{ id: created.id, name: 'Uses build' }] });
    const refused = await send('DELETE', `/templates/${buildId}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'in_use', error: expect.stringContaining('workflows "Uses build"') });

    // A new revision without the template frees it.
    const withoutBuild = {
      name: 'Uses build',
      steps: [{ key: 'deploy', kind: 'template', template_id: deployId }],
    };
    expect((await send('PUT', `/workflows/${created.id}`, withoutBuild)).status).toBe(200);
    expect((await send('GET', `/templates/${buildId}/refs`)).body).toMatchObject({ workflows: [] });
    expect((await send('GET', `/templates/${deployId}/refs`)).body).toMatchObject({
      workflows: [{ id: created.id, name: 'Uses build' }],
    });
    await send('DELETE', `/workflows/${created.id}`);
    expect((await send('GET', `/templates/${deployId}/refs`)).body).toMatchObject({ workflows: [] });
  });

  it('lists a workflow among the references of the inventories and variable groups its steps name, and keeps them', async () => {
    const inventoryId = await p.createLocalInventory('wf inventory');
    const groupId = await p.createVariableGroup('wf group', []);
    const step = (key: string, extra: Record<string, unknown>) => ({
      key,
      kind: 'template',
      template_id: buildId,
      ...extra,
    });
    const created = await send('POST', '/workflows', {
      name: 'Uses resources',
      steps: [
        step('a', { inventory_id: inventoryId }),
        step('b', { inventory_id: inventoryId, environment_id: groupId }),
      ],
    });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: number }).id;
    const listed = { workflows: [{ id, name: 'Uses resources' }] };
    expect((await send('GET', `/inventory/${inventoryId}/refs`)).body).toMatchObject(listed);
    expect((await send('GET', `/environment/${groupId}/refs`)).body).toMatchObject(listed);
    const refused = await send('DELETE', `/inventory/${inventoryId}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'in_use',
      error: expect.stringContaining('workflows "Uses resources"'),
    });
    expect((await send('DELETE', `/environment/${groupId}`)).status).toBe(400);
    // Another project's resources with the same ids are not this workflow's.
    expect((await t.request('GET', `${other.base}/inventory/${inventoryId}/refs`, { as: t.adminCookie })).status).toBe(
      404,
    );

    // A revision whose steps name neither frees them; then they can go.
    expect((await send('PUT', `/workflows/${id}`, { name: 'Uses resources', steps: [step('a', {})] })).status).toBe(
      200,
    );
    expect((await send('GET', `/inventory/${inventoryId}/refs`)).body).toMatchObject({ workflows: [] });
    expect((await send('GET', `/environment/${groupId}/refs`)).body).toMatchObject({ workflows: [] });
    expect((await send('DELETE', `/inventory/${inventoryId}`)).status).toBe(204);
    expect((await send('DELETE', `/environment/${groupId}`)).status).toBe(204);
    expect((await send('DELETE', `/workflows/${id}`)).status).toBe(204);
  });

  it("backs workflows up by name and restores them onto the new project's templates", async () => {
    const body = definition();
    body.steps[1] = {
      key: 'approve',
      kind: 'approval',
      approvers: { user_ids: [users.manager.id, users.runner.id] },
      required: 2,
    } as never;
    const created = (await send('POST', '/workflows', { ...body, name: 'Backed up' })).body as { id: number };
    const backup = (await send('GET', '/backup')).body as { meta: { name: string }; workflows: unknown[] };
    expect(backup.workflows).toEqual([
      expect.objectContaining({
        name: 'Backed up',
        steps: [
          expect.objectContaining({ key: 'build', template: 'Build', inventory: null }),
          expect.objectContaining({ approvers: { users: ['wf-manager', 'wf-runner'], roles: [] }, required: 2 }),
          expect.objectContaining({ key: 'pause', seconds: 30 }),
          expect.objectContaining({ key: 'deploy', template: 'Deploy' }),
        ],
      }),
    ]);
    expect(JSON.stringify(backup.workflows)).not.toContain('template_id');

    const restored = await t.request('POST', '/api/projects/restore', {
      as: t.adminCookie,
      body: { ...backup, meta: { ...backup.meta, name: 'Restored workflows' } },
    });
    expect(restored.status, restored.text).toBe(200);
    const restoredBase = `/api/project/${(restored.body as { id: number }).id}`;
    const [summary] = (await t.request('GET', `${restoredBase}/workflows`, { as: t.adminCookie })).body as {
      id: number;
    }[];
    const workflow = (await t.request('GET', `${restoredBase}/workflows/${summary?.id}`, { as: t.adminCookie }))
      .body as {
      revision: number;
      steps: { key: string; template_id?: number; approvers?: unknown; required?: number }[];
    };
    const templates = (await t.request('GET', `${restoredBase}/templates`, { as: t.adminCookie })).body as {
      id: number;
      name: string;
    }[];
    expect(workflow.revision).toBe(1);
    expect(workflow.steps[0]?.template_id).toBe(templates.find((x) => x.name === 'Build')?.id);
    expect(workflow.steps[3]?.template_id).toBe(templates.find((x) => x.name === 'Deploy')?.id);
    // The restored project's only member is who restored it: the approval falls to its owners.
    expect(workflow.steps[1]).toMatchObject({ approvers: { user_ids: [], roles: ['owner'] }, required: 2 });
    const refs = (
      await t.request('GET', `${restoredBase}/templates/${workflow.steps[0]?.template_id}/refs`, {
        as: t.adminCookie,
      })
    ).body;
    expect(refs).toMatchObject({ workflows: [{ name: 'Backed up' }] });

    // A workflow naming a template the backup lacks refuses the whole restore.
    const broken = structuredClone(backup) as {
      meta: { name: string };
      workflows: { steps: { template?: string }[] }[];
    };
    broken.meta.name = 'Broken restore';
    const step = broken.workflows[0]?.steps[0];
    if (step) step.template = 'Nowhere';
    const refused = await t.request('POST', '/api/projects/restore', { as: t.adminCookie, body: broken });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: 'workflows[0] "Backed up": Step "build": template "Nowhere" not found in this project',
    });
    const projects = (await t.request('GET', '/api/projects', { as: t.adminCookie })).body as { name: string }[];
    expect(projects.map((x) => x.name)).not.toContain('Broken restore');
    await send('DELETE', `/workflows/${created.id}`);
  });

  it('deleting the project deletes its workflows', async () => {
    const doomed = await createProjectFixture(t, { 'run.sh': 'echo doomed\n' });
    const templateId = await doomed.createTemplate({ name: 'T', playbook: 'run.sh' });
    const created = await t.request('POST', `${doomed.base}/workflows`, {
      as: t.adminCookie,
      body: { name: 'W', steps: [{ key: 'a', kind: 'template', template_id: templateId }] },
    });
    expect(created.status).toBe(201);
    expect((await t.request('DELETE', doomed.base, { as: t.adminCookie })).status).toBe(204);
    const { db } = t.runtime.connection;
    expect(await db.selectFrom('workflow').selectAll().where('project_id', '=', doomed.projectId).execute()).toEqual(
      [],
    );
  });
});
