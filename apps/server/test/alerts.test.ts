import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.ts';
import { loadConfig, type ConfigInput } from '../src/config.ts';
import { formatDuration, type Alert } from '../src/modules/alerts/alert.ts';
import { createAlertChannels } from '../src/modules/alerts/alert-channels.ts';
import { createAlertDispatcher } from '../src/modules/alerts/alert-dispatcher.ts';
import { createAlertsRepository } from '../src/modules/alerts/alerts.repository.ts';
import { buildTelegramPayload } from '../src/modules/alerts/channels/telegram.ts';
import { startHttpReceiver, startSmtpReceiver, type HttpReceiver, type SmtpReceiver } from './alert-receivers.ts';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { createTestApp, type TestApp, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const MAIL_USER = 'mailer';
const MAIL_PASSWORD = 'mail-Secret-Pa55';
const TELEGRAM_TOKEN = '123456:telegram-Secret-token';
const GOTIFY_TOKEN = 'gotify-Secret-token';
const WEB_HOST = 'https://gantry.example.com/';

const SCRIPTS = {
  'ok.sh': 'echo fine\n',
  'fail.sh': 'echo broken\nexit 3\n',
  'infra/main.tf': '',
};

/** Every channel switched on, each pointed at the local receivers; `overrides` breaks some of them. */
function channelsConfig(http: string, smtpPort: number, overrides: ConfigInput = {}): ConfigInput {
  return {
    web_host: WEB_HOST,
    email_alert: true,
    email_host: '127.0.0.1',
    email_port: smtpPort,
    email_sender: 'gantry@example.com',
    email_secure: true,
    email_username: MAIL_USER,
    email_password: MAIL_PASSWORD,
    slack_alert: true,
    slack_url: `${http}/slack`,
    microsoft_teams_alert: true,
    microsoft_teams_url: `${http}/teams`,
    telegram_alert: true,
    telegram_token: TELEGRAM_TOKEN,
    telegram_chat: '-1001',
    telegram_api_url: `${http}/telegram`,
    rocketchat_alert: true,
    rocketchat_url: `${http}/rocketchat`,
    dingtalk_alert: true,
    dingtalk_url: `${http}/dingtalk`,
    gotify_alert: true,
    gotify_url: `${http}/gotify`,
    gotify_token: GOTIFY_TOKEN,
    alert_webhook_url: `${http}/webhook`,
    ...overrides,
  };
}

async function startApp(dialect: Parameters<typeof createTestApp>[0], config: ConfigInput): Promise<TestApp> {
  const t = await createTestApp(dialect, config);
  for (const secret of [MAIL_PASSWORD, TELEGRAM_TOKEN, GOTIFY_TOKEN]) t.secrets.add(secret);
  return t;
}

async function setProjectAlert(
  t: TestApp,
  projectId: number,
  alert: boolean,
  alertChat: string | null = null,
): Promise<string> {
  const project = (await t.request('GET', `/api/project/${projectId}`, { as: t.adminCookie })).body as { name: string };
  const updated = await t.request('PUT', `/api/project/${projectId}`, {
    as: t.adminCookie,
    body: { name: project.name, alert, alert_chat: alertChat },
  });
  expect(updated.status).toBe(204);
  return project.name;
}

/** Creates a user (with or without the e-mail alert flag) and makes them a member of the project. */
async function addMember(t: TestApp, projectId: number, username: string, alert: boolean): Promise<string> {
  const password = `${username}-Secret-1`;
  t.secrets.add(password);
  const users = (await t.request('GET', '/api/users', { as: t.adminCookie })).body as {
    id: number;
    username: string;
  }[];
  let id = users.find((u) => u.username === username)?.id;
  if (id === undefined) {
    const created = await t.request('POST', '/api/users', {
      as: t.adminCookie,
      body: { username, name: `User ${username}`, email: `${username}@example.com`, password, admin: false, alert },
    });
    expect(created.status).toBe(201);
    id = (created.body as { id: number }).id;
  }
  expect(
    (
      await t.request('POST', `/api/project/${projectId}/users`, {
        as: t.adminCookie,
        body: { user_id: id, role: 'task_runner' },
      })
    ).status,
  ).toBe(204);
  return t.login(username, password);
}

/** A stand-in terraform whose plan always reports changes, so the task waits for confirmation. */
function createFakeTerraform(): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'alerts-tf-')), 'terraform');
  writeFileSync(file, '#!/bin/bash\necho "fake terraform $1"\nif [ "$1" = plan ]; then exit 2; fi\nexit 0\n');
  chmodSync(file, 0o755);
  return file;
}

function taskLink(projectId: number, templateId: number, taskId: number): string {
  return `https://gantry.example.com/project/${projectId}/templates/${templateId}?t=${taskId}`;
}

type Fields = { title: string; value: string }[];

describe('alert formatting and configuration', () => {
  const alert: Alert = {
    status: 'error',
    project: { id: 1, name: 'Ops & <Infra>', alertChat: null },
    template: { id: 2, name: 'Deploy <b>site</b>' },
    task: {
      id: 3,
      message: '',
      version: null,
      author: '—',
      start: null,
      end: null,
      durationSeconds: null,
      url: 'https://x.test/p?a=1&b=2',
    },
  };

  it('formats durations as hours, minutes and seconds, and a dash when the task never started', () => {
    expect(formatDuration(7)).toBe('7s');
    expect(formatDuration(65)).toBe('1m 5s');
    expect(formatDuration(3723)).toBe('1h 2m 3s');
    expect(formatDuration(null)).toBe('—');
  });

  it('escapes HTML in Telegram messages and sends to the server chat unless the project names its own', () => {
    const payload = buildTelegramPayload(alert, '-100');
    expect(payload.chat_id).toBe('-100');
    expect(payload.text).toContain('<b>Template:</b> Deploy &lt;b&gt;site&lt;/b&gt;');
    expect(payload.text).toContain('<b>Project:</b> Ops &amp; &lt;Infra&gt;');
    expect(payload.text).toContain('<a href="https://x.test/p?a=1&amp;b=2">Open task</a>');
    expect(buildTelegramPayload({ ...alert, project: { ...alert.project, alertChat: '@ops' } }, '-100').chat_id).toBe(
      '@ops',
    );
  });

  it('reads channel settings from GANTRY_* variables', () => {
    const config = loadConfig(
      {},
      {
        GANTRY_ALERT_WEBHOOK_URL: 'http://hooks.test/x',
        GANTRY_MICROSOFT_TEAMS_ALERT: 'true',
        GANTRY_MICROSOFT_TEAMS_URL: 'http://teams.test',
        GANTRY_EMAIL_PORT: '2525',
      },
    );
    expect(config).toMatchObject({
      alert_webhook_url: 'http://hooks.test/x',
      microsoft_teams_alert: true,
      microsoft_teams_url: 'http://teams.test',
      email_port: 2525,
      email_alert: false,
    });
    expect(createAlertChannels(config, async () => []).map((c) => c.name)).toEqual(['microsoft_teams', 'webhook']);
  });

  it('refuses to start with a channel switched on but not configured', () => {
    expect(() => createAlertChannels(loadConfig({ slack_alert: true }, {}), async () => [])).toThrow(
      'slack alerts are on but slack_url is not set',
    );
    expect(() =>
      createAlertChannels(loadConfig({ gotify_alert: true, gotify_url: 'http://g.test' }, {}), async () => []),
    ).toThrow('gotify_token');
    expect(() => createAlertChannels(loadConfig({ email_alert: true }, {}), async () => [])).toThrow(
      'email_host, email_sender are not set',
    );
  });

  it('refuses to start with a channel address no request can go to, without printing the address', () => {
    const start = (input: ConfigInput) => () => createAlertChannels(loadConfig(input, {}), async () => []);
    expect(start({ slack_alert: true, slack_url: 'hooks.slack.test/services/T0/B0/Secret-path' })).toThrow(
      'slack_url must be an http:// or https:// URL',
    );
    expect(start({ alert_webhook_url: 'ftp://hooks.test/Secret-path' })).toThrow(
      'alert_webhook_url must be an http:// or https:// URL',
    );
    expect(start({ telegram_alert: true, telegram_token: TELEGRAM_TOKEN, telegram_api_url: 'not a url' })).toThrow(
      'telegram_api_url must be',
    );
    expect(start({ slack_alert: true, slack_url: 'hooks.slack.test/services/T0/B0/Secret-path' })).not.toThrow(
      /Secret-path/,
    );
    expect(
      createAlertChannels(
        loadConfig({ slack_alert: true, slack_url: 'https://hooks.slack.test/services/T0' }, {}),
        async () => [],
      ).map((c) => c.name),
    ).toEqual(['slack']);
  });
});

describe.each(dialects)('task alerts on %s', (dialect) => {
  let t: TestApp;
  let p: ProjectFixture;
  let http: HttpReceiver;
  let smtp: SmtpReceiver;
  let projectName: string;

  beforeAll(async () => {
    http = await startHttpReceiver();
    smtp = await startSmtpReceiver({ username: MAIL_USER, password: MAIL_PASSWORD });
    t = await startApp(dialect, channelsConfig(http.url, smtp.port));
    p = await createProjectFixture(t, SCRIPTS);
    projectName = await setProjectAlert(t, p.projectId, true);
    await addMember(t, p.projectId, 'alice', true);
    await addMember(t, p.projectId, 'bob', false);
  });
  afterAll(async () => {
    await t.close();
    await http.close();
    await smtp.close();
  });

  it('a failed task reaches every channel with project, template, number, status, author, duration and link', async () => {
    const templateId = await p.createTemplate({ name: 'Deploy <site>', playbook: 'fail.sh' });
    // A member's message holding a markdown link: in markdown channels it stays text.
    const message = 'nightly [sign in](https://evil.example/x)';
    const taskId = await p.runTask(templateId, { message });
    const task = await p.waitForStatus(taskId, ['success', 'error']);
    expect(task.status).toBe('error');
    const link = taskLink(p.projectId, templateId, taskId);
    const title = `Task #${taskId} of "Deploy <site>" failed`;
    const escapedTitle = `Task #${taskId} of "Deploy &lt;site&gt;" failed`;
    const markdownTitle = `Task #${taskId} of "Deploy \\<site\\>" failed`;
    const markdownMessage = 'nightly \\[sign in\\]\\(https://evil.example/x\\)';

    const [slack] = await http.waitFor('/slack', taskId);
    expect(slack?.body).toMatchObject({
      text: escapedTitle,
      attachments: [{ color: '#d40e0d', title: escapedTitle, title_link: link }],
    });
    const slackFields = (slack?.body.attachments as { fields: Fields }[])[0]?.fields;
    expect(slackFields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ title: 'Project', value: projectName }),
        expect.objectContaining({ title: 'Template', value: 'Deploy &lt;site&gt;' }),
        expect.objectContaining({ title: 'Task', value: `#${taskId}` }),
        expect.objectContaining({ title: 'Status', value: 'Failed' }),
        expect.objectContaining({ title: 'Author', value: 'Administrator' }),
        expect.objectContaining({ title: 'Duration', value: expect.stringMatching(/^\d+s$/) }),
        expect.objectContaining({ title: 'Message', value: message }),
      ]),
    );

    const [teams] = await http.waitFor('/teams', taskId);
    const card = (
      teams?.body.attachments as {
        contentType: string;
        content: { type: string; body: { text?: string; facts?: Fields }[]; actions: { url: string }[] };
      }[]
    )[0];
    expect(card?.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card?.content.type).toBe('AdaptiveCard');
    expect(card?.content.body[0]?.text).toBe(markdownTitle);
    expect(card?.content.body[1]?.facts).toEqual(
      expect.arrayContaining([
        { title: 'Status', value: 'Failed' },
        { title: 'Author', value: 'Administrator' },
        { title: 'Message', value: markdownMessage },
      ]),
    );
    expect(card?.content.actions[0]?.url).toBe(link);

    const [telegram] = await http.waitFor('/telegram', taskId);
    expect(telegram?.path).toBe(`/telegram/bot${TELEGRAM_TOKEN}/sendMessage`);
    expect(telegram?.body).toMatchObject({ chat_id: '-1001', parse_mode: 'HTML' });
    expect(telegram?.body.text).toContain(`<b>${escapedTitle}</b>`);
    expect(telegram?.body.text).toContain('<b>Author:</b> Administrator');
    expect(telegram?.body.text).toContain(`<a href="${link}">Open task</a>`);

    const [rocket] = await http.waitFor('/rocketchat', taskId);
    expect(rocket?.body).toMatchObject({ text: markdownTitle, attachments: [{ title_link: link, color: '#d40e0d' }] });
    expect((rocket?.body.attachments as { fields: Fields }[])[0]?.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ title: 'Project', value: projectName }),
        expect.objectContaining({ title: 'Message', value: markdownMessage }),
      ]),
    );

    const [dingtalk] = await http.waitFor('/dingtalk', taskId);
    expect(dingtalk?.body).toMatchObject({ msgtype: 'markdown', markdown: { title } });
    const markdown = (dingtalk?.body.markdown as { text: string }).text;
    expect(markdown).toContain('- **Status:** Failed');
    expect(markdown).toContain(`- **Project:** ${projectName}`);
    expect(markdown).toContain(`[Open task](${link})`);
    expect(markdown).toContain(`- **Message:** ${markdownMessage}`);
    expect(markdown).not.toContain('[sign in](');

    const [gotify] = await http.waitFor('/gotify', taskId);
    expect(gotify?.path).toBe('/gotify/message');
    expect(gotify?.headers['x-gotify-key']).toBe(GOTIFY_TOKEN);
    expect(gotify?.body).toMatchObject({
      title,
      priority: 8,
      extras: { 'client::notification': { click: { url: link } } },
    });
    expect(gotify?.body.message).toContain('**Author:** Administrator');

    const [webhook] = await http.waitFor('/webhook', taskId);
    expect(webhook?.body).toMatchObject({
      event: 'task.finished',
      title,
      project: { id: p.projectId, name: projectName },
      template: { id: templateId, name: 'Deploy <site>' },
      task: {
        id: taskId,
        status: 'error',
        status_text: 'Failed',
        message,
        author: 'Administrator',
        start: task.start,
        end: task.end,
        url: link,
      },
    });
    expect((webhook?.body.task as { duration_seconds: number }).duration_seconds).toBe(
      Math.round((Date.parse(String(task.end)) - Date.parse(String(task.start))) / 1000),
    );

    const [mail] = await smtp.waitFor(taskId);
    await t.runtime.services.alerts.drain();
    expect(smtp.about(taskId)).toHaveLength(1);
    expect(mail).toMatchObject({
      from: 'gantry@example.com',
      to: ['alice@example.com'],
      subject: `[${projectName}] ${title}`,
      authenticatedAs: MAIL_USER,
    });
    expect(mail?.text).toContain('Author: Administrator');
    expect(mail?.text).toContain('Status: Failed');
    expect(mail?.text).toMatch(/Duration: \d+s/);
    expect(mail?.text).toContain(link);
    expect(mail?.html).toContain(`<a href="${link}">Open task</a>`);
  });

  it('a success reaches the chat channels but no inbox; suppress_success_alerts silences successes only', async () => {
    const okTask = await p.runTask(await p.createTemplate({ playbook: 'ok.sh' }));
    expect((await p.waitForStatus(okTask, ['success', 'error'])).status).toBe('success');
    const [hook] = await http.waitFor('/webhook', okTask);
    expect(hook?.body).toMatchObject({ event: 'task.finished', task: { status: 'success', status_text: 'Success' } });
    const [slack] = await http.waitFor('/slack', okTask);
    expect(slack?.body).toMatchObject({ attachments: [{ color: '#2eb886' }] });

    const silent = await p.runTask(await p.createTemplate({ playbook: 'ok.sh', suppress_success_alerts: true }));
    expect((await p.waitForStatus(silent, ['success', 'error'])).status).toBe('success');
    const loud = await p.runTask(await p.createTemplate({ playbook: 'fail.sh', suppress_success_alerts: true }));
    expect((await p.waitForStatus(loud, ['success', 'error'])).status).toBe('error');
    expect((await http.waitFor('/webhook', loud))[0]?.body).toMatchObject({ task: { status: 'error' } });
    await smtp.waitFor(loud);
    await http.waitFor('/slack', loud);

    await t.runtime.services.alerts.drain();
    expect(http.for('/', silent)).toEqual([]);
    expect(smtp.about(okTask)).toEqual([]);
    expect(smtp.about(silent)).toEqual([]);
  });

  it('a project with alerts off sends nothing', async () => {
    const quiet = await createProjectFixture(t, SCRIPTS);
    await addMember(t, quiet.projectId, 'alice', true);
    const quietTask = await quiet.runTask(await quiet.createTemplate({ playbook: 'fail.sh' }));
    expect((await quiet.waitForStatus(quietTask, ['success', 'error'])).status).toBe('error');
    // A task of an alerting project, started after the quiet one ended, shows alerts had every chance to go out.
    const control = await p.runTask(await p.createTemplate({ playbook: 'fail.sh' }));
    await p.waitForStatus(control, ['error']);
    await http.waitFor('/webhook', control);
    await smtp.waitFor(control);
    await t.runtime.services.alerts.drain();
    expect(http.for('/', quietTask)).toEqual([]);
    expect(smtp.about(quietTask)).toEqual([]);
  });

  it('a plan waiting for confirmation alerts (to the project chat); a rejected plan is no failure and sends no failure alert', async () => {
    const terraform = createFakeTerraform();
    expect(
      (await t.request('PUT', '/api/apps/terraform', { as: t.adminCookie, body: { path: terraform } })).status,
    ).toBe(204);
    const infra = await createProjectFixture(t, SCRIPTS);
    const infraName = await setProjectAlert(t, infra.projectId, true, '@ops-room');
    await addMember(t, infra.projectId, 'alice', true);
    const templateId = await infra.createTemplate({ name: 'Infra', app: 'terraform', playbook: 'infra' });
    const taskId = await infra.runTask(templateId);
    await infra.waitForStatus(taskId, ['waiting_confirmation']);

    const title = `Task #${taskId} of "Infra" is waiting for confirmation`;
    const [waiting] = await http.waitFor('/webhook', taskId);
    expect(waiting?.body).toMatchObject({
      event: 'task.waiting_confirmation',
      title,
      task: { status: 'waiting_confirmation', status_text: 'Waiting for confirmation', end: null },
    });
    expect((waiting?.body.task as { duration_seconds: unknown }).duration_seconds).toEqual(expect.any(Number));
    expect((await http.waitFor('/telegram', taskId))[0]?.body).toMatchObject({ chat_id: '@ops-room' });
    expect((await http.waitFor('/slack', taskId))[0]?.body).toMatchObject({ attachments: [{ color: '#daa038' }] });
    expect((await smtp.waitFor(taskId))[0]).toMatchObject({
      to: ['alice@example.com'],
      subject: `[${infraName}] ${title}`,
    });

    expect((await t.request('POST', `${infra.base}/tasks/${taskId}/reject`, { as: t.adminCookie })).status).toBe(204);
    expect((await infra.waitForStatus(taskId, ['success', 'error', 'rejected'])).status).toBe('rejected');
    await t.runtime.services.alerts.drain();
    expect(http.for('/webhook', taskId)).toHaveLength(1);
    expect(smtp.about(taskId)).toHaveLength(1);
  }, 60_000);
  it('a manager sends a test alert to every channel, even while the project alerts are off; task runners may not', async () => {
    const fresh = await createProjectFixture(t, SCRIPTS);
    const name = await setProjectAlert(t, fresh.projectId, false, '@qa-room');
    const runnerCookie = await addMember(t, fresh.projectId, 'alice', true);
    const url = `/api/project/${fresh.projectId}/notifications/test`;
    expect((await t.request('POST', url)).status).toBe(401);
    expect((await t.request('POST', url, { as: runnerCookie })).status).toBe(403);
    expect(http.requests.filter((r) => JSON.stringify(r.body).includes(name))).toEqual([]);

    const sent = await t.request('POST', url, { as: t.adminCookie });
    expect(sent.status).toBe(200);
    const names = ['email', 'slack', 'microsoft_teams', 'telegram', 'rocketchat', 'dingtalk', 'gotify', 'webhook'];
    expect(sent.body).toEqual({ channels: names.map((n) => ({ name: n, delivered: true, error: null })) });
    const title = `Test alert from Gantry for project "${name}"`;
    const about = (prefix: string) =>
      http.requests.filter(
        (r) => r.path.startsWith(prefix) && JSON.stringify(r.body).includes(JSON.stringify(title).slice(1, -1)),
      );
    expect(about('/webhook')[0]?.body).toMatchObject({
      event: 'test',
      title,
      project: { id: fresh.projectId, name },
      template: null,
      task: null,
    });
    expect(about('/telegram')[0]?.body).toMatchObject({ chat_id: '@qa-room' });
    expect(about('/telegram')[0]?.body.text).toContain('<b>Sent by:</b> Administrator');
    for (const prefix of ['/slack', '/teams', '/rocketchat', '/dingtalk', '/gotify'])
      expect(about(prefix), prefix).toHaveLength(1);
    expect(smtp.mails.filter((m) => m.subject === `[${name}] ${title}`).map((m) => m.to)).toEqual([
      ['alice@example.com'],
    ]);
  });
});

describe.each(dialects)('broken alert channels on %s', (dialect) => {
  let t: TestApp;
  let p: ProjectFixture;
  let http: HttpReceiver;
  let closedPort = 0;

  beforeAll(async () => {
    http = await startHttpReceiver();
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    t = await startApp(
      dialect,
      channelsConfig(http.url, closedPort, {
        slack_url: `${http.url}/fail`,
        microsoft_teams_url: `http://127.0.0.1:${closedPort}/teams`,
        rocketchat_url: `${http.url}/hang`,
        dingtalk_url: `${http.url}/dingtalk-refuse`,
        // The hanging channel holds its alert this long; nothing else may wait for it meanwhile.
        alert_timeout_seconds: 5,
      }),
    );
    p = await createProjectFixture(t, SCRIPTS);
    await setProjectAlert(t, p.projectId, true);
    await addMember(t, p.projectId, 'carol', true);
  });
  afterAll(async () => {
    // Closing the receiver first ends the hanging request, so draining the alerts does not wait a minute.
    await http.close();
    await t.close();
  });

  it('refused, failing and hanging channels hold up neither the tasks nor the channels that work', async () => {
    const templateId = await p.createTemplate({ playbook: 'ok.sh' });
    const first = await p.runTask(templateId);
    // The template runs one task at a time: the second starts only when the first is finished.
    const second = await p.runTask(templateId);
    const firstTask = await p.waitForStatus(first, ['success', 'error']);
    const secondTask = await p.waitForStatus(second, ['success', 'error']);
    expect([firstTask.status, secondTask.status]).toEqual(['success', 'success']);
    const firstEnd = Date.parse(String(firstTask.end));
    // Had the engine waited for the hanging channel, the second task would start 5 s after the first ended.
    expect(Date.parse(String(secondTask.start)) - firstEnd).toBeLessThan(4000);
    const [hook] = await http.waitFor('/webhook', first);
    expect((hook?.at ?? Infinity) - firstEnd).toBeLessThan(4000);
    await http.waitFor('/gotify', first);
    await http.waitFor('/hang', first);
    await http.waitFor('/fail', first);
    await http.waitFor('/dingtalk-refuse', first);
    await http.waitFor('/webhook', second);
    await http.waitFor('/gotify', second);
  });

  it('logs each failed channel by name and reason, without its URL or token', async () => {
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'fail.sh' }));
    await p.waitForStatus(taskId, ['error']);
    const lines: string[] = [];
    const repository = createAlertsRepository(t.runtime.connection.db);
    const dispatcher = createAlertDispatcher({
      channels: createAlertChannels(t.runtime.config, (projectId) => repository.listRecipients(projectId)),
      alerts: repository,
      webHost: WEB_HOST,
      timeoutMs: 1500,
      clock: systemClock,
      logger: pino({ level: 'warn' }, { write: (line: string) => lines.push(line) }),
    });
    const row = await t.runtime.connection.db
      .selectFrom('task')
      .selectAll()
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    dispatcher.notify(row);
    await dispatcher.drain();
    const warnings = lines.map((line) => JSON.parse(line) as { channel: string; reason: string; msg: string });
    expect(warnings.every((w) => w.msg === 'task alert not delivered')).toBe(true);
    expect(Object.fromEntries(warnings.map((w) => [w.channel, w.reason]))).toEqual({
      email: expect.stringMatching(/^email: 1 of 1 messages not sent \(.*ECONNREFUSED/),
      slack: 'slack: HTTP 500',
      microsoft_teams: expect.stringMatching(/^microsoft_teams: request failed \(.*ECONNREFUSED/),
      rocketchat: 'rocketchat: request failed (timed out)',
      dingtalk: 'dingtalk: errcode 310000 (keywords not in content)',
    });
    const logged = lines.join('\n');
    for (const secret of [http.url, TELEGRAM_TOKEN, GOTIFY_TOKEN, MAIL_PASSWORD]) expect(logged).not.toContain(secret);
    expect(http.for('/telegram', taskId).length).toBeGreaterThanOrEqual(2);
  });
  it('the test alert reports which channels failed and why', async () => {
    const response = await t.request('POST', `/api/project/${p.projectId}/notifications/test`, { as: t.adminCookie });
    expect(response.status).toBe(200);
    const channels = (response.body as { channels: { name: string; delivered: boolean; error: string | null }[] })
      .channels;
    expect(Object.fromEntries(channels.map((c) => [c.name, c.error]))).toEqual({
      email: expect.stringMatching(/^email: 1 of 1 messages not sent \(.*ECONNREFUSED/),
      slack: 'slack: HTTP 500',
      microsoft_teams: expect.stringMatching(/^microsoft_teams: request failed \(.*ECONNREFUSED/),
      telegram: null,
      rocketchat: 'rocketchat: request failed (timed out)',
      dingtalk: 'dingtalk: errcode 310000 (keywords not in content)',
      gotify: null,
      webhook: null,
    });
    expect(channels.filter((c) => c.delivered).map((c) => c.name)).toEqual(['telegram', 'gotify', 'webhook']);
  });
});

describe.each(dialects)('alerts without channels on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('a test alert is refused with a clear message when the server has no channel', async () => {
    const project = (
      await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'No channels', alert: true } })
    ).body as { id: number };
    const response = await t.request('POST', `/api/project/${project.id}/notifications/test`, { as: t.adminCookie });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'No alert channel is configured on this server', code: 'bad_request' });
  });
});
