import type { ProjectsRepository } from './projects.repository.ts';

/**
 * The projects repository, telling `onChanged` of every change of a team (the live hub, so a removed
 * member stops hearing about the project at once); every change of a team goes through it.
 */
export function announceMemberChanges(
  repository: ProjectsRepository,
  onChanged: (projectId: number, removedUserId?: number) => void,
): ProjectsRepository {
  return {
    ...repository,
    async insertMember(row) {
      await repository.insertMember(row);
      onChanged(row.project_id);
    },
    async changeMemberKeepingOwner(projectId, userId, role) {
      const outcome = await repository.changeMemberKeepingOwner(projectId, userId, role);
      if (outcome === 'changed' && !role) onChanged(projectId, userId);
      return outcome;
    },
  };
}
