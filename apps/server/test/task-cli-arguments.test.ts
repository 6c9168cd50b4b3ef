import { describe, expect, it } from 'vitest';
import { checkTaskArguments } from '../src/modules/tasks/task-cli-arguments.ts';

const TASK_RUNNER = true;
const MANAGER = false;

const refusal = (app: string, args: string[], untrusted: boolean): string | undefined => {
  try {
    checkTaskArguments(app, args, untrusted);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('CLI arguments a task may pass', () => {
  it("refuses a task runner every spelling that makes ansible read a file of the server's", () => {
    for (const args of [
      ['--limit', '@/srv/gantry/gantry.key'],
      ['--limit=web,@/srv/gantry/gantry.key'],
      ['-l', 'web:&@/srv/gantry/gantry.key'],
      ['-l@/srv/gantry/gantry.key'],
      // argparse reads `-l=VALUE` as VALUE, also inside a cluster of letters.
      ['-l=@/srv/gantry/gantry.key'],
      ['-vl=@/srv/gantry/gantry.key'],
      ['-vCl', ' !@/srv/gantry/gantry.key'],
      ['--limit', '\u00a0@/srv/gantry/gantry.key'],
      // Without a comma Ansible also splits on white space and brackets.
      ['--limit', 'localhost @/srv/gantry/gantry.key'],
      ['-l', 'localhost\u3000@/srv/gantry/gantry.key'],
      ['--limit=web]@/srv/gantry/gantry.key'],
      ['--limit', 'a[1]@/srv/gantry/gantry.key'],
    ])
      expect(refusal('ansible', args, TASK_RUNNER), args.join(' ')).toMatch(/cannot read hosts from a file/);
    for (const args of [
      ['-e', '@/srv/gantry/gantry.key'],
      ['-e@/srv/gantry/gantry.key'],
      ['-e=@/srv/gantry/gantry.key'],
      ['--extra-vars= @/srv/gantry/gantry.key'],
    ])
      expect(refusal('ansible', args, TASK_RUNNER), args.join(' ')).toMatch(/cannot load a file/);
    // Python strips \x1c-\x1f from a host pattern, JavaScript's trim() does not: no control character gets through.
    for (const args of [
      ['--limit', '\u001f@/srv/gantry/gantry.key'],
      ['-e', '\u001c@/srv/gantry/gantry.key'],
      ['--tags', 'a\u0000b'],
    ])
      expect(refusal('ansible', args, TASK_RUNNER), JSON.stringify(args)).toMatch(/control characters/);
    for (const args of [
      ['/srv/other/site.yml'],
      ['../../other/site.yml'],
      ['~/site.yml'],
      ['~bin/id'],
      ['--', '/x.yml'],
    ])
      expect(refusal('ansible', args, TASK_RUNNER), args.join(' ')).toMatch(/outside the repository/);
  });

  it('lets a task runner pass ansible only the options it lists, spelled in full', () => {
    for (const args of [
      ['--private-key=/root/.ssh/id_ed25519'],
      ['--key-file', '/root/.ssh/id_ed25519'],
      ['--user', 'root'],
      ['--lim=web'],
      ['--step'],
      ['-k'],
      ['-vK'],
      ['--forks=many'],
    ])
      expect(refusal('ansible', args, TASK_RUNNER), args.join(' ')).toMatch(/is not one a task may pass|whole number/);
    for (const args of [
      ['-vvv', '--check', '--diff'],
      ['-CD', '-b', '--become'],
      ['--limit', 'user@host,!db*:&prod'],
      ['-l', 'web1', '-t', 'deploy', '--skip-tags=slow', '--start-at-task', 'Install nginx'],
      ['-e', 'version=1.2 region=eu', '--extra-vars={"count": 3}'],
      ['-f', '10', '--forks=20', '--list-hosts', 'extra.yml'],
    ])
      expect(refusal('ansible', args, TASK_RUNNER), args.join(' ')).toBeUndefined();
  });

  it('refuses everyone the ansible options that run a program or pick the connection, under each alias', () => {
    for (const untrusted of [TASK_RUNNER, MANAGER]) {
      for (const args of [
        ['--vault-pass-file=~bin/id'],
        ['--vault-password-file', 'x'],
        ['--become-pass-file=/usr/bin/id'],
        ['--conn-pass-file', 'x'],
        ['--connection-password-file=x'],
        ['--vault-id', 'x@/usr/bin/id'],
        ['--ssh-common-args=-oProxyCommand=id'],
        ['-vclocal'],
        ['-i', 'hosts'],
      ])
        expect(refusal('ansible', args, untrusted), args.join(' ')).toMatch(/cannot be passed to a task/);
    }
    expect(refusal('ansible', ['--private-key=keys/deploy', '-e', 'note={{ x }}', '/srv/x.yml'], MANAGER)).toBe(
      undefined,
    );
  });

  it('checks --extra-vars as Ansible decodes it: escapes in JSON or key=value hide no name or expression', () => {
    for (const untrusted of [TASK_RUNNER, MANAGER]) {
      for (const args of [
        ['-e', '{"\\u0061nsible_python_interpreter": "/bin/sh -c id"}'],
        ['--extra-vars={"ansible_\\u0063onnection": "local"}'],
        ['-e', '[{"x": {"\\u004c\\u0044_PRELOAD": "/tmp/x.so"}}]'],
      ])
        expect(refusal('ansible', args, untrusted), args.join(' ')).toMatch(/cannot be set from a task/);
      for (const args of [
        ['-e', '\\x61nsible_connection=local'],
        ['-e', "x=\"\\x7b\\x7b lookup('pipe', 'id') }}\""],
        ['-e', 'x=\\u007b\\u007b'],
      ])
        expect(refusal('ansible', args, untrusted), args.join(' ')).toMatch(/escape sequences/);
      for (const args of [['-e', '{x: !!binary e3s=}'], ['-e', '{"x": 1'], ['--extra-vars=[x, y]']])
        expect(refusal('ansible', args, untrusted), args.join(' ')).toMatch(/must be valid JSON/);
    }
    for (const args of [
      ['-e', '{"x": "\\u007b\\u007b lookup(\'pipe\', \'id\') }}"}'],
      ['-e', '{"\\u007b% raw %\\u007d": 1}'],
    ])
      expect(refusal('ansible', args, TASK_RUNNER), args.join(' ')).toMatch(/template expression/);
    // Deeper than the check goes is refused: Ansible would read, and render, every level.
    const deep = `{"ansible_system_tmpdirs": ${'['.repeat(66)}"{{ lookup('pipe', 'id') }}"${']'.repeat(66)}}`;
    for (const untrusted of [TASK_RUNNER, MANAGER])
      expect(refusal('ansible', ['-e', deep], untrusted)).toMatch(/nested more than 64 levels deep/);
    expect(refusal('ansible', ['-e', '{"note": "caf\\u00e9", "n": [1, 2]}'], TASK_RUNNER)).toBeUndefined();
  });

  it('lets a task runner pass terraform and tofu only options that choose what to plan', () => {
    for (const app of ['terraform', 'tofu']) {
      for (const args of [
        ['-var-file=/srv/gantry/gantry.key'],
        ['--var-file', '/srv/gantry/gantry.key'],
        ['-out=/srv/gantry/gantry.key'],
        ['-state=/tmp/x'],
        ['-state-out=/tmp/x'],
        ['-backup=/tmp/x'],
        ['-generate-config-out=/tmp/x'],
        ['-var', 'region=eu'],
        ['-chdir=/'],
      ])
        expect(refusal(app, args, TASK_RUNNER), args.join(' ')).toMatch(/is not one a task may pass/);
      for (const args of [['/srv/other'], ['-refresh=false', 'dir'], ['--', '-out=/tmp/x']])
        expect(refusal(app, args, TASK_RUNNER), args.join(' ')).toMatch(/takes no other words/);
      expect(refusal(app, ['-refresh=maybe'], TASK_RUNNER)).toMatch(/true or false/);
      expect(refusal(app, ['-parallelism', 'lots'], TASK_RUNNER)).toMatch(/whole number/);
      expect(
        refusal(
          app,
          ['-target=aws_instance.web', '--replace', 'aws_instance.db', '-refresh=false', '-parallelism=4', '-no-color'],
          TASK_RUNNER,
        ),
      ).toBeUndefined();
      expect(refusal(app, ['-var-file=prod.tfvars', '-out=x'], MANAGER)).toBeUndefined();
    }
  });

  it('lets a task runner pass pulumi only options that choose what to preview and update', () => {
    for (const args of [
      ['--show-secrets'],
      ['--cwd=/'],
      ['-C', '/'],
      ['--config-file', '/srv/gantry/gantry.key'],
      ['--stack', 'production'],
      ['-s', 'production'],
      ['--policy-pack=/tmp/pack'],
      ['--tracing=file:/tmp/trace'],
      ['-rs', 'production'],
    ])
      expect(refusal('pulumi', args, TASK_RUNNER), args.join(' ')).toMatch(/is not one a task may pass/);
    expect(refusal('pulumi', ['other-stack'], TASK_RUNNER)).toMatch(/takes no other words/);
    expect(
      refusal(
        'pulumi',
        [
          '--target=urn:pulumi:dev::web::aws:s3/bucket:Bucket::site',
          '-t',
          'urn:x',
          '--refresh',
          '-r',
          '-p',
          '4',
          '-m',
          'hi',
        ],
        TASK_RUNNER,
      ),
    ).toBeUndefined();
    expect(refusal('pulumi', ['--refresh=false', '--diff'], TASK_RUNNER)).toBeUndefined();
  });

  it("leaves a script's arguments to the script", () => {
    for (const app of ['bash', 'python', 'powershell', 'ruby'])
      expect(refusal(app, ['--out=/tmp/x', '@/etc/passwd', '\u001f'], TASK_RUNNER)).toBeUndefined();
  });
});
