import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();
const hasAnsible = spawnSync('ansible-playbook', ['--version']).status === 0;
if (!hasAnsible)
  console.warn('Skipping the ansible redaction test: ansible-playbook is not installed (apt-get install ansible-core)');

const MASK = '********';
/** Quotes, a backslash, a space, $, non-ASCII: every one of them changes in some encoding. */
const TOKEN = `Zebra'Quoll"Spix Bakko\\Slyth$Dollo éclair日本`;
/** A multi-line variable-group secret. */
const DB_PASSWORD = `Wombat "Numbat"\nDingo\\Emu77 'Yabby' 日本語`;

/**
 * What must not be in the log in any encoding: every letters-and-digits run of the secret (they are
 * the same in JSON, repr, shell quoting and URL encoding), and its base64 at the three byte alignments.
 */
function listTraces(secret: string): string[] {
  const runs = secret.match(/[A-Za-z0-9]{3,}/g) ?? [];
  const bytes = Buffer.from(secret, 'utf8');
  const base64 = [0, 1, 2].map((offset) =>
    Buffer.concat([Buffer.alloc(offset), bytes])
      .toString('base64')
      .slice([0, 2, 3][offset], [0, 2, 3][offset]! + 12),
  );
  return [...runs, ...base64, ...base64.map((text) => text.replace(/\+/g, '-').replace(/\//g, '_'))];
}

function expectNoTrace(lines: string[]): void {
  const text = lines.join('\n');
  for (const trace of [...listTraces(TOKEN), ...listTraces(DB_PASSWORD)])
    expect(text, `"${trace}" is in the log`).not.toContain(trace);
}

const PRINT_SH = `
echo "echo: $TOKEN"
printf 'printf-q: %q\\n' "$TOKEN"
LC_ALL=C printf 'printf-q-C: %q\\n' "$TOKEN"
declare -p TOKEN DB_PASSWORD
printf 'printf-q-multi: %q\\n' "$DB_PASSWORD"
echo "$DB_PASSWORD"
head -c 65530 /dev/zero | tr '\\0' a; printf '%s\\n' "$TOKEN"
set -x
: "$TOKEN" "$DB_PASSWORD"
`;

const PRINT_PY = `
import base64, json, os, shlex, urllib.parse
for name in ('TOKEN', 'DB_PASSWORD'):
    s = os.environ[name]
    b = s.encode()
    print('repr:', repr(s))
    print('ascii:', ascii(s))
    print('bytes:', repr(b))
    print('json:', json.dumps(s))
    print('json-utf8:', json.dumps(s, ensure_ascii=False))
    print('quote:', urllib.parse.quote(s))
    print('quote_plus:', urllib.parse.quote_plus(s))
    print('shlex:', shlex.quote(s))
    print('b64:', base64.b64encode(b).decode())
    print('b64url:', base64.urlsafe_b64encode(b).decode())
    print('basic:', base64.b64encode(b'deploy:' + b).decode())
`;

const SITE_YML = `- hosts: all
  gather_facts: false
  tasks:
    - debug: var=token
    - debug: var=db_password
    - debug: msg="{{ token | to_json }}"
    - debug: msg="{{ token | b64encode }}"
    - debug: msg="{{ token | urlencode }}"
    - command:
        argv: [printf, '%s', '{{ token }}']
`;

describe.each(dialects)('secrets in the task log on %s', (dialect) => {
  let p: ProjectFixture;
  let groupId = 0;

  const t = useTestApp(dialect);
  beforeAll(async () => {
    t.secrets.add(TOKEN);
    t.secrets.add(DB_PASSWORD);
    p = await createProjectFixture(t, { 'print.sh': PRINT_SH, 'print.py': PRINT_PY, 'site.yml': SITE_YML });
    groupId = await p.createVariableGroup('secrets', [{ type: 'env', name: 'DB_PASSWORD', secret: DB_PASSWORD }]);
  });

  async function runWithSecrets(
    fields: Record<string, unknown>,
    surveyName: string,
    taskFields: Record<string, unknown> = {},
  ): Promise<string[]> {
    const templateId = await p.createTemplate({
      environment_id: groupId,
      survey_vars: [{ name: surveyName, title: 'Token', type: 'secret' }],
      ...fields,
    });
    const taskId = await p.runTask(templateId, { secret: JSON.stringify({ [surveyName]: TOKEN }), ...taskFields });
    const task = await p.waitForStatus(taskId, ['success', 'error'], 120_000);
    const lines = await p.output(taskId);
    expect(task.status, lines.join('\n')).toBe('success');
    return lines;
  }

  it('bash: echo, printf %q (UTF-8 and C locale), declare -p, set -x and a line cut at 64 KiB show only the mask', async () => {
    const lines = await runWithSecrets({ app: 'bash', playbook: 'print.sh' }, 'TOKEN');
    expectNoTrace(lines);
    expect(lines).toEqual(
      expect.arrayContaining([
        `echo: ${MASK}`,
        `printf-q: ${MASK}`,
        `printf-q-C: $'${MASK}'`,
        `declare -x TOKEN="${MASK}"`,
        MASK,
      ]),
    );
    expect(lines.join('\n')).toContain(`a${MASK}`);
    expect(lines.join('\n')).toContain(`+ : '${MASK}' '${MASK}`);
  });

  it('python: repr, ascii, bytes, json.dumps, urllib quoting, shlex and base64 show only the mask', async () => {
    const lines = await runWithSecrets({ app: 'python', playbook: 'print.py' }, 'TOKEN');
    expectNoTrace(lines);
    const printed = lines.filter((line) => /^[a-z0-9_-]+: /.test(line));
    expect(printed).toHaveLength(22);
    for (const line of printed) expect(line, line).toContain(MASK);
    expect(printed).toEqual(
      expect.arrayContaining([
        `repr: '${MASK}'`,
        `bytes: b'${MASK}'`,
        `json: "${MASK}"`,
        `quote: ${MASK}`,
        `b64: ${MASK}`,
      ]),
    );
  });

  it('credentials in the repository URL never reach the log: the URL is printed without them', async () => {
    t.secrets.add("Quagga's-Pass");
    // Nothing listens on port 9: the clone fails at once, after the URL is logged.
    const repository = await t.request('POST', `${p.base}/repositories`, {
      as: t.adminCookie,
      body: {
        name: 'with password',
        git_url: 'http://deploy:Quagga%27s-Pass@127.0.0.1:9/repo.git',
        git_branch: 'main',
        ssh_key_id: p.noneKeyId,
      },
    });
    const templateId = await p.createTemplate({
      playbook: 'print.sh',
      repository_id: (repository.body as { id: number }).id,
    });
    const taskId = await p.runTask(templateId);
    expect((await p.waitForStatus(taskId, ['success', 'error'])).status).toBe('error');
    const text = (await p.output(taskId)).join('\n');
    expect(text).toContain('Cloning repository http://127.0.0.1:9/repo.git');
    expect(text).not.toContain('deploy');
    expect(text).not.toContain('Quagga');
  });

  it.skipIf(!hasAnsible || dialect !== dialects[0])(
    'ansible-playbook -vvvv: debug var, to_json, b64encode, urlencode and module arguments show only the mask',
    async () => {
      const inventoryId = await p.createLocalInventory();
      const ansibleGroupId = await p.createVariableGroup('ansible secrets', [
        { type: 'var', name: 'db_password', secret: DB_PASSWORD },
      ]);
      const lines = await runWithSecrets(
        {
          app: 'ansible',
          playbook: 'site.yml',
          inventory_id: inventoryId,
          environment_id: ansibleGroupId,
        },
        'token',
        { params: { debug: true } },
      );
      expectNoTrace(lines);
      const text = lines.join('\n');
      expect(text).toContain('-vvvv');
      expect(text).toContain(`"token": "${MASK}"`);
      expect(text.split(MASK).length).toBeGreaterThan(6);
    },
    180_000,
  );
});
