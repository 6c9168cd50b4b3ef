import { closeSync, constants, createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  HOST_LIMITS,
  HOST_STATUSES,
  HostEventLine,
  createEmptyHostCounts,
  type HostCounts,
  type TaskHostReport,
} from '@gantry/contract';
import { openRegularFile, readAtMost } from './regular-file.ts';
import type { TaskWorkspace } from './workspace.ts';

/** The folder of Gantry's ansible callback plugin (gantry_hosts.py); the build copies it beside the bundle. */
const CALLBACK_DIR = fileURLToPath(new URL('./ansible-callback', import.meta.url));
/** What ansible searches for callback plugins when nothing sets callback_plugins. */
const DEFAULT_CALLBACK_PATH = '~/.ansible/plugins/callback:/usr/share/ansible/plugins/callback';
/** The plugin bounds its file; one written past this by something else is read only this far. */
const MAX_EVENTS_BYTES = 32 * 1024 * 1024;

/** Only the start of an ansible.cfg is read: the setting sits near its top, and the file is the repository's. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** [defaults] callback_plugins of an ansible.cfg, relative entries resolved against its folder as ansible does. */
function readCallbackPlugins(configFile: string, home: string): string | undefined {
  const fd = openRegularFile(configFile);
  if (fd === undefined) return undefined;
  let text: string;
  try {
    text = readAtMost(fd, MAX_CONFIG_BYTES).bytes.toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[') && line.endsWith(']')) section = line.slice(1, -1).trim().toLowerCase();
    else if (section === 'defaults') {
      const match = /^callback_plugins\s*[=:]\s*(.*)$/i.exec(line);
      if (!match?.[1]) continue;
      return match[1]
        .split(':')
        .filter(Boolean)
        .map((entry) => (entry.startsWith('~') ? home + entry.slice(1) : path.resolve(path.dirname(configFile), entry)))
        .join(':');
    }
  }
  return undefined;
}

/** The ansible.cfg ansible-playbook will read, in its own order of precedence. */
function findAnsibleConfig(env: Record<string, string>, cwd: string): string | undefined {
  const home = env.HOME ?? '';
  const candidates = [
    env.ANSIBLE_CONFIG,
    path.join(cwd, 'ansible.cfg'),
    home ? path.join(home, '.ansible.cfg') : undefined,
    '/etc/ansible/ansible.cfg',
  ];
  return candidates.find((file): file is string => !!file && existsSync(file));
}

/**
 * The events file of one ansible run and the environment that makes ansible write it: our plugin's
 * folder in front of the callback plugin path the task would have had (its environment's, else its
 * ansible.cfg's, else ansible's default), so the user's own plugins still load. The plugin needs no
 * entry in callbacks_enabled, which stays as the user set it.
 */
export function createHostEvents(workspace: Pick<TaskWorkspace, 'writePrivateFile'>) {
  const file = workspace.writePrivateFile('host-events.jsonl', '');
  return {
    file,
    environment(env: Record<string, string>, cwd: string): Record<string, string> {
      const home = env.HOME ?? '';
      const configFile = findAnsibleConfig(env, cwd);
      const current =
        env.ANSIBLE_CALLBACK_PLUGINS ??
        (configFile ? readCallbackPlugins(configFile, home) : undefined) ??
        DEFAULT_CALLBACK_PATH.replaceAll('~', home);
      return {
        GANTRY_HOST_EVENTS_FILE: file,
        ANSIBLE_CALLBACK_PLUGINS: [CALLBACK_DIR, current].filter(Boolean).join(':'),
      };
    },
  };
}
export type HostEvents = ReturnType<typeof createHostEvents>;

/**
 * Reads what the plugin wrote into the report the server stores: every string masked like the text
 * log, then cut to the contract's bounds; per-host counts from the plugin's closing records, or
 * counted from the results when ansible did not get that far (stopped, killed). Null when ansible
 * ran no task on any host.
 */
export async function readHostReport(file: string, redact: (text: string) => string): Promise<TaskHostReport | null> {
  const counted = new Map<string, HostCounts>();
  const closing = new Map<string, HostCounts>();
  const results: TaskHostReport['results'] = [];
  let truncated = false;
  const name = (text: string) => redact(text).slice(0, HOST_LIMITS.nameLength);
  // The file is ours, made before the task started; a symlink or anything but a file put there since is not read.
  const fd = openRegularFile(file, constants.O_NOFOLLOW);
  if (fd === undefined) return null;
  const input = createReadStream('', { fd, start: 0, end: MAX_EVENTS_BYTES - 1 });
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    let parsed;
    try {
      parsed = HostEventLine.safeParse(JSON.parse(line));
    } catch {
      continue;
    }
    if (!parsed.success) continue;
    const event = parsed.data;
    if (event.type === 'truncated') {
      truncated = true;
      continue;
    }
    const host = name(event.host);
    if (event.type === 'host') {
      const counts = createEmptyHostCounts();
      for (const status of HOST_STATUSES) counts[status] = event[status];
      closing.set(host, counts);
      continue;
    }
    if (!counted.has(host)) counted.set(host, createEmptyHostCounts());
    const counts = counted.get(host);
    if (counts) counts[event.status] += 1;
    if (results.length >= HOST_LIMITS.maxResults) {
      truncated = true;
      continue;
    }
    results.push({
      host,
      play: name(event.play),
      task: name(event.task),
      status: event.status,
      duration_ms: event.duration_ms,
      message: redact(event.message).slice(0, HOST_LIMITS.messageLength),
    });
  }
  const byHost = closing.size > 0 ? closing : counted;
  if (byHost.size === 0) return null;
  const hosts = [...byHost].slice(0, HOST_LIMITS.maxHosts).map(([host, counts]) => ({ host, ...counts }));
  if (byHost.size > HOST_LIMITS.maxHosts) truncated = true;
  const kept = new Set(hosts.map((h) => h.host));
  return { hosts, results: results.filter((r) => kept.has(r.host)), truncated };
}

/** The report cut to fit `maxBytes` as JSON: task results are dropped from the end (counts stay whole). */
export function fitHostReport(report: TaskHostReport, maxBytes: number): TaskHostReport {
  let fitted = report;
  while (Buffer.byteLength(JSON.stringify(fitted)) > maxBytes && fitted.results.length > 0)
    fitted = { ...fitted, results: fitted.results.slice(0, Math.floor(fitted.results.length / 2)), truncated: true };
  return fitted;
}
