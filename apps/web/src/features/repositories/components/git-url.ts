import { getGitUrlType } from '@gantry/contract';
import type { GitUrlType } from '@gantry/contract';

/** The URL kinds the form offers, in the order of its menu. */
export const URL_TYPES: readonly GitUrlType[] = ['ssh', 'https', 'http', 'git', 'file', 'local'];

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

interface UrlParts {
  user?: string;
  host?: string;
  path: string;
}

/** Splits any accepted form (scheme URL, scp-like user@host:path, local path) into user, host and path. */
function splitUrl(url: string): UrlParts {
  const scheme = SCHEME.exec(url);
  if (scheme) {
    const rest = url.slice(scheme[0].length);
    const slash = rest.indexOf('/');
    const authority = slash === -1 ? rest : rest.slice(0, slash);
    const path = slash === -1 ? '' : rest.slice(slash + 1);
    const at = authority.lastIndexOf('@');
    return at === -1
      ? { host: authority || undefined, path }
      : { user: authority.slice(0, at), host: authority.slice(at + 1) || undefined, path };
  }
  const scp = /^(?:([^@\s/]+)@)?([^\s:/]+):(.*)$/.exec(url);
  if (scp) return { user: scp[1], host: scp[2], path: scp[3] ?? '' };
  return { path: url.replace(/^\/+/, '') };
}

/**
 * Rewrites a repository URL for another kind, keeping host and path: picking https for
 * git@github.com:org/app.git gives https://github.com/org/app.git; local paths get a leading slash.
 */
export function applyUrlType(url: string, type: GitUrlType): string {
  const trimmed = url.trim();
  if (trimmed !== '' && getGitUrlType(trimmed) === type) return trimmed;
  const { user, host, path } = splitUrl(trimmed);
  const hostAndPath = host ? `${host}/${path}` : path;
  switch (type) {
    case 'local':
      return `/${hostAndPath.replace(/^\/+/, '')}`;
    case 'file':
      return host ? `file://${hostAndPath}` : `file:///${path}`;
    case 'ssh':
      return host ? `${user ?? 'git'}@${host}:${path}` : path;
    default: {
      // scp-style URLs carry the ssh user (usually "git"), which means nothing over http or git.
      const keepUser = user !== undefined && SCHEME.test(trimmed);
      return `${type}://${keepUser ? `${user}@` : ''}${hostAndPath}`;
    }
  }
}

/** A local repository has no branch to check out. */
export function isLocalUrl(url: string): boolean {
  return getGitUrlType(url.trim()) === 'local';
}
