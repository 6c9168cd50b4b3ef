import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedRequest {
  /** When it arrived, in epoch milliseconds. */
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

type Reply = (response: ServerResponse) => void;

const json =
  (status: number, body: unknown): Reply =>
  (response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

/**
 * A local HTTP server standing in for Slack, Teams, Telegram, Rocket.Chat, DingTalk, Gotify and
 * webhook receivers. Paths decide the answer: `/fail` answers 500, `/hang` never answers,
 * `/dingtalk-refuse` answers DingTalk's "200 with an errcode"; everything else succeeds.
 */
export async function startHttpReceiver() {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        at: Date.now(),
        path,
        headers: request.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      });
      if (path.startsWith('/hang')) return;
      if (path.startsWith('/fail')) return json(500, { error: 'receiver down' })(response);
      if (path.startsWith('/dingtalk-refuse'))
        return json(200, { errcode: 310000, errmsg: 'keywords not in content' })(response);
      if (path.startsWith('/dingtalk')) return json(200, { errcode: 0, errmsg: 'ok' })(response);
      if (path.startsWith('/teams')) return json(202, {})(response);
      if (path.includes('/sendMessage')) return json(200, { ok: true, result: {} })(response);
      json(200, {})(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    /** Requests to paths starting with `prefix` whose body mentions the task (every channel's body names it). */
    for(prefix: string, taskId: number): ReceivedRequest[] {
      const mention = new RegExp(`#${taskId}(?!\\d)`);
      return requests.filter((r) => r.path.startsWith(prefix) && mention.test(JSON.stringify(r.body)));
    },
    async waitFor(prefix: string, taskId: number, count = 1, timeoutMs = 15_000): Promise<ReceivedRequest[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = this.for(prefix, taskId);
        if (found.length >= count) return found;
        if (Date.now() > deadline)
          throw new Error(`No ${prefix} alert for task ${taskId}; received: ${requests.map((r) => r.path).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    /** Drops hanging connections too, so alerts waiting on them end now. */
    close(): Promise<void> {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export type HttpReceiver = Awaited<ReturnType<typeof startHttpReceiver>>;

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  authenticatedAs: string | undefined;
}

/** A local SMTP server that accepts one login and parses every message it is given. */
export async function startSmtpReceiver(credentials: { username: string; password: string }) {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.username && auth.password === credentials.password)
        return callback(null, { user: auth.username });
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            authenticatedAs: typeof session.user === 'string' ? session.user : undefined,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    about(taskId: number): ReceivedMail[] {
      return mails.filter((m) => m.subject.includes(`#${taskId} `));
    },
    async waitFor(taskId: number, count = 1, timeoutMs = 15_000): Promise<ReceivedMail[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = this.about(taskId);
        if (found.length >= count) return found;
        if (Date.now() > deadline)
          throw new Error(`No e-mail about task ${taskId}; received: ${mails.map((m) => m.subject).join(' | ')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close(): Promise<void> {
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export type SmtpReceiver = Awaited<ReturnType<typeof startSmtpReceiver>>;
