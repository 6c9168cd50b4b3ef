import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.ts';

describe('gantry command line', () => {
  let dir: string;
  let out: string[];
  let err: string[];

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-cli-'));
    out = [];
    err = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const runWith = (env: NodeJS.ProcessEnv, ...argv: string[]) =>
    runCli(argv, {
      print: (l) => out.push(l),
      printError: (l) => err.push(l),
      env: { GANTRY_LOG_LEVEL: 'silent', ...env },
    });
  const run = (...argv: string[]) => runWith({ GANTRY_DATA_DIR: dir }, ...argv);

  it('migrate applies the migrations once, then reports the store up to date', async () => {
    expect(await run('migrate')).toBe(0);
    expect(out.at(-1)).toMatch(/^Applied: 0001-foundation/);
    expect(await run('migrate')).toBe(0);
    expect(out.at(-1)).toBe('The database is up to date.');
  });

  it('version prints the version', async () => {
    expect(await run('version')).toBe(0);
    expect(out).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+/)]);
  });

  it('user add, list, get, change-by-login, change-by-email and delete work as the sign-in help says', async () => {
    expect(
      await run(
        'user',
        'add',
        '--admin',
        '--login',
        'Root',
        '--name',
        'Root User',
        '--email',
        'root@example.com',
        '--password',
        'first-Pass1',
      ),
    ).toBe(0);
    expect(out.pop()).toBe('User root <root@example.com> added!');
    expect(
      await run(
        'user',
        'add',
        '--login',
        'ops',
        '--name',
        'Ops',
        '--email',
        'ops@example.com',
        '--password',
        'ops-Pass1',
      ),
    ).toBe(0);

    out.length = 0;
    expect(await run('user', 'list')).toBe(0);
    expect(out).toEqual(['ops', 'root']);

    expect(await run('user', 'change-by-login', '--login', 'ops', '--password', 'second-Pass2', '--admin')).toBe(0);
    expect(out.pop()).toBe('User ops <ops@example.com> changed!');
    expect(await run('user', 'change-by-email', '--email', 'ops@example.com', '--name', 'Operator')).toBe(0);

    out.length = 0;
    expect(await run('user', 'get', '--login', 'ops')).toBe(0);
    expect(out).toEqual(
      expect.arrayContaining(['Login: ops', 'Name: Operator', 'Email: ops@example.com', 'Admin: true']),
    );

    expect(await run('user', 'delete', '--login', 'ops')).toBe(0);
    expect(out.pop()).toBe('User ops <ops@example.com> deleted!');
    expect(await run('user', 'get', '--login', 'ops')).toBe(1);
    expect(err.pop()).toBe('User ops not found');
  });

  it('user add names every missing argument and exits 1', async () => {
    expect(await run('user', 'add', '--login', 'x')).toBe(1);
    expect(err.join('\n')).toBe(
      [
        'Argument --name required',
        'Argument --email required',
        'Argument --password required',
        "Run 'gantry user add --help' for usage.",
      ].join('\n'),
    );
  });

  it('user add and change refuse a password shorter than 8 characters', async () => {
    const add = ['user', 'add', '--login', 'kim', '--name', 'Kim', '--email', 'kim@example.com', '--password'];
    expect(await run(...add, 'short')).toBe(1);
    expect(err.at(-1)).toBe('Password must be at least 8 characters');
    expect(await run(...add, 'long-enough')).toBe(0);
    expect(await run('user', 'change-by-login', '--login', 'kim', '--password', 'tiny')).toBe(1);
    expect(err.at(-1)).toBe('Password must be at least 8 characters');
  });

  it('starts with a first admin whose configured password is long enough, and refuses a shorter one', async () => {
    const env = { GANTRY_DATA_DIR: dir, GANTRY_PORT: '0', GANTRY_HOST: '127.0.0.1', GANTRY_ADMIN_PASSWORD: 'short' };
    expect(await runWith(env, 'server')).toBe(1);
    expect(err.join('\n')).toContain('admin_password must be at least 8 characters');
  });

  it('a changed password is the one that signs in', async () => {
    await run(
      'user',
      'add',
      '--login',
      'pat',
      '--name',
      'Pat',
      '--email',
      'pat@example.com',
      '--password',
      'old-Pass1',
    );
    await run('user', 'change-by-login', '--login', 'pat', '--password', 'new-Pass2');
    const { loadConfig } = await import('../src/config.ts');
    const { openRuntime } = await import('../src/runtime.ts');
    const runtime = await openRuntime(loadConfig({ data_dir: dir, log_level: 'silent' }, {}));
    try {
      const client = { ip: '127.0.0.1', userAgent: 'test' };
      await expect(runtime.services.auth.login({ auth: 'pat', password: 'new-Pass2' }, client)).resolves.toEqual(
        expect.any(String),
      );
      await expect(runtime.services.auth.login({ auth: 'pat', password: 'old-Pass1' }, client)).rejects.toThrow(
        'Incorrect login or password',
      );
    } finally {
      await runtime.close();
    }
  });

  it('secrets rotate re-encrypts stored secrets with a new key file and keeps the old key aside', async () => {
    const { loadConfig } = await import('../src/config.ts');
    const { openRuntime } = await import('../src/runtime.ts');
    const config = loadConfig({ data_dir: dir, log_level: 'silent' }, {});
    let runtime = await openRuntime(config);
    const admin = await runtime.services.users.create(undefined, {
      username: 'root',
      name: 'Root',
      email: 'root@example.com',
      password: 'root-Pass-1',
      admin: true,
    });
    const actor = await runtime.services.users.findByLogin('root');
    if (!actor) throw new Error('the user was not created');
    const project = await runtime.services.projects.create(actor, { name: 'P' });
    const key = await runtime.services.keys.create(undefined, project.id, {
      name: 'k',
      type: 'login_password',
      login_password: { login: 'u', password: 'rotate-Me-1' },
    });
    const before = await runtime.connection.db
      .selectFrom('access_key')
      .select('secret')
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    await runtime.close();
    const oldKey = readFileSync(path.join(dir, 'gantry.key'), 'utf8');

    expect(await run('secrets', 'rotate')).toBe(0);
    expect(out).toContain('Re-encrypted 1 secret(s).');
    expect(readFileSync(path.join(dir, 'gantry.key.old'), 'utf8')).toBe(oldKey);
    expect(readFileSync(path.join(dir, 'gantry.key'), 'utf8')).not.toBe(oldKey);

    runtime = await openRuntime(config);
    try {
      const after = await runtime.connection.db
        .selectFrom('access_key')
        .select('secret')
        .where('id', '=', key.id)
        .executeTakeFirstOrThrow();
      expect(after.secret).not.toBe(before.secret);
      expect(await runtime.services.keys.getMaterial(project.id, key.id)).toEqual({
        type: 'login_password',
        login: 'u',
        password: 'rotate-Me-1',
      });
      expect(admin.username).toBe('root');
      expect(existsSync(path.join(dir, 'gantry.key.old'))).toBe(true);
    } finally {
      await runtime.close();
    }
  });

  describe('version, config file and one-line errors', () => {
    it('prints the version with --version and -v', async () => {
      expect(await runWith({}, '--version')).toBe(0);
      expect(await runWith({}, '-v')).toBe(0);
      expect(out).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+/), expect.stringMatching(/^\d+\.\d+\.\d+/)]);
    });

    it('reads the configuration file named by --config', async () => {
      const file = path.join(dir, 'gantry.json');
      writeFileSync(file, JSON.stringify({ data_dir: path.join(dir, 'from-file') }));
      expect(await runWith({}, '--config', file, 'migrate')).toBe(0);
      expect(existsSync(path.join(dir, 'from-file', 'gantry.sqlite'))).toBe(true);
    });

    it('stops on a configuration typo with one line and no stack trace', async () => {
      expect(await runWith({ GANTRY_DATA_DIR: dir, GANTRY_DB_DIALET: 'postgres' }, 'migrate')).toBe(1);
      expect(err).toEqual(['Unknown environment variable GANTRY_DB_DIALET; did you mean GANTRY_DB_DIALECT?']);
    });

    it('explains an unreachable database in one line, with the password masked', async () => {
      const url = 'postgres://gantry:Sup3r-Secret@127.0.0.1:1/gantry';
      expect(
        await runWith({ GANTRY_DATA_DIR: dir, GANTRY_DB_DIALECT: 'postgres', GANTRY_DB_URL: url }, 'migrate'),
      ).toBe(1);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(
        /^Cannot open the postgres store at postgres:\/\/gantry:\*\*\*@127\.0\.0\.1:1\/gantry: .*ECONNREFUSED/,
      );
      expect(err[0]).not.toContain('Sup3r-Secret');
      expect(err[0]).not.toContain('\n');
    });

    it('explains an unreachable MySQL store and a broken URL the same way', async () => {
      expect(
        await runWith(
          {
            GANTRY_DATA_DIR: dir,
            GANTRY_DB_DIALECT: 'mysql',
            GANTRY_DB_URL: 'mysql://root:pw-Secret-9@127.0.0.1:1/gantry',
          },
          'server',
        ),
      ).toBe(1);
      expect(err.at(-1)).toMatch(
        /^Cannot open the mysql store at mysql:\/\/root:\*\*\*@127\.0\.0\.1:1\/gantry: .*ECONNREFUSED/,
      );
      expect(
        await runWith(
          { GANTRY_DATA_DIR: dir, GANTRY_DB_DIALECT: 'postgres', GANTRY_DB_URL: 'postgres://u:pw-Secret-9@[bad/x' },
          'migrate',
        ),
      ).toBe(1);
      expect(err.at(-1)).toMatch(/^Cannot open the postgres store at postgres:\/\/…: /);
      expect(err.join('\n')).not.toContain('pw-Secret-9');
      expect(err.join('\n')).not.toMatch(/\n\s+at /);
    });
  });
});
