import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TaskOutputs, TaskSpec } from '@gantry/contract';
import { describe, expect, it } from 'vitest';
import { runTask } from '../src/run-task.ts';
import { createOutputCollector } from '../src/task-outputs.ts';
import { createGitRepository } from './support/git-fixture.ts';
import { buildSpec, keylessRepository } from './support/spec.ts';
import { createTaskHooks } from './support/task-hooks.ts';

async function run(spec: TaskSpec, confirm = true) {
  const published: TaskOutputs[] = [];
  const { hooks, lines } = createTaskHooks({
    waitForConfirmation: () => Promise.resolve(confirm),
    onOutputs: (outputs) => {
      published.push(outputs);
      return Promise.resolve();
    },
  });
  const outcome = await runTask(spec, hooks);
  return { outcome, lines, outputs: published.at(-1), calls: published.length };
}

function scriptSpec(script: string, overrides: Partial<TaskSpec> = {}): TaskSpec {
  const repo = createGitRepository({ 'run.sh': script });
  return buildSpec({
    repository: keylessRepository(40, repo.url),
    ...overrides,
  });
}

describe('task outputs', () => {
  it('reads name=value and JSON lines from the file named in GANTRY_OUTPUTS, secrets masked', async () => {
    const script = [
      'echo "artifact=build-42.tar.gz" >> "$GANTRY_OUTPUTS"',
      'echo "url=https://example.test/a=b" >> "$GANTRY_OUTPUTS"',
      'echo "# a comment" >> "$GANTRY_OUTPUTS"',
      `echo '{"count": 3, "tags": ["a", "b"], "note": "two\\nlines", "empty": null}' >> "$GANTRY_OUTPUTS"`,
      'echo "token=Bearer $API_TOKEN" >> "$GANTRY_OUTPUTS"',
      'echo "artifact=build-43.tar.gz" >> "$GANTRY_OUTPUTS"',
    ].join('\n');
    const result = await run(
      scriptSpec(script, { secret_vars: { API_TOKEN: 'out-S3cret-99' }, secrets: ['out-S3cret-99'] }),
    );
    expect(result.outcome, result.lines.join('\n')).toBe('success');
    expect(result.outputs).toEqual({
      artifact: 'build-43.tar.gz',
      url: 'https://example.test/a=b',
      count: '3',
      tags: '["a","b"]',
      note: 'two\nlines',
      empty: '',
      token: 'Bearer ********',
    });
    expect(result.lines).toContain('Outputs: artifact, url, count, tags, note, empty, token');
    expect(result.lines.join('\n')).not.toContain('out-S3cret-99');
  });

  it('leaves out bad lines, names, long values and outputs past the limit with a line in the log each', async () => {
    const script = [
      'echo "no equals sign" >> "$GANTRY_OUTPUTS"',
      'echo "1bad=x" >> "$GANTRY_OUTPUTS"',
      'echo "{not json" >> "$GANTRY_OUTPUTS"',
      'printf "long=%05000d\\n" 0 >> "$GANTRY_OUTPUTS"',
      'for i in $(seq 1 80); do echo "out$i=$i" >> "$GANTRY_OUTPUTS"; done',
    ].join('\n');
    const result = await run(scriptSpec(script));
    expect(result.outcome).toBe('success');
    const outputs = result.outputs ?? {};
    expect(Object.keys(outputs)).toHaveLength(50);
    expect(outputs.out50).toBe('50');
    expect(outputs.out51).toBeUndefined();
    expect(outputs.long).toBeUndefined();
    const log = result.lines.join('\n');
    expect(log).toContain('Output line 1: expected name=value');
    expect(log).toContain('Output line 2: not a valid output name');
    expect(log).toContain('Output line 3: not a JSON object');
    expect(log).toContain('Output line 4: the value of long is longer than 4096 characters');
    expect(log).toContain('Output line 55: more than 50 outputs; out51 is left out');
    expect(log).toContain('14 more output problems');
  });

  it('reads an outputs file only up to its limit, and says the rest was not read', async () => {
    // 1.5 MiB of outputs: the first 50 are taken, the file is read to 1 MiB and the line cut there left out.
    const script = 'for i in $(seq 1 60000); do printf "out%d=%020d\\n" "$i" 0; done >> "$GANTRY_OUTPUTS"\n';
    const result = await run(scriptSpec(script));
    expect(result.outcome, result.lines.join('\n')).toBe('success');
    expect(Object.keys(result.outputs ?? {})).toHaveLength(50);
    expect(result.outputs?.out1).toBe('00000000000000000000');
    expect(result.lines.join('\n')).toContain('The outputs file is larger than 1048576 bytes; the rest was not read');
  });

  it('does not follow a link put in place of the outputs file, and publishes nothing when nothing was written', async () => {
    const secretFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'gantry-other-')), 'other');
    writeFileSync(secretFile, 'stolen=yes\n');
    const linked = await run(scriptSpec(`ln -sf "${secretFile}" "$GANTRY_OUTPUTS"\n`));
    expect(linked.outcome).toBe('success');
    expect(linked.calls).toBe(0);
    const quiet = await run(scriptSpec('echo nothing\n'));
    expect(quiet.calls).toBe(0);
  });

  it('publishes the outputs a failed task wrote', async () => {
    const result = await run(scriptSpec('echo "reason=disk full" >> "$GANTRY_OUTPUTS"\nexit 4\n'));
    expect(result.outcome).toBe('error');
    expect(result.outputs).toEqual({ reason: 'disk full' });
  });

  it("adds terraform's outputs after a successful apply, a sensitive one masked whole", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-fake-tf-'));
    const fake = path.join(dir, 'terraform');
    // A stand-in for terraform: init and workspace succeed, plan has changes, apply works, output prints JSON.
    writeFileSync(
      fake,
      [
        '#!/bin/bash',
        'case "$1" in',
        '  plan) exit 2 ;;',
        '  apply) echo "Apply complete!" ;;',
        '  output) cat <<JSON',
        '{',
        '  "address": { "sensitive": false, "type": "string", "value": "10.0.0.7" },',
        '  "ports": { "sensitive": false, "type": ["list", "number"], "value": [80, 443] },',
        '  "db_password": { "sensitive": true, "type": "string", "value": "hunter2-pw" }',
        '}',
        'JSON',
        '  ;;',
        'esac',
        '',
      ].join('\n'),
    );
    chmodSync(fake, 0o755);
    const repo = createGitRepository({ 'tf/main.tf': '' });
    const spec = buildSpec({
      app: 'terraform',
      app_path: fake,
      playbook: 'tf',
      repository: keylessRepository(41, repo.url),
    });
    const applied = await run(spec);
    expect(applied.outcome, applied.lines.join('\n')).toBe('success');
    expect(applied.outputs).toEqual({ address: '10.0.0.7', ports: '[80,443]', db_password: '********' });
    expect(applied.lines.join('\n')).not.toContain('hunter2-pw');

    // A rejected plan applies nothing: no outputs are read.
    const rejected = await run({ ...spec, task_id: spec.task_id + 100000 }, false);
    expect(rejected.outcome).toBe('rejected');
    expect(rejected.calls).toBe(0);
  });

  it('leaves out terraform outputs that are not objects instead of failing the task', () => {
    const outputs = createOutputCollector((text) => text.replaceAll('s3cret', '********'));
    outputs.addToolOutputs(
      '{"gone": null, "count": 3, "name": {"value": "web-s3cret"}, "9bad": {"value": "x"}}',
      'terraform',
    );
    expect(outputs.result()).toEqual({ name: 'web-********' });
    expect(outputs.problemLines()).toEqual([
      'Terraform output gone: not an output',
      'Terraform output count: not an output',
      'Terraform output: not a valid output name (a letter or _, then at most 63 letters, digits, _ or -)',
    ]);
    outputs.addToolOutputs('[1, 2]', 'terraform');
    expect(outputs.problemLines().at(-1)).toBe('The terraform outputs could not be read');
  });

  it("reads pulumi's stack outputs, a secret one masked whole, and leaves out bad names", () => {
    const outputs = createOutputCollector((text) => text.replaceAll('s3cret', '********'));
    outputs.addToolOutputs(
      '{"url": "https://s3cret.example", "sizes": [1, 2], "key": "[secret]", "9bad": "x", "none": null}',
      'pulumi',
    );
    expect(outputs.result()).toEqual({ url: 'https://********.example', sizes: '[1,2]', key: '********', none: '' });
    expect(outputs.problemLines()).toEqual([
      'Pulumi output: not a valid output name (a letter or _, then at most 63 letters, digits, _ or -)',
    ]);
    outputs.addToolOutputs('not json', 'pulumi');
    expect(outputs.problemLines().at(-1)).toBe('The pulumi stack outputs could not be read');
  });
});
