import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.ts';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('configuration that an operator can trust', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses an unknown GANTRY_ variable and names the nearest valid one', () => {
    expect(() => loadConfig({}, { GANTRY_DB_DIALET: 'postgres' })).toThrow(
      new ConfigError('Unknown environment variable GANTRY_DB_DIALET; did you mean GANTRY_DB_DIALECT?'),
    );
    expect(() => loadConfig({}, { GANTRY_TASK_TIMEOUT_MINUTE: '5' })).toThrow(
      /did you mean GANTRY_TASK_TIMEOUT_MINUTES\?/,
    );
  });

  it('refuses an unknown key in the configuration file and names the nearest valid one', () => {
    const file = path.join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ db_dialet: 'postgres' }));
    expect(() => loadConfig({}, { GANTRY_CONFIG: file })).toThrow(
      new ConfigError(`Unknown setting "db_dialet" in ${file}; did you mean "db_dialect"?`),
    );
  });

  it('accepts the variables of the runner, the tests and task processes beside the settings', () => {
    const config = loadConfig(
      {},
      {
        GANTRY_DATA_DIR: dir,
        GANTRY_RUNNER_TOKEN: 'x',
        GANTRY_RUNNER_SERVER: 'http://127.0.0.1:3000',
        GANTRY_RUNNER_REGISTRATION_TOKEN: 'r',
        GANTRY_TEST_DIALECTS: 'sqlite',
        GANTRY_CHROMIUM: '/usr/bin/chromium',
        GANTRY_TASK_ID: '7',
      },
    );
    expect(config.data_dir).toBe(dir);
    expect(config.runner_registration_token).toBe('r');
  });

  it('says a file is not JSON without quoting its content', () => {
    const file = path.join(dir, 'config.json');
    writeFileSync(file, '{"db_url": "postgres://gantry:Sup3r-Secret@db/gantry",}');
    let message = '';
    try {
      loadConfig({}, { GANTRY_CONFIG: file });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(`The configuration file ${file} is not valid JSON`);
    expect(() => loadConfig({}, { GANTRY_CONFIG: path.join(dir, 'missing.json') })).toThrow(
      /Cannot read the configuration file .*missing\.json: ENOENT/,
    );
  });
});

describe('gantry command line: version, config file and one-line errors', () => {
  let dir: string;
  let out: string[];
  let err: string[];
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-cli-'));
    out = [];
    err = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const run = (env: NodeJS.ProcessEnv, ...argv: string[]) =>
    runCli(argv, {
      print: (l) => out.push(l),
      printError: (l) => err.push(l),
      env: { GANTRY_LOG_LEVEL: 'silent', ...env },
    });

  it('prints the version with --version and -v', async () => {
    expect(await run({}, '--version')).toBe(0);
    expect(await run({}, '-v')).toBe(0);
    expect(out).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+/), expect.stringMatching(/^\d+\.\d+\.\d+/)]);
  });

  it('reads the configuration file named by --config', async () => {
    const file = path.join(dir, 'gantry.json');
    writeFileSync(file, JSON.stringify({ data_dir: path.join(dir, 'from-file') }));
    expect(await run({}, '--config', file, 'migrate')).toBe(0);
    expect(existsSync(path.join(dir, 'from-file', 'gantry.sqlite'))).toBe(true);
  });

  it('stops on a configuration typo with one line and no stack trace', async () => {
    expect(await run({ GANTRY_DATA_DIR: dir, GANTRY_DB_DIALET: 'postgres' }, 'migrate')).toBe(1);
    expect(err).toEqual(['Unknown environment variable GANTRY_DB_DIALET; did you mean GANTRY_DB_DIALECT?']);
  });

  it('explains an unreachable database in one line, with the password masked', async () => {
    const url = 'postgres://gantry:Sup3r-Secret@127.0.0.1:1/gantry';
    expect(await run({ GANTRY_DATA_DIR: dir, GANTRY_DB_DIALECT: 'postgres', GANTRY_DB_URL: url }, 'migrate')).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(
      /^Cannot open the postgres store at postgres:\/\/gantry:\*\*\*@127\.0\.0\.1:1\/gantry: .*ECONNREFUSED/,
    );
    expect(err[0]).not.toContain('Sup3r-Secret');
    expect(err[0]).not.toContain('\n');
  });

  it('explains an unreachable MySQL store and a broken URL the same way', async () => {
    expect(
      await run(
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
      await run(
        { GANTRY_DATA_DIR: dir, GANTRY_DB_DIALECT: 'postgres', GANTRY_DB_URL: 'postgres://u:pw-Secret-9@[bad/x' },
        'migrate',
      ),
    ).toBe(1);
    expect(err.at(-1)).toMatch(/^Cannot open the postgres store at postgres:\/\/…: /);
    expect(err.join('\n')).not.toContain('pw-Secret-9');
    expect(err.join('\n')).not.toMatch(/\n\s+at /);
  });
});
