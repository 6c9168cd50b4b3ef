import { defineMigration, nullable, time } from '../schema.ts';

export const runnerJobSent = defineMigration('0029-runner-job-sent', async (_db, h) => {
  // When a remote runner was first sent a task's spec (null until then). A task placed on a runner that
  // went silent goes back to the queue only if it was never sent: a runner that got it may have run it.
  await h.addColumns('task', { sent_to_runner: nullable(time) });
});
