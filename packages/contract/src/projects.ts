import { z } from 'zod';
import { collectionEndpoints, endpoint, projectEndpoint } from './endpoint.ts';
import {
  COUNTER_MESSAGES,
  DateTime,
  Id,
  NoContent,
  PathId,
  ProjectParams,
  SortOrder,
  requiredId,
  requiredString,
  wireInteger,
} from './common.ts';
import { ProjectRoleSlug } from './permissions.ts';

export const Project = z.object({
  id: Id,
  name: z.string(),
  created: DateTime,
  alert: z.boolean(),
  alert_chat: z.string().nullable(),
  max_parallel_tasks: wireInteger(),
  type: z.string(),
  /** Semaphore's default secret storage of the project: Gantry stores secrets itself. */
  default_secret_storage_id: z.null(),
});
export type Project = z.infer<typeof Project>;

export const MaxParallelTasks = wireInteger({ max: 100000, message: COUNTER_MESSAGES });

const projectFields = {
  name: requiredString('Name'),
  alert: z.boolean().optional(),
  alert_chat: z.string().max(255).nullable().optional(),
  max_parallel_tasks: MaxParallelTasks.nullable().optional(),
  type: z.string().max(32).nullable().optional(),
};

export const CreateProjectBody = z.object({ ...projectFields, demo: z.boolean().optional() });
export type CreateProjectBody = z.input<typeof CreateProjectBody>;

export const UpdateProjectBody = z.object({ ...projectFields, id: Id.optional() });
export type UpdateProjectBody = z.input<typeof UpdateProjectBody>;

export const ProjectRole = z.object({ role: z.string(), permissions: wireInteger() });
export type ProjectRole = z.infer<typeof ProjectRole>;

export const TeamMember = z.object({
  id: Id,
  user_id: Id,
  username: z.string(),
  name: z.string(),
  email: z.string(),
  role: ProjectRoleSlug,
});
export type TeamMember = z.infer<typeof TeamMember>;

export const TeamSort = z.enum(['name', 'username', 'email', 'role']).catch('name');

export const AddTeamMemberBody = z.object({
  user_id: requiredId('User'),
  role: ProjectRoleSlug,
});
export type AddTeamMemberBody = z.input<typeof AddTeamMemberBody>;

export const UpdateTeamMemberBody = z.object({ role: ProjectRoleSlug });
export type UpdateTeamMemberBody = z.input<typeof UpdateTeamMemberBody>;

const MemberParams = z.object({ projectId: PathId, userId: PathId });

export const projectsApi = {
  ...collectionEndpoints({
    path: '/api/projects',
    itemPath: '/api/project/:projectId',
    itemParams: ProjectParams,
    body: CreateProjectBody,
    item: Project,
    updateBody: UpdateProjectBody,
  }),
  role: projectEndpoint('/role', { method: 'GET', response: ProjectRole }),
  leave: projectEndpoint('/me', { method: 'DELETE', response: NoContent, status: 204 }),
};

export const teamApi = {
  list: projectEndpoint('/users', {
    method: 'GET',
    query: z.object({ sort: TeamSort.optional(), order: SortOrder.optional() }),
    response: z.array(TeamMember),
  }),
  add: projectEndpoint('/users', { method: 'POST', body: AddTeamMemberBody, response: NoContent, status: 204 }),
  get: endpoint({
    method: 'GET',
    path: '/api/project/:projectId/users/:userId',
    params: MemberParams,
    response: TeamMember,
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/project/:projectId/users/:userId',
    params: MemberParams,
    body: UpdateTeamMemberBody,
    response: NoContent,
    status: 204,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/project/:projectId/users/:userId',
    params: MemberParams,
    response: NoContent,
    status: 204,
  }),
};
