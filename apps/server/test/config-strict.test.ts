import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
