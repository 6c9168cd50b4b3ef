import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';

/**
 * Pulumi and PowerShell are rarely installed where the suite runs, so these tests put a stand-in
 * executable in their place that records its argv and environment and answers like the real tool.
 * They check the command sequence, the confirm flow and what reaches the process, not the tools.
 */
function createStandIn(name: string, body: string): { path: string; calls: () => string[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `stand-in-${name}-`));
  const log = path.join(dir, 'calls.log');
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/bash\necho "$*" >> '${log}'\n${body}\n`);
  chmodSync(file, 0o755);
  return { path: file, calls: () => readFileSync(log, 'utf8').trim().split('\n') };
}

describe('pulumi and powershell tasks through stand-in executables', () => {
  const t = useTestApp('sqlite');
  const p = useProjectFixture(t, {
    'stack/Pulumi.yaml': 'name: demo\nruntime: yaml\n',
    'hello.ps1': 'Write-Output "hello"\n',
  });

  async function useApp(app: string, executable: string) {
    expect((await t.request('PUT', `/api/apps/${app}`, { as: t.adminCookie, body: { path: executable } })).status).toBe(
      204,
    );
  }

  it('pulumi previews, waits for confirmation, runs up with the variable group in its environment, then publishes the stack outputs', async () => {
    const pulumi = createStandIn(
      'pulumi',
      [
        'if [ "$1" = stack ]; then',
        // pulumi's form: {name: value}, a secret output as "[secret]" unless --show-secrets is given.
        '  echo \'{"url": "https://app.example", "replicas": 3, "dbPassword": "[secret]"}\'',
        'else',
        '  echo "pulumi $1 in $(basename "$PWD") region=$AWS_REGION"',
        'fi',
      ].join('\n'),
    );
    await useApp('pulumi', pulumi.path);
    const environment = await t.request('POST', `${p.base}/environment`, {
      as: t.adminCookie,
      body: { name: 'cloud', json: '{}', env: JSON.stringify({ AWS_REGION: 'eu-west-1' }) },
    });
    const templateId = await p.createTemplate({
      app: 'pulumi',
      playbook: 'stack',
      environment_id: (environment.body as { id: number }).id,
    });
    const taskId = await p.runTask(templateId);
    await p.waitForStatus(taskId, ['waiting_confirmation']);
    expect(pulumi.calls()).toEqual(['preview --non-interactive']);
    expect((await t.request('POST', `${p.base}/tasks/${taskId}/confirm`, { as: t.adminCookie })).status).toBe(204);
    expect((await p.waitForStatus(taskId, ['success', 'error'])).status).toBe('success');
    expect(pulumi.calls()).toEqual([
      'preview --non-interactive',
      'up --yes --non-interactive --skip-preview',
      'stack output --json',
    ]);
    const output = await p.output(taskId);
    expect(output).toContain('pulumi preview in stack region=eu-west-1');
    expect(output).toContain('pulumi up in stack region=eu-west-1');
    expect(output).toContain('Outputs: url, replicas, dbPassword');
    // The outputs command's own text stays out of the log.
    expect(output.join('\n')).not.toContain('https://app.example');
    const outputs = await t.request('GET', `${p.base}/tasks/${taskId}/outputs`, { as: t.adminCookie });
    expect(outputs.body).toEqual({ outputs: { url: 'https://app.example', replicas: '3', dbPassword: '********' } });
  });

  it('pulumi destroy with auto-approve runs preview --destroy then destroy without waiting; a rejected preview never runs up', async () => {
    const pulumi = createStandIn('pulumi', 'true');
    await useApp('pulumi', pulumi.path);
    const templateId = await p.createTemplate({ app: 'pulumi', playbook: 'stack' });
    const destroyed = await p.runTask(templateId, { params: { auto_approve: true, destroy: true } });
    expect((await p.waitForStatus(destroyed, ['success', 'error'])).status).toBe('success');
    expect(pulumi.calls()).toEqual([
      'preview --non-interactive --destroy',
      'destroy --yes --non-interactive --skip-preview',
      'stack output --json',
    ]);

    const rejected = await p.runTask(templateId);
    await p.waitForStatus(rejected, ['waiting_confirmation']);
    expect((await t.request('POST', `${p.base}/tasks/${rejected}/reject`, { as: t.adminCookie })).status).toBe(204);
    expect((await p.waitForStatus(rejected, ['success', 'error', 'rejected'])).status).toBe('rejected');
    expect(pulumi.calls().at(-1)).toBe('preview --non-interactive');
  });

  it('a failing pulumi preview ends the task in error without asking for confirmation', async () => {
    const pulumi = createStandIn('pulumi', 'echo "error: no stack selected"; exit 255');
    await useApp('pulumi', pulumi.path);
    const templateId = await p.createTemplate({ app: 'pulumi', playbook: 'stack' });
    const taskId = await p.runTask(templateId);
    expect((await p.waitForStatus(taskId, ['success', 'error', 'waiting_confirmation'])).status).toBe('error');
    expect(await p.output(taskId)).toContain('error: no stack selected');
    expect(pulumi.calls()).toEqual(['preview --non-interactive']);
  });

  it('powershell scripts run through pwsh -File with the template arguments, even from a custom path', async () => {
    const pwsh = createStandIn('pwsh', 'echo "pwsh ran $4 with $5 $6"');
    await useApp('powershell', pwsh.path);
    const templateId = await p.createTemplate({
      app: 'powershell',
      playbook: 'hello.ps1',
      arguments: JSON.stringify(['-Name', 'world']),
    });
    const taskId = await p.runTask(templateId);
    const task = await p.waitForStatus(taskId, ['success', 'error']);
    const output = await p.output(taskId);
    expect(task.status, output.join('\n')).toBe('success');
    expect(pwsh.calls()).toEqual(['-NoLogo -NonInteractive -File hello.ps1 -Name world']);
    expect(output).toContain('pwsh ran hello.ps1 with -Name world');
  });
});
