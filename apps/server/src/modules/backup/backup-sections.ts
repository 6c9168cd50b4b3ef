import type { ProjectBackup } from '@gantry/contract';
import { RUN_ONCE_SCHEDULE_TYPE } from '@gantry/contract';
import { validationFailed } from '../../errors.ts';

// How a backup's sections read, the same for checking a backup (backup-verify.ts) and for writing it
// (backup-restore.ts).

type BackupTemplate = ProjectBackup['templates'][number];

/** Semaphore keeps variable-group secrets as keys of these owners; their values are never in a backup. */
export const VARIABLE_GROUP_KEY_OWNERS = new Set(['environment', 'variable']);

/** A 400 that says where in the backup the problem is. */
export const fail = (where: string, problem: string) => validationFailed(`${where}: ${problem}`);

/** The vaults of a template, with Semaphore's legacy single `vault_key` turned into the unnamed vault. */
export function vaultsOf(template: BackupTemplate) {
  const vaults = template.vaults.map((v) => ({
    name: (v.name ?? '').trim().toLowerCase(),
    type: v.type,
    vault_key: v.vault_key ?? null,
    script: (v.script ?? '').trim(),
  }));
  if (template.vault_key && !vaults.some((v) => v.name === ''))
    vaults.push({ name: '', type: 'password', vault_key: template.vault_key, script: '' });
  return vaults;
}

/** A template's variable group: Semaphore 2.16 lists it in `environments`. */
export const environmentOf = (template: BackupTemplate) => template.environment ?? template.environments?.[0] ?? null;

/** The schedules a restore writes: Semaphore's cron ones ('' or 'cron'); its one-time runs have no Gantry equivalent. */
export const timedSchedulesOf = (backup: ProjectBackup) =>
  backup.schedules.filter((s) => s.type !== RUN_ONCE_SCHEDULE_TYPE);

/** Old Semaphore backups carry a template's schedule as its `cron`; newer ones list it in schedules[] too. */
export function legacySchedulesOf(backup: ProjectBackup) {
  return backup.templates.filter(
    (t) => t.cron?.trim() && !backup.schedules.some((s) => s.template === t.name && s.cron_format === t.cron?.trim()),
  );
}
