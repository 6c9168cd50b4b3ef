import { appsApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { ADMIN, SIGNED_IN } from '../../http/route.ts';
import type { AppsService } from './apps.service.ts';

export function registerAppsRoutes(route: Routes, { apps }: { apps: AppsService }) {
  route(appsApi.list, SIGNED_IN, () => apps.list());
  route(appsApi.create, ADMIN, ({ actor, body }) => apps.create(actor, body));
  route(appsApi.get, ADMIN, ({ params }) => apps.get(params.appId));
  route(appsApi.update, ADMIN, ({ actor, params, body }) => apps.update(actor, params.appId, body));
  route(appsApi.setActive, ADMIN, ({ actor, params, body }) => apps.setActive(actor, params.appId, body.active));
  route(appsApi.remove, ADMIN, ({ actor, params }) => apps.remove(actor, params.appId));
}
