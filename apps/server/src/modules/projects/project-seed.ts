import type { EnvironmentsService } from '../environments/environments.service.ts';
import type { KeysService } from '../keys/keys.service.ts';

/** Every project starts with a "None" key and an "Empty" variable group, so templates can always name both. */
export function createProjectSeeder(deps: {
  keys: Pick<KeysService, 'create'>;
  environments: Pick<EnvironmentsService, 'create'>;
}) {
  return async function seedProject(projectId: number): Promise<void> {
    await deps.keys.create(undefined, projectId, { name: 'None', type: 'none' });
    await deps.environments.create(undefined, projectId, { name: 'Empty', json: '{}', env: '{}' });
  };
}
