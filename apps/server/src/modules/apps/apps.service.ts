import type { App, AppBody } from '@gantry/contract';
import { DEFAULT_APP_IDS } from '@gantry/contract';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { EventsService } from '../events/events.service.ts';
import type { UserRow } from '../users/users.table.ts';
import type { AppsRepository } from './apps.repository.ts';
import type { AppRow } from './apps.table.ts';

type AppInput = z.output<typeof AppBody>;

/**
 * Icons are Material Design Icon names without the `mdi-` prefix, as Semaphore's web UI adds it
 * itself (a prefixed name renders blank there); a prefixed name from an older store or client is
 * stripped on the way out and on the way in.
 */
const bareIconName = (icon: string) => icon.replace(/^mdi-/, '');

/**
 * Black and white are the colours of monochrome logos, meant to follow the theme. Semaphore's web UI paints
 * an app's `color` in light and dark themes alike (a black icon vanishes on its dark background) and follows
 * the theme only when the colour is empty, as Semaphore's own apps send it; Gantry's UI follows the theme either way.
 */
const THEME_COLORS = new Set(['black', '#000', '#000000', 'white', '#fff', '#ffffff']);
const themedColor = (color: string) => (THEME_COLORS.has(color.trim().toLowerCase()) ? '' : color);

function toApp(row: AppRow): App {
  return {
    ...row,
    icon: bareIconName(row.icon),
    color: themedColor(row.color),
    dark_color: themedColor(row.dark_color),
    active: row.active === 1,
    args: JSON.parse(row.args) as string[],
  };
}

const isDefaultApp = (id: string) => (DEFAULT_APP_IDS as readonly string[]).includes(id);

export function createAppsService({ apps, events }: { apps: AppsRepository; events: EventsService }) {
  async function getRow(id: string): Promise<AppRow> {
    const row = await apps.find(id);
    if (!row) throw notFound('App');
    return row;
  }

  function toChanges(body: AppInput): Partial<Omit<AppRow, 'id'>> {
    return {
      ...(body.active !== undefined ? { active: body.active ? 1 : 0 } : {}),
      ...(body.priority !== undefined ? { priority: body.priority } : {}),
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.icon !== undefined ? { icon: bareIconName(body.icon) } : {}),
      ...(body.color !== undefined ? { color: body.color } : {}),
      ...(body.dark_color !== undefined ? { dark_color: body.dark_color } : {}),
      ...(body.path !== undefined ? { path: body.path } : {}),
      ...(body.args !== undefined ? { args: JSON.stringify(body.args ?? []) } : {}),
    };
  }

  const record = (actor: UserRow, description: string) =>
    events.record({ userId: actor.id, objectType: 'app', description });

  return {
    async list(): Promise<App[]> {
      return (await apps.list()).map(toApp);
    },
    async get(id: string): Promise<App> {
      return toApp(await getRow(id));
    },
    /** Refuses templates for apps that do not exist; an inactive app keeps its templates working. */
    async assertKnown(id: string): Promise<void> {
      if (!(await apps.find(id))) throw badRequest(`Invalid app id: ${id}`);
    },
    async create(actor: UserRow, body: AppInput & { id: string }): Promise<App> {
      const row: AppRow = {
        id: body.id,
        active: 1,
        priority: 0,
        title: body.id,
        icon: '',
        color: '',
        dark_color: '',
        path: '',
        args: '[]',
        ...toChanges(body),
      };
      try {
        await apps.insert(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`App ${body.id} already exists`);
        throw error;
      }
      await record(actor, `App ${row.id} created`);
      return toApp(row);
    },
    async update(actor: UserRow, id: string, body: AppInput): Promise<void> {
      if (body.id !== undefined && body.id !== id) throw badRequest('App ID in body and URL must be the same');
      await getRow(id);
      await apps.update(id, toChanges(body));
      await record(actor, `App ${id} updated`);
    },
    async setActive(actor: UserRow, id: string, active: boolean): Promise<void> {
      await getRow(id);
      await apps.update(id, { active: active ? 1 : 0 });
      await record(actor, `App ${id} ${active ? 'activated' : 'deactivated'}`);
    },
    async remove(actor: UserRow, id: string): Promise<void> {
      await getRow(id);
      if (isDefaultApp(id)) throw badRequest(`The built-in app ${id} cannot be deleted; deactivate it instead`);
      await apps.delete(id);
      await record(actor, `App ${id} deleted`);
    },
  };
}

export type AppsService = ReturnType<typeof createAppsService>;
