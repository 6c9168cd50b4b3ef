import { beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/clock.ts';
import { handleSocketError, revalidateSockets } from '../src/http/websocket.ts';
import { useProjectFixture } from './task-fixture.ts';
import { connectLive, type LiveClient } from './live-client.ts';
import { createTestApp, listen, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

/** Resolves with 'open' or the close code, whichever comes first, or 'still open' after the wait. */
function stateAfter(client: LiveClient, ms: number): Promise<number | 'still open'> {
  return Promise.race([
    client.closed,
    new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms)),
  ]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(dialects)('websocket sessions on %s', (dialect) => {
  let url = '';

  const t = useTestApp(dialect);
  const p = useProjectFixture(t, { 'slow.sh': 'for i in $(seq 1 40); do echo "n$i"; sleep 0.1; done\n' });
  beforeAll(async () => {
    url = await listen(t.app);
  });

  const connect = (headers: Record<string, string>) => connectLive(url, headers);

  async function createUser(name: string, admin = false): Promise<{ id: number; cookie: string; password: string }> {
    const password = `${name}-Secret-1`;
    const user = await t.createUser(name, { password, admin });
    return { ...user, password };
  }

  it('closes the socket when its session signs out, and leaves other sessions of the user open', async () => {
    const user = await createUser('ws-signout');
    const otherCookie = await t.login('ws-signout', user.password);
    const signedOut = await connect({ cookie: user.cookie });
    const other = await connect({ cookie: otherCookie });
    expect((await t.request('POST', '/api/auth/logout', { as: user.cookie })).status).toBe(204);
    expect(await stateAfter(signedOut, 3000)).toBe(4001);
    expect(await stateAfter(other, 300)).toBe('still open');
    other.socket.close();
  });

  it('closes a socket that sends a message over the limit with 1009, and stays up for everyone else', async () => {
    const user = await createUser('ws-oversized');
    const greedy = await connect({ cookie: user.cookie });
    const bystander = await connect({ cookie: user.cookie });
    greedy.socket.send('x'.repeat(5000));
    expect(await greedy.closed).toBe(1009);
    expect(await stateAfter(bystander, 300)).toBe('still open');
    bystander.socket.close();
  });

  it('closes the sockets of a deleted user', async () => {
    const user = await createUser('ws-deleted');
    const client = await connect({ cookie: user.cookie });
    expect((await t.request('DELETE', `/api/users/${user.id}`, { as: t.adminCookie })).status).toBe(204);
    expect(await stateAfter(client, 3000)).toBe(4001);
  });

  it('closes the socket of a revoked API token', async () => {
    const user = await createUser('ws-token');
    const token = (await t.request('POST', '/api/user/tokens', { as: user.cookie, body: { name: 'live' } })).body as {
      id: string;
    };
    t.secrets.add(token.id);
    const client = await connect({ authorization: `Bearer ${token.id}` });
    expect((await t.request('DELETE', `/api/user/tokens/${token.id}`, { as: user.cookie })).status).toBe(204);
    expect(await stateAfter(client, 3000)).toBe(4001);
  });

  it('a password change closes the sockets of the other sessions and tokens, not of the session that made it', async () => {
    const user = await createUser('ws-password');
    const otherCookie = await t.login('ws-password', user.password);
    const token = (await t.request('POST', '/api/user/tokens', { as: user.cookie, body: { name: 'live' } })).body as {
      id: string;
    };
    t.secrets.add(token.id);
    const own = await connect({ cookie: user.cookie });
    const other = await connect({ cookie: otherCookie });
    const viaToken = await connect({ authorization: `Bearer ${token.id}` });
    const changed = await t.request('POST', `/api/users/${user.id}/password`, {
      as: user.cookie,
      body: { password: 'ws-password-New-2', current_password: user.password },
    });
    expect(changed.status).toBe(204);
    t.secrets.add('ws-password-New-2');
    expect(await stateAfter(other, 3000)).toBe(4001);
    expect(await stateAfter(viaToken, 3000)).toBe(4001);
    expect(await stateAfter(own, 300)).toBe('still open');
    own.socket.close();
  });

  it('a member removed from the project mid-task stops receiving its events at once; an admin keeps receiving', async () => {
    const member = await createUser('ws-member');
    const added = await t.request('POST', `${p.base}/users`, {
      as: t.adminCookie,
      body: { user_id: member.id, role: 'task_runner' },
    });
    expect(added.status).toBe(204);
    const memberClient = await connect({ cookie: member.cookie });
    const adminClient = await connect({ cookie: t.adminCookie });
    const templateId = await p.createTemplate({ playbook: 'slow.sh' });
    const taskId = await p.runTask(templateId);
    const ofTask = (client: LiveClient) => client.messages.filter((m) => m.task_id === taskId);
    await expect.poll(() => ofTask(memberClient).some((m) => m.output === 'n3'), { timeout: 15_000 }).toBe(true);

    expect((await t.request('DELETE', `${p.base}/users/${member.id}`, { as: t.adminCookie })).status).toBe(204);
    // Frames already on the wire when the member was removed may still arrive.
    await sleep(150);
    const seenAtRemoval = ofTask(memberClient).length;
    const adminAtRemoval = ofTask(adminClient).length;
    await p.waitForStatus(taskId, ['success']);
    await expect.poll(() => ofTask(adminClient).some((m) => m.type === 'update' && m.status === 'success')).toBe(true);

    expect(ofTask(adminClient).length).toBeGreaterThan(adminAtRemoval + 10);
    expect(ofTask(memberClient).length).toBe(seenAtRemoval);
    expect(ofTask(memberClient).some((m) => m.output === 'n40' || m.status === 'success')).toBe(false);
    memberClient.socket.close();
    adminClient.socket.close();
  });

  it('an administrator demoted mid-task stops receiving the events of projects they are not in at once', async () => {
    const demoted = await createUser('ws-demoted', true);
    const demotedClient = await connect({ cookie: demoted.cookie });
    const adminClient = await connect({ cookie: t.adminCookie });
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'slow.sh' }));
    const ofTask = (client: LiveClient) => client.messages.filter((m) => m.task_id === taskId);
    await expect.poll(() => ofTask(demotedClient).some((m) => m.output === 'n3'), { timeout: 15_000 }).toBe(true);

    const demotion = await t.request('PUT', `/api/users/${demoted.id}`, {
      as: t.adminCookie,
      body: { username: 'ws-demoted', name: 'Demoted', email: 'ws-demoted@example.com', admin: false },
    });
    expect(demotion.status, demotion.text).toBe(204);
    await sleep(150);
    const seenAtDemotion = ofTask(demotedClient).length;
    await p.waitForStatus(taskId, ['success']);
    await expect.poll(() => ofTask(adminClient).some((m) => m.type === 'update' && m.status === 'success')).toBe(true);
    expect(ofTask(demotedClient).length).toBe(seenAtDemotion);
    expect(await stateAfter(demotedClient, 50)).toBe('still open');
    demotedClient.socket.close();
    adminClient.socket.close();
  });

  it('closes a socket whose session idled out at the next check, and keeps one whose session is alive', async () => {
    let now = Date.now();
    const clock: Clock = { now: () => new Date(now) };
    const idle = await createTestApp(dialect, { session_idle_minutes: 5 }, { clock });
    try {
      const idleUrl = await listen(idle.app);
      const open = (cookie: string) => connectLive(idleUrl, { cookie });
      const user = await idle.createUser('ws-idle');
      const idleClient = await open(user.cookie);
      now += 4 * 60_000;
      // The admin's session is used meanwhile; the user's is not.
      expect((await idle.request('GET', '/api/user', { as: idle.adminCookie })).status).toBe(200);
      const activeClient = await open(idle.adminCookie);
      now += 2 * 60_000;
      await revalidateSockets(idle.runtime.services.auth, idle.runtime.services.hub);
      expect(await stateAfter(idleClient, 3000)).toBe(4001);
      expect(await stateAfter(activeClient, 300)).toBe('still open');
      activeClient.socket.close();
    } finally {
      await idle.close();
    }
  });

  it('refuses a handshake from a foreign Origin and accepts its own Origin and clients without one', async () => {
    await expect(connect({ cookie: t.adminCookie, origin: 'http://evil.example' })).rejects.toThrow(
      'handshake answered 403',
    );
    await expect(connect({ cookie: t.adminCookie, origin: 'null' })).rejects.toThrow('handshake answered 403');
    const own = await connect({ cookie: t.adminCookie, origin: url });
    const script = await connect({ cookie: t.adminCookie });
    own.socket.close();
    script.socket.close();
  });

  it('accepts a handshake whose Host names the default port its Origin leaves out, as the cross-site guard does', async () => {
    const proxied = await connect({
      cookie: t.adminCookie,
      host: 'gantry.example:443',
      origin: 'https://gantry.example',
    });
    proxied.socket.close();
    await expect(
      connect({ cookie: t.adminCookie, host: 'gantry.example:443', origin: 'https://evil.example' }),
    ).rejects.toThrow('handshake answered 403');
  });
});

describe('errors on an open socket', () => {
  const logged = () => {
    const lines: string[] = [];
    return {
      lines,
      log: {
        info: (_: unknown, message: string) => lines.push(`info ${message}`),
        error: (_: unknown, message: string) => lines.push(`error ${message}`),
      },
    };
  };

  it("notes the client's protocol errors at info level and the server's own as errors, closing the socket either way", () => {
    let terminated = 0;
    const socket = { terminate: () => (terminated += 1) };
    const client = logged();
    const tooLong = Object.assign(new RangeError('Max payload size exceeded'), {
      code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
    });
    handleSocketError(tooLong, socket, client.log);
    expect(client.lines).toEqual(['info websocket closed: the client broke the protocol']);
    const server = logged();
    handleSocketError(new TypeError('hub failed'), socket, server.log);
    expect(server.lines).toEqual(['error websocket error']);
    expect(terminated).toBe(2);
  });
});
