import { describe, expect, it } from 'vitest';
import { useTwoNodes } from './cluster-fixture.ts';
import { connectLive } from './live-client.ts';
import { listClusterDialects } from './test-databases.ts';

const dialects = await listClusterDialects();

describe.each(dialects)('websocket sessions across two nodes on %s', (dialect) => {
  const { a, p, urlB } = useTwoNodes(dialect, {
    'slow.sh': 'for i in $(seq 1 40); do echo "n$i"; sleep 0.1; done\n',
  });

  const connectToB = (cookie: string) => connectLive(urlB(), { cookie });

  /**
   * Opens sockets on B for the user of `cookie` and for the administrator, then runs the slow task on A
   * until the user's socket has its third line. `untilFinished` waits for the task to succeed and for
   * the administrator's socket to hear it.
   */
  async function watchSlowTask(cookie: string) {
    const client = await connectToB(cookie);
    const adminClient = await connectToB(a.adminCookie);
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'slow.sh' }));
    const ofTask = (messages: Record<string, unknown>[]) => messages.filter((m) => m.task_id === taskId);
    await expect.poll(() => ofTask(client.messages).some((m) => m.output === 'n3'), { timeout: 15_000 }).toBe(true);
    const untilFinished = async () => {
      await p.waitForStatus(taskId, ['success']);
      await expect
        .poll(() => ofTask(adminClient.messages).some((m) => m.type === 'update' && m.status === 'success'))
        .toBe(true);
    };
    return { client, adminClient, ofTask, untilFinished };
  }

  it('signing out on one node closes the socket of that session on the other', async () => {
    const user = await a.createUser('cluster-signout');
    const client = await connectToB(user.cookie);
    expect((await a.request('POST', '/api/auth/logout', { as: user.cookie })).status).toBe(204);
    const outcome = await Promise.race([
      client.closed,
      new Promise((resolve) => setTimeout(() => resolve('still open'), 3000)),
    ]);
    expect(outcome).toBe(4001);
  });

  it("a member removed on one node stops receiving the project's events on the other", async () => {
    const member = await a.createUser('cluster-member');
    expect(
      (
        await a.request('POST', `${p.base}/users`, {
          as: a.adminCookie,
          body: { user_id: member.id, role: 'task_runner' },
        })
      ).status,
    ).toBe(204);
    const { client: memberClient, adminClient, ofTask, untilFinished } = await watchSlowTask(member.cookie);

    expect((await a.request('DELETE', `${p.base}/users/${member.id}`, { as: a.adminCookie })).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const seenAtRemoval = ofTask(memberClient.messages).length;
    const adminAtRemoval = ofTask(adminClient.messages).length;
    await untilFinished();

    expect(ofTask(adminClient.messages).length).toBeGreaterThan(adminAtRemoval + 10);
    expect(ofTask(memberClient.messages).length).toBe(seenAtRemoval);
    memberClient.socket.close();
    adminClient.socket.close();
  });

  it('an administrator demoted on one node stops receiving the events of projects they are not in on the other', async () => {
    const demoted = await a.createUser('cluster-demoted', { admin: true });
    const { client: demotedClient, adminClient, ofTask, untilFinished } = await watchSlowTask(demoted.cookie);

    const demotion = await a.request('PUT', `/api/users/${demoted.id}`, {
      as: a.adminCookie,
      body: { username: 'cluster-demoted', name: 'Demoted', email: 'cluster-demoted@example.com', admin: false },
    });
    expect(demotion.status, demotion.text).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const seenAtDemotion = ofTask(demotedClient.messages).length;
    await untilFinished();
    expect(ofTask(demotedClient.messages).length).toBe(seenAtDemotion);
    demotedClient.socket.close();
    adminClient.socket.close();
  });
});
