import { z } from 'zod';

/** Permission bits of a project role. Admins pass every check; others need all bits asked for. */
export const Permission = {
  runProjectTasks: 1,
  updateProject: 2,
  manageProjectResources: 4,
  manageProjectUsers: 8,
} as const;
export type Permission = (typeof Permission)[keyof typeof Permission];

export const ProjectRoleSlug = z.enum(['owner', 'manager', 'task_runner', 'guest'], {
  error: 'Role is required',
});
export type ProjectRoleSlug = z.infer<typeof ProjectRoleSlug>;

export const ROLE_PERMISSIONS: Record<ProjectRoleSlug, number> = {
  owner:
    Permission.runProjectTasks |
    Permission.updateProject |
    Permission.manageProjectResources |
    Permission.manageProjectUsers,
  manager: Permission.runProjectTasks | Permission.manageProjectResources,
  task_runner: Permission.runProjectTasks,
  guest: 0,
};

export function hasPermissions(granted: number, required: number): boolean {
  return (granted & required) === required;
}
