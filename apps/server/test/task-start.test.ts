import { describe, expect, it } from 'vitest';
import { startNotes } from '../src/modules/tasks/task-start.ts';

describe('a task start line and event', () => {
  const about = { username: 'ada', incomingVersion: null, templateName: 'Deploy' };

  it('names the task, its template and who started it', () => {
    expect(startNotes({ id: 7 }, about)).toEqual({
      line: 'Task 7 (Deploy) started by ada.',
      event: 'Task 7 (Deploy) started',
    });
  });

  it('leaves out who started a task no user asked for (schedules, integrations)', () => {
    expect(startNotes({ id: 7 }, { ...about, username: null }).line).toBe('Task 7 (Deploy) started.');
  });

  it('names the runner of a task that runs on one, in the line and the event', () => {
    expect(startNotes({ id: 8 }, about, 'edge-1')).toEqual({
      line: 'Task 8 (Deploy) started by ada on runner edge-1.',
      event: 'Task 8 (Deploy) started on runner edge-1',
    });
  });
});
