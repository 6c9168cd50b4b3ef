import { backupApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { PROJECT_CREATOR, projectMember } from '../../http/route.ts';
import type { BackupService } from './backup.service.ts';

export function registerBackupRoutes(route: Routes, { backup }: { backup: BackupService }) {
  route(backupApi.backup, projectMember(), ({ access }) => backup.backup(access));
  route(backupApi.restore, PROJECT_CREATOR, ({ actor, body }) => backup.restore(actor, body));
}
