import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { VERSION_AND_COUNT_SURVEY, enumSurveyVar } from './survey-fixture.ts';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const SCRIPTS = {
  'args.sh': 'echo "args: $*"\n',
  'site.yml': '- hosts: all\n  gather_facts: false\n  tasks: []\n',
};

const IGNORED_LINE = 'CLI arguments sent with this task were ignored: the template does not allow overriding them.';

describe.each(dialects)('task request rights on %s', (dialect) => {
  let p: ProjectFixture;
  const cookies: Record<'owner' | 'manager' | 'runner', string> = { owner: '', manager: '', runner: '' };
  let bashTemplate: number;
  let ansibleTemplate: number;
  let inventoryId: number;
  let otherInventoryId: number;

  const post = (as: string, templateId: number, body: Record<string, unknown>) =>
    t.request('POST', `${p.base}/tasks`, { as, body: { template_id: templateId, ...body } });

  /** The request is refused with 400 and an error naming `field`. */
  async function expectRefused(as: string, templateId: number, body: Record<string, unknown>, field: string | RegExp) {
    const response = await post(as, templateId, body);
    expect(response.status, JSON.stringify(body)).toBe(400);
    expect((response.body as { error: string }).error).toMatch(field);
  }

  async function expectAccepted(
    as: string,
    templateId: number,
    body: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const response = await post(as, templateId, body);
    expect(response.status, `${JSON.stringify(body)} -> ${response.text}`).toBe(201);
    return response.body as Record<string, unknown>;
  }

  const t = useTestApp(dialect);
  beforeAll(async () => {
    p = await createProjectFixture(t, SCRIPTS);
    t.secrets.add('runner-Token-1');
    for (const [role, slug] of [
      ['owner', 'owner'],
      ['manager', 'manager'],
      ['runner', 'task_runner'],
    ] as const) {
      const user = await t.createUser(`rights-${role}`);
      const added = await t.request('POST', `${p.base}/users`, {
        as: t.adminCookie,
        body: { user_id: user.id, role: slug },
      });
      expect(added.status).toBe(204);
      cookies[role] = user.cookie;
    }
    const inventory = async (name: string) =>
      (
        (
          await t.request('POST', `${p.base}/inventory`, {
            as: t.adminCookie,
            body: { name, type: 'static', inventory: 'localhost\n', ssh_key_id: p.noneKeyId },
          })
        ).body as { id: number }
      ).id;
    inventoryId = await inventory('main hosts');
    otherInventoryId = await inventory('other hosts');
    const survey = [
      enumSurveyVar('region', 'Region', { Europe: 'eu', Asia: 'ap' }),
      { name: 'count', title: 'Count', type: 'int' },
      { name: 'note', title: 'Note' },
      { name: 'token', title: 'Token', type: 'secret' },
    ];
    bashTemplate = await p.createTemplate({ playbook: 'args.sh', survey_vars: survey, inventory_id: inventoryId });
    ansibleTemplate = await p.createTemplate({
      app: 'ansible',
      playbook: 'site.yml',
      inventory_id: inventoryId,
      survey_vars: survey,
      allow_override_args_in_task: true,
    });
  });

  it('refuses a task runner every field the template does not offer, naming it', async () => {
    const runner = cookies.runner;
    await expectRefused(
      runner,
      bashTemplate,
      { environment: JSON.stringify({ region: 'eu', extra_thing: 'x' }) },
      /"extra_thing"/,
    );
    await expectRefused(runner, bashTemplate, { secret: JSON.stringify({ api_key: 'x' }) }, /"api_key"/);
    await expectRefused(runner, bashTemplate, { params: { become: true } }, /"become"/);
    await expectRefused(runner, bashTemplate, { params: { tags: ['web'] } }, /"tags"/);
    await expectRefused(runner, bashTemplate, { limit: 'web1' }, /"limit"/);
    await expectRefused(runner, bashTemplate, { git_branch: 'feature' }, /git_branch/);
    await expectRefused(runner, bashTemplate, { inventory_id: otherInventoryId }, /inventory_id/);
    await expectRefused(runner, bashTemplate, { playbook: 'site.yml' }, /playbook/);
    await expectRefused(runner, bashTemplate, { commit_hash: 'abcdef1234567' }, /commit_hash/);
    await expectRefused(
      runner,
      ansibleTemplate,
      { environment: JSON.stringify({ note: "{{ lookup('pipe', 'id') }}" }) },
      /"note"/,
    );
    // The same extra variable through the CLI arguments the template allows.
    for (const [args, refusal] of [
      [['-e', "note={{ lookup('pipe', 'id') }}"], /--extra-vars/],
      [['--extra-vars={"note": "{% raw %}x{% endraw %}"}'], /--extra-vars/],
      [['-ve', 'note={# x #}'], /--extra-vars/],
      // Variables from a file of the server's, and playbooks outside the repository.
      [['-e', '@/etc/passwd'], /cannot load a file/],
      [['-e@/etc/passwd'], /cannot load a file/],
      [['/srv/other-project/site.yml'], /outside the repository/],
      [['--limit=all', '../../other/site.yml'], /outside the repository/],
    ] as const)
      await expectRefused(runner, ansibleTemplate, { arguments: JSON.stringify(args) }, refusal);
  });

  it("refuses a task runner host patterns that read a file of the server's (@…), as a parameter or a CLI argument", async () => {
    const runner = cookies.runner;
    for (const body of [
      { limit: '@/etc/passwd' },
      { limit: 'web1, @/etc/passwd' },
      { limit: 'web:&@hosts.txt' },
      // Without a comma Ansible splits on white space too, of any kind.
      { limit: 'localhost @/etc/passwd' },
      { limit: 'localhost\u3000@/etc/passwd' },
      { params: { limit: ['web1', '!@/etc/passwd'] } },
      { arguments: JSON.stringify(['--limit', '@/etc/passwd']) },
      { arguments: JSON.stringify(['-l@/etc/passwd']) },
      { arguments: JSON.stringify(['-l=@/etc/passwd']) },
      { arguments: JSON.stringify(['-vl', 'web:@../../secret']) },
    ])
      await expectRefused(runner, ansibleTemplate, body, /cannot read hosts from a file/);
    // Ansible strips \x1c-\x1f from a pattern as white space: a pattern holding a control character is refused.
    for (const body of [
      { limit: '\u001f@/etc/passwd' },
      { params: { limit: ['\u001e@/etc/passwd'] } },
      { arguments: JSON.stringify(['--limit', '\u001d@/etc/passwd']) },
    ])
      await expectRefused(runner, ansibleTemplate, body, /control characters/);
    // An abbreviation argparse would expand is not guessed at: options are spelled in full.
    await expectRefused(
      runner,
      ansibleTemplate,
      { arguments: JSON.stringify(['--lim=web,@/etc/passwd']) },
      /--lim is not one a task may pass/,
    );
    await expectAccepted(runner, ansibleTemplate, { limit: 'web1,!db*:&prod', params: { limit: ['web2'] } });
    await expectAccepted(runner, ansibleTemplate, { arguments: JSON.stringify(['--limit', 'user@host']) });
    await expectAccepted(cookies.manager, ansibleTemplate, { limit: '@hosts.txt' });
  });

  it('lets managers and owners pass what they could put in the template anyway', async () => {
    for (const as of [cookies.manager, cookies.owner]) {
      await expectAccepted(as, bashTemplate, {
        environment: JSON.stringify({ region: 'eu', extra_thing: 'x' }),
        secret: JSON.stringify({ api_key: 'x' }),
        params: { become: true },
      });
      await expectAccepted(as, ansibleTemplate, {
        environment: JSON.stringify({ note: '{{ inventory_hostname }}' }),
        params: { tags: ['web'] },
      });
      await expectAccepted(as, ansibleTemplate, { arguments: JSON.stringify(['-e', 'note={{ inventory_hostname }}']) });
    }
  });

  it('lets a task runner set what the template offers', async () => {
    const runner = cookies.runner;
    const task = await expectAccepted(runner, bashTemplate, {
      environment: JSON.stringify({ region: 'ap', count: 3, note: 'hello' }),
      secret: JSON.stringify({ token: 'runner-Token-1' }),
      params: { debug: true, dry_run: false, plan: true },
      inventory_id: inventoryId,
    });
    expect(task).toMatchObject({ inventory_id: inventoryId, params: { debug: true, dry_run: false, plan: true } });
    await expectAccepted(runner, ansibleTemplate, {
      params: { limit: ['web1'], tags: ['a'], skip_tags: ['b'], diff: true },
      limit: 'web2',
    });

    const flexible = await p.createTemplate({
      playbook: 'args.sh',
      allow_override_branch_in_task: true,
      task_params: { allow_override_inventory: true },
    });
    expect(
      await expectAccepted(runner, flexible, { git_branch: 'main', inventory_id: otherInventoryId }),
    ).toMatchObject({ git_branch: 'main', inventory_id: otherInventoryId });
    // A branch reaches git's command line: one that reads as an option (git fetch origin --upload-pack=<command>) is no branch.
    for (const branch of ['--upload-pack=touch /tmp/gantry-pwned', '-b', 'a b', 'a..b', 'main.lock']) {
      await expectRefused(runner, flexible, { git_branch: branch }, 'Branch must be a valid git branch name');
    }
    const template = await t.request('POST', `${p.base}/templates`, {
      as: t.adminCookie,
      body: { name: 'option branch', app: 'bash', playbook: 'args.sh', git_branch: '--upload-pack=id' },
    });
    expect(template.status).toBe(400);
    expect((template.body as { error: string }).error).toMatch('Branch must be a valid git branch name');
    expect(await expectAccepted(runner, flexible, { git_branch: 'release/1.2-rc' })).toMatchObject({
      git_branch: 'release/1.2-rc',
    });

    // A re-run pins the commit its task ran; that commit is the template's own code, not one the runner picked.
    const finished = await p.waitForStatus(Number(task.id), ['success', 'error']);
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: p.repoDir, encoding: 'utf8' }).trim();
    expect(finished.commit_hash).toBe(head);
    await expectAccepted(runner, bashTemplate, { commit_hash: head });
    expect(await expectAccepted(runner, bashTemplate, { commit_hash: head.toUpperCase() })).toMatchObject({
      commit_hash: head,
    });
    await expectAccepted(runner, flexible, { commit_hash: 'abcdef1234567' });
  });

  it('refuses connection and interpreter variables from everyone, in every spelling', async () => {
    for (const as of [t.adminCookie, cookies.owner, cookies.manager, cookies.runner]) {
      for (const name of [
        'ansible_python_interpreter',
        ' Ansible_SSH_Common_Args ',
        'ANSIBLE_BECOME_EXE',
        'ansible_shell_executable',
        'ansible_connection',
        'ansible_winrm_transport',
        'ansible_psrp_proxy',
        'ansible_\u200bconnection',
      ]) {
        await expectRefused(as, bashTemplate, { environment: JSON.stringify({ [name]: '/tmp/x' }) }, name);
        await expectRefused(as, ansibleTemplate, { secret: JSON.stringify({ [name]: '/tmp/x' }) }, name);
      }
      await expectRefused(as, bashTemplate, { secret: JSON.stringify({ LD_PRELOAD: '/tmp/x.so' }) }, /LD_PRELOAD/);
      await expectRefused(
        as,
        ansibleTemplate,
        { arguments: JSON.stringify(['-e', 'ansible_python_interpreter=/tmp/x']) },
        /ansible_python_interpreter/,
      );
      await expectRefused(
        as,
        ansibleTemplate,
        { arguments: JSON.stringify(['--extra-vars={"ansible_ssh_common_args": "-oProxyCommand=id"}']) },
        /ansible_ssh_common_args/,
      );
      await expectRefused(
        as,
        ansibleTemplate,
        { arguments: JSON.stringify(['--ssh-common-args=-oProxyCommand=id']) },
        /--ssh-common-args/,
      );
      await expectRefused(as, ansibleTemplate, { arguments: JSON.stringify(['-vclocal']) }, /-c/);
      // A password file that is executable is run: each alias of these options names a program.
      await expectRefused(
        as,
        ansibleTemplate,
        { arguments: JSON.stringify(['--vault-pass-file=~bin/id']) },
        /--vault-pass-file cannot be passed/,
      );
    }
    await expectAccepted(cookies.runner, ansibleTemplate, { arguments: JSON.stringify(['--become', '-v', '--check']) });
  });

  it('refuses a secret survey answer sent in environment, even from an admin', async () => {
    for (const as of [t.adminCookie, cookies.runner]) {
      const response = await post(as, bashTemplate, { environment: JSON.stringify({ token: 'in-the-clear' }) });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: 'Survey variable "token" is a secret: send it in "secret", not in "environment"',
        code: expect.any(String),
      });
    }
  });

  it('lets a task runner pass terraform, tofu and pulumi only options that never name a file', async () => {
    for (const [app, refused, accepted] of [
      ['terraform', ['-var-file=/etc/passwd', '-out=/tmp/gantry-written'], ['-target=null_resource.web']],
      ['tofu', ['-state=/tmp/gantry-state', 'other-dir'], ['-refresh=false', '-parallelism=2']],
      ['pulumi', ['--show-secrets', '--cwd=/'], ['--target', 'urn:pulumi:dev::web::x', '--diff']],
    ] as const) {
      const templateId = await p.createTemplate({ app, playbook: '', allow_override_args_in_task: true });
      for (const arg of refused)
        await expectRefused(cookies.runner, templateId, { arguments: JSON.stringify([arg]) }, arg.split('=')[0] ?? arg);
      await expectAccepted(cookies.runner, templateId, { arguments: JSON.stringify(accepted) });
      await expectAccepted(cookies.manager, templateId, { arguments: JSON.stringify(refused) });
    }
  });

  it('ignores CLI arguments the template does not allow, saying so in the log, and passes allowed ones', async () => {
    const task = await expectAccepted(cookies.runner, bashTemplate, {
      arguments: JSON.stringify(['--dangerous', '$(id)']),
    });
    expect(task.arguments).toBeNull();
    await p.waitForStatus(Number(task.id), ['success', 'error']);
    const lines = await p.output(Number(task.id));
    expect(lines[0]).toBe(IGNORED_LINE);
    expect(lines.filter((l) => l === IGNORED_LINE)).toHaveLength(1);
    expect(lines).toContain('args: ');

    const allowing = await p.createTemplate({ playbook: 'args.sh', allow_override_args_in_task: true });
    const allowed = await expectAccepted(cookies.runner, allowing, { arguments: JSON.stringify(['--from-task']) });
    await p.waitForStatus(Number(allowed.id), ['success']);
    const allowedLines = await p.output(Number(allowed.id));
    expect(allowedLines).toContain('args: --from-task');
    expect(allowedLines).not.toContain(IGNORED_LINE);
  });

  it('checks survey answers by type', async () => {
    const typed = await p.createTemplate({
      playbook: 'args.sh',
      survey_vars: [...VERSION_AND_COUNT_SURVEY, enumSurveyVar('region', 'Region', { Europe: 'eu' })],
    });
    const as = cookies.runner;
    const refusals: Array<[answers: Record<string, unknown> | undefined, message: string]> = [
      [undefined, 'Version is required'],
      [{ version: '  ' }, 'Version is required'],
      [{ version: '1', count: 'x1' }, 'Count: Must be integer'],
      [{ version: '1', count: 3.5 }, 'Count: Must be integer'],
      [{ version: '1', count: true }, 'Count: Must be integer'],
      [{ version: '1', region: 'us' }, 'Region must be one of its values'],
      [{ version: { nested: 1 } }, 'Version must be a single value'],
    ];
    for (const [answers, message] of refusals)
      await expectRefused(as, typed, answers ? { environment: JSON.stringify(answers) } : {}, message);
    await expectAccepted(as, typed, { environment: JSON.stringify({ version: '1', count: '-4', region: 'eu' }) });
    await expectAccepted(as, typed, { environment: JSON.stringify({ version: '1', count: 7 }) });
  });
});
