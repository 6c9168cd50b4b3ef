import { beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { withRemoteRunner } from './runner-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';
import { type Edge, type RunDetail, type StepRun, createWorkflowCalls } from './workflow-run-fixture.ts';

const dialects = await listTestDialects();

const TOKEN = 'deploy-T0ken-5531';

const BUILD_SCRIPT = [
  'echo "artifact=app-1.4.2.tar.gz" >> "$GANTRY_OUTPUTS"',
  'echo "token=Bearer $DEPLOY_TOKEN" >> "$GANTRY_OUTPUTS"',
  `echo '{"count": 3}' >> "$GANTRY_OUTPUTS"`,
  'echo "1bad=x" >> "$GANTRY_OUTPUTS"',
  '',
].join('\n');

const SET_STATS_PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - set_stats:
        data:
          version: "1.2.3"
          note: "token {{ api_token }}"
          ports: [80, 443]
`;

describe.each(dialects)('workflow step outputs on %s', (dialect) => {
  const t = useTestApp(dialect);
  let p: ProjectFixture;
  const templates = { build: 0, deploy: 0, quiet: 0, gate: 0 };
  let stageGroup = 0;

  const send = (method: string, url: string, body?: unknown, as = t.adminCookie) =>
    t.request(method, `${p.base}${url}`, { as, ...(body === undefined ? {} : { body }) });

  // The runs read here hold no TOKEN: it is one of the app's secrets (beforeAll), which no answer may hold.
  const { createWorkflow, waitForRun, runToEnd } = createWorkflowCalls(t, () => p.base);
  const stepOf = (run: RunDetail, key: string) => run.steps.find((s) => s.key === key) as StepRun;

  /** A template step whose inputs are the named outputs of step `from`, each into the variable of its name. */
  const stepTakingOutputs = (key: string, templateId: number, from: string, outputs: string[]) => ({
    key,
    kind: 'template',
    template_id: templateId,
    inputs: outputs.map((name) => ({ variable: name, source: 'output', step: from, output: name })),
  });

  const releaseSteps = (deployExtra: Record<string, unknown> = {}) => [
    { key: 'build', kind: 'template', template_id: templates.build, outputs: ['artifact', 'token', 'count'] },
    { ...stepTakingOutputs('deploy', templates.deploy, 'build', ['artifact', 'token', 'count']), ...deployExtra },
  ];
  const releaseEdges: Edge[] = [{ from: 'build', to: 'deploy', on: 'success' }];

  beforeAll(async () => {
    t.runtime.services.workflowRuns.beginSweep();
    t.secrets.add(TOKEN);
    p = await createProjectFixture(t, {
      'build.sh': BUILD_SCRIPT,
      'deploy.sh': 'echo "deploy args: $*"\n',
      'quiet.sh': 'echo nothing to publish\n',
      'stats.yml': SET_STATS_PLAYBOOK,
      'gate.sh': 'echo "gate args: $*"\nexit 1\n',
    });
    const tokenGroup = await p.createVariableGroup('deploy token', [
      { type: 'env', name: 'DEPLOY_TOKEN', secret: TOKEN },
    ]);
    stageGroup = await p.createVariableGroup('stage', [], '{"stage": "prod-eu"}');
    templates.build = await p.createTemplate({ name: 'Build', playbook: 'build.sh', environment_id: tokenGroup });
    templates.deploy = await p.createTemplate({
      name: 'Deploy',
      playbook: 'deploy.sh',
      survey_vars: ['artifact', 'token', 'count', 'version', 'note'].map((name) => ({ name, title: name })),
    });
    templates.quiet = await p.createTemplate({ name: 'Quiet', playbook: 'quiet.sh' });
    templates.gate = await p.createTemplate({
      name: 'Gate',
      playbook: 'gate.sh',
      survey_vars: [{ name: 'artifact', title: 'artifact' }],
    });
  });

  it("passes a step's outputs to a later step's survey variables, secrets masked, with the later step's variable group", async () => {
    const workflowId = await createWorkflow(releaseSteps({ environment_id: stageGroup }), releaseEdges);
    const run = await runToEnd(workflowId);
    expect(run.status, JSON.stringify(run)).toBe('success');
    const build = stepOf(run, 'build');
    const deploy = stepOf(run, 'deploy');
    expect(build.outputs).toEqual({ artifact: 'app-1.4.2.tar.gz', token: 'Bearer ********', count: '3' });
    expect(deploy.outputs).toEqual({});

    // The task carries its outputs too; the bad line is in its log, the secret nowhere.
    const buildOutputs = await send('GET', `/tasks/${build.task_id}/outputs`);
    expect(buildOutputs.body).toEqual({ outputs: build.outputs });
    const buildLog = (await p.output(build.task_id as number)).join('\n');
    expect(buildLog).toContain('Output line 4: not a valid output name');
    expect(buildLog).toContain('Outputs: artifact, token, count');
    expect(buildLog).not.toContain(TOKEN);

    // The later step's task got them as its survey values, and ran with the step's variable group.
    const task = (await send('GET', `/tasks/${deploy.task_id}`)).body as { environment: string };
    expect(JSON.parse(task.environment)).toEqual({
      artifact: 'app-1.4.2.tar.gz',
      token: 'Bearer ********',
      count: '3',
    });
    const deployLog = (await p.output(deploy.task_id as number)).join('\n');
    expect(deployLog).toContain('artifact=app-1.4.2.tar.gz');
    expect(deployLog).toContain('stage=prod-eu');
  });

  it('fails a step whose input names an output its earlier step did not publish, naming it', async () => {
    const workflowId = await createWorkflow(
      [
        { key: 'build', kind: 'template', template_id: templates.quiet, outputs: ['artifact'] },
        stepTakingOutputs('deploy', templates.deploy, 'build', ['artifact']),
      ],
      releaseEdges,
    );
    const run = await runToEnd(workflowId);
    expect(run.status).toBe('failed');
    expect(stepOf(run, 'build')).toMatchObject({ status: 'success', outputs: {} });
    expect(stepOf(run, 'deploy')).toMatchObject({
      status: 'failed',
      task_id: null,
      message: 'Outputs not published by earlier steps: build.artifact',
    });
  });

  it("keeps a run's outputs when its task is deleted, whose own outputs go with it; members of the project only read them", async () => {
    const workflowId = await createWorkflow(releaseSteps(), releaseEdges);
    const run = await runToEnd(workflowId);
    const taskId = stepOf(run, 'build').task_id as number;
    const { db } = t.runtime.connection;
    const rows = () => db.selectFrom('task_output_value').select('name').where('task_id', '=', taskId).execute();
    expect(await rows()).toHaveLength(3);

    const other = await createProjectFixture(t, { 'x.sh': 'true\n' });
    expect((await t.request('GET', `${other.base}/tasks/${taskId}/outputs`, { as: t.adminCookie })).status).toBe(404);
    const stranger = await t.createUser(`outputs-stranger-${dialect}`);
    expect((await send('GET', `/tasks/${taskId}/outputs`, undefined, stranger.cookie)).status).toBe(404);
    expect((await send('GET', `/tasks/${2 ** 31}/outputs`)).status).toBe(400);

    expect((await send('DELETE', `/tasks/${taskId}`)).status).toBe(204);
    expect(await rows()).toEqual([]);
    expect((await send('GET', `/tasks/${taskId}/outputs`)).status).toBe(404);
    const again = (await send('GET', `/workflows/${workflowId}/runs/${run.id}`)).body as RunDetail;
    expect(stepOf(again, 'build').outputs).toEqual({
      artifact: 'app-1.4.2.tar.gz',
      token: 'Bearer ********',
      count: '3',
    });
  });

  it('a retried run keeps the outputs of the steps it keeps, and the steps run again take them', async () => {
    const workflowId = await createWorkflow(
      [releaseSteps()[0]!, stepTakingOutputs('gate', templates.gate, 'build', ['artifact'])],
      [{ from: 'build', to: 'gate', on: 'success' }],
    );
    const first = await runToEnd(workflowId);
    expect(first.status).toBe('failed');
    p.commit({ 'gate.sh': 'echo "gate args: $*"\n' }, 'Open the gate');
    const retried = await send('POST', `/workflows/${workflowId}/runs/${first.id}/retry`, {});
    expect(retried.status, retried.text).toBe(201);
    const run = await waitForRun(workflowId, (retried.body as RunDetail).id);
    expect(run.status, JSON.stringify(run)).toBe('success');
    expect(stepOf(run, 'build')).toMatchObject({
      task_id: stepOf(first, 'build').task_id,
      outputs: { artifact: 'app-1.4.2.tar.gz', token: 'Bearer ********', count: '3' },
    });
    const task = (await send('GET', `/tasks/${stepOf(run, 'gate').task_id}`)).body as { environment: string };
    expect(JSON.parse(task.environment)).toEqual({ artifact: 'app-1.4.2.tar.gz' });
  });

  it("publishes ansible's set_stats data as outputs", async () => {
    const inventoryId = await p.createLocalInventory('stats hosts');
    const group = await p.createVariableGroup('stats token', [{ type: 'var', name: 'api_token', secret: TOKEN }]);
    const statsTemplate = await p.createTemplate({
      name: 'Stats',
      app: 'ansible',
      playbook: 'stats.yml',
      inventory_id: inventoryId,
      environment_id: group,
    });
    const workflowId = await createWorkflow(
      [
        { key: 'stats', kind: 'template', template_id: statsTemplate, outputs: ['version', 'note'] },
        stepTakingOutputs('deploy', templates.deploy, 'stats', ['version', 'note']),
      ],
      [{ from: 'stats', to: 'deploy', on: 'success' }],
    );
    const run = await runToEnd(workflowId);
    const stats = stepOf(run, 'stats');
    expect(run.status, (await p.output(stats.task_id as number)).join('\n')).toBe('success');
    expect(stats.outputs).toEqual({ version: '1.2.3', note: 'token ********', ports: '[80,443]' });
    const task = (await send('GET', `/tasks/${stepOf(run, 'deploy').task_id}`)).body as { environment: string };
    expect(JSON.parse(task.environment)).toEqual({ version: '1.2.3', note: 'token ********' });
  });

  it('passes outputs of tasks run on a remote runner', async () => {
    await withRemoteRunner(t, p.base, 'outputs runner', async (runnerId) => {
      const workflowId = await createWorkflow(releaseSteps(), releaseEdges);
      const run = await runToEnd(workflowId);
      expect(run.status, JSON.stringify(run)).toBe('success');
      const build = (await send('GET', `/tasks/${stepOf(run, 'build').task_id}`)).body as { runner_id: number };
      expect(build.runner_id).toBe(runnerId);
      expect(stepOf(run, 'build').outputs).toEqual({
        artifact: 'app-1.4.2.tar.gz',
        token: 'Bearer ********',
        count: '3',
      });
      const task = (await send('GET', `/tasks/${stepOf(run, 'deploy').task_id}`)).body as { environment: string };
      expect(JSON.parse(task.environment)).toMatchObject({ artifact: 'app-1.4.2.tar.gz' });
    });
  });
});
