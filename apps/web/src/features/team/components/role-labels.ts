import type { TFunction } from 'i18next';
import { ProjectRoleSlug } from '@gantry/contract';

export const PROJECT_ROLES = ProjectRoleSlug.options;

export function getRoleLabel(t: TFunction, role: string): string {
  return (PROJECT_ROLES as readonly string[]).includes(role) ? t(`team.roles.${role}.title`) : role;
}
