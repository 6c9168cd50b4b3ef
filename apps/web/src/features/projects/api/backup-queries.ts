import { useMutation } from '@tanstack/react-query';
import { backupApi, keysApi, projectsApi } from '@gantry/contract';
import type { CreateProjectBody, ProjectBackupInput } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { projectListRefresh } from './projects-queries.ts';

/** The backup's file name carries the project id and the time, so several backups sort and never clash. */
export function backupFileName(projectId: number, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  return `gantry-project-${projectId}-${stamp}.json`;
}

/** Hands a JSON document to the browser as a downloaded file. */
function saveJsonFile(fileName: string, document: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }));
  const link = Object.assign(window.document.createElement('a'), { href: url, download: fileName });
  window.document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; a minute is plenty to start it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The seed's rhythm for a backup: a second of progress before the download and a second after it. */
const BACKUP_DELAY_MS = 1000;

export function useDownloadBackup(projectId: number) {
  return useMutation({
    mutationFn: async () => {
      await pause(BACKUP_DELAY_MS);
      const document = await api(backupApi.backup, { params: { projectId } });
      saveJsonFile(backupFileName(projectId, new Date()), document);
      await pause(BACKUP_DELAY_MS);
    },
  });
}

export interface RestoreOutcome {
  projectId: number;
  name: string;
  /** Keys that need a secret before tasks can use them; backups never carry secrets. */
  emptyKeys: number;
}

/** Restores a backup under the typed name, then counts the keys that came back without secrets. */
export function useRestoreProject() {
  return useRefreshingMutation(
    [projectListRefresh],
    async ({ backup, name }: { backup: ProjectBackupInput; name: string }): Promise<RestoreOutcome> => {
      const project = await api(backupApi.restore, { body: { ...backup, meta: { ...backup.meta, name } } });
      const keys = await api(keysApi.list, { params: { projectId: project.id } });
      return {
        projectId: project.id,
        name: project.name,
        emptyKeys: keys.filter((key) => key.empty && key.type !== 'none').length,
      };
    },
  );
}

export function useCreateDemoProject() {
  return useRefreshingMutation([projectListRefresh], (body: CreateProjectBody) =>
    api(projectsApi.create, { body: { ...body, demo: true } }),
  );
}

function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });
}

/** Reads a chosen file as a backup document; undefined when it is not a JSON object with a meta section. */
export async function readBackupFile(file: File): Promise<ProjectBackupInput | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readText(file));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const meta = (parsed as { meta?: unknown }).meta;
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
    return parsed as ProjectBackupInput;
  } catch {
    return undefined;
  }
}
