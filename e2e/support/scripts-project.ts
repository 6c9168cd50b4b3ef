import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApiClient } from './api-client.ts';

export interface ScriptsProject {
  projectId: number;
  /** The local directory the project's "scripts" repository points at. */
  dir: string;
  /** Creates a template on the scripts repository with the project's first variable group; returns its id. */
  createTemplate(name: string, fields: Record<string, unknown>): Promise<number>;
  remove(): void;
}

/** A file's text, or its text and the executable bit (a stand-in tool). */
export type ScriptFile = string | { content: string; executable: true };

/**
 * A project whose "scripts" repository is a local directory of the given files, the way a browser
 * test sets up what the page is not about.
 */
export async function createScriptsProject(
  api: ApiClient,
  name: string,
  files: Record<string, ScriptFile>,
): Promise<ScriptsProject> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-e2e-scripts-'));
  for (const [file, spec] of Object.entries(files)) {
    const target = path.join(dir, file);
    writeFileSync(target, typeof spec === 'string' ? spec : spec.content);
    if (typeof spec !== 'string') chmodSync(target, 0o755);
  }
  const projectId = (await api<{ id: number }>('POST', '/api/projects', { name })).id;
  const [key] = await api<Array<{ id: number }>>('GET', `/api/project/${projectId}/keys`);
  const [group] = await api<Array<{ id: number }>>('GET', `/api/project/${projectId}/environment`);
  const repository = await api<{ id: number }>('POST', `/api/project/${projectId}/repositories`, {
    name: 'scripts',
    git_url: dir,
    ssh_key_id: key?.id,
  });
  return {
    projectId,
    dir,
    async createTemplate(templateName, fields) {
      const created = await api<{ id: number }>('POST', `/api/project/${projectId}/templates`, {
        name: templateName,
        repository_id: repository.id,
        environment_id: group?.id,
        ...fields,
      });
      return created.id;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
