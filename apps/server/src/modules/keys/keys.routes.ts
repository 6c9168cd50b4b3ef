import { keysApi } from '@gantry/contract';
import { routeProjectResource } from '../../http/resource-routes.ts';
import type { Routes } from '../../http/route.ts';
import type { KeysService } from './keys.service.ts';

export function registerKeysRoutes(route: Routes, { keys }: { keys: KeysService }) {
  routeProjectResource(route, keysApi, 'keyId', keys, ({ access, query }) =>
    keys.list(access.project.id, query.sort ?? 'name', query.order ?? 'asc'),
  );
}
