import type { Runner, RunnerBody, RunnerWithToken } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { EventsService } from '../events/events.service.ts';
import type { UserRow } from '../users/users.table.ts';
import { hashSecret } from '../../secrets/secret-hash.ts';
import { generateRunnerToken } from './runner-token.ts';
import type { RunnersRepository } from './runners.repository.ts';
import type { RunnerRow } from './runners.table.ts';
import { columnsOf, flagsOf } from '../../db/row-fields.ts';

type RunnerInput = z.output<typeof RunnerBody>;
/** Null for the global runners (admin), a project id for that project's runners. */
export type RunnerScope = number | null;

function toRunner(row: RunnerRow): Runner {
  return {
    ...columnsOf(row, ['id', 'project_id', 'name', 'webhook', 'max_parallel_tasks', 'touched']),
    ...flagsOf(row, ['active']),
  };
}

interface RunnersDeps {
  runners: RunnersRepository;
  events: EventsService;
  clock: Clock;
  /** A runner was deleted: its tasks must not wait for it. */
  onRemoved(runnerId: number): Promise<void>;
  /** A runner changed in a way that may let queued tasks start. */
  onChanged(): void;
}

export function createRunnersService({ runners, events, clock, onRemoved, onChanged }: RunnersDeps) {
  async function getRow(scope: RunnerScope, id: number): Promise<RunnerRow> {
    const row = await runners.find(scope, id);
    if (!row) throw notFound('Runner');
    return row;
  }

  const record = (actor: UserRow | undefined, scope: RunnerScope, runnerId: number, description: string) =>
    events.record({
      userId: actor?.id ?? null,
      projectId: scope,
      objectType: 'runner',
      objectId: runnerId,
      description,
    });

  return {
    async list(scope: RunnerScope): Promise<Runner[]> {
      return (await runners.list(scope)).map(toRunner);
    },
    async get(scope: RunnerScope, id: number): Promise<Runner> {
      return toRunner(await getRow(scope, id));
    },
    /** Creates a runner and returns its token, which is never shown again. */
    async create(
      actor: UserRow | undefined,
      scope: RunnerScope,
      body: Pick<RunnerInput, 'name' | 'webhook' | 'max_parallel_tasks' | 'active'>,
    ): Promise<RunnerWithToken> {
      const token = generateRunnerToken();
      const row = {
        project_id: scope,
        name: body.name,
        webhook: body.webhook,
        max_parallel_tasks: body.max_parallel_tasks,
        active: body.active ? 1 : 0,
        token_hash: hashSecret(token),
        touched: null,
        started_at: null,
        created: toTimestamp(clock.now()),
      };
      const id = await runners.insert(row);
      await record(actor, scope, id, `Runner ${body.name} created`);
      onChanged();
      return { ...toRunner({ ...row, id }), token };
    },
    async update(actor: UserRow, scope: RunnerScope, id: number, body: RunnerInput): Promise<void> {
      if (body.id !== undefined && body.id !== id) throw badRequest('Runner ID in body and URL must be the same');
      await getRow(scope, id);
      await runners.update(id, {
        name: body.name,
        webhook: body.webhook,
        max_parallel_tasks: body.max_parallel_tasks,
        active: body.active ? 1 : 0,
      });
      await record(actor, scope, id, `Runner ${body.name} updated`);
      onChanged();
    },
    async setActive(actor: UserRow, scope: RunnerScope, id: number, active: boolean): Promise<void> {
      const row = await getRow(scope, id);
      await runners.update(id, { active: active ? 1 : 0 });
      await record(actor, scope, id, `Runner ${row.name} ${active ? 'activated' : 'deactivated'}`);
      onChanged();
    },
    async remove(actor: UserRow | undefined, scope: RunnerScope, id: number): Promise<void> {
      const row = await getRow(scope, id);
      await runners.delete(id);
      await onRemoved(id);
      await record(actor, scope, id, `Runner ${row.name} deleted`);
    },
  };
}

export type RunnersService = ReturnType<typeof createRunnersService>;
