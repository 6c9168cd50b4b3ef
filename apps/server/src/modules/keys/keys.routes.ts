import { Permission, keysApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { KeysService } from './keys.service.ts';

export function registerKeysRoutes(route: Routes, { keys }: { keys: KeysService }) {
  const manage = projectMember(Permission.manageProjectResources);
  route(keysApi.list, projectMember(), ({ access, query }) =>
    keys.list(access.project.id, query.sort ?? 'name', query.order ?? 'asc'),
  );
  route(keysApi.create, manage, ({ actor, access, body }) => keys.create(actor, access.project.id, body));
  route(keysApi.get, projectMember(), ({ access, params }) => keys.get(access.project.id, params.keyId));
  route(keysApi.refs, projectMember(), ({ access, params }) => keys.refs(access.project.id, params.keyId));
  route(keysApi.update, manage, ({ actor, access, params, body }) =>
    keys.update(actor, access.project.id, params.keyId, body),
  );
  route(keysApi.remove, manage, ({ actor, access, params }) => keys.remove(actor, access.project.id, params.keyId));
}
