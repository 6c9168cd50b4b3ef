import { z } from 'zod';
import { resourceEndpoints } from './endpoint.ts';
import {
  GIT_BRANCH_INVALID,
  Id,
  ProjectParams,
  SortOrder,
  isGitBranchName,
  requiredId,
  requiredString,
  resourceBodyFields,
} from './common.ts';
import { ResourceRefs } from './refs.ts';

export type GitUrlType = 'local' | 'ssh' | 'git' | 'file' | 'http' | 'https';

export const INCORRECT_URL_MESSAGE = 'Incorrect URL';

/**
 * The kind of a repository URL (seed 001 section 5): a local path starts with "/", any URL without
 * a scheme is ssh (git@host:path, host:repo.git, tmp/path), otherwise the scheme must be one git
 * understands here. Never what git would read as an option (a leading "-") or hand to a remote
 * helper ("ext::<command>" runs a command), nor blanks outside a local path.
 */
export function getGitUrlType(url: string): GitUrlType | undefined {
  if (url.startsWith('/')) return 'local';
  if (url.startsWith('-') || /^[a-z0-9+.-]*::/i.test(url) || /\s/.test(url)) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return 'ssh';
  // Credentials in an http(s) URL no parser reads could be neither used nor kept from view.
  if ((scheme === 'http' || scheme === 'https') && url.includes('@') && !parseUrl(url)) return undefined;
  return (['git', 'file', 'ssh', 'http', 'https'] as const).find((s) => s === scheme);
}

/** Credentials written into a repository URL: an http(s) user and password, or another scheme's password. */
export interface UrlCredentials {
  /** The URL without them. */
  url: string;
  username: string;
  password: string;
}

/**
 * The credentials written into a repository URL (`https://user:token@host/repo.git`), undefined when it
 * holds none. Over http(s) the user part is a credential too (`https://<token>@host/…`); over ssh it
 * is the login name, and only a password is taken out.
 */
export function findUrlCredentials(url: string): UrlCredentials | undefined {
  const parsed = parseUrl(url);
  if (!parsed) return findCredentialsInText(url);
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  if (parsed.password === '' && (!web || parsed.username === '')) return undefined;
  const credentials = { username: web ? decode(parsed.username) : '', password: decode(parsed.password) };
  parsed.password = '';
  if (web) parsed.username = '';
  return { url: parsed.href, ...credentials };
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * Credentials in a URL no URL parser reads (`https://user:to/ken@host/r.git`, a port out of range):
 * all between `://` and the last `@`. git refuses such URLs, but what was typed into one is still secret.
 */
function findCredentialsInText(url: string): UrlCredentials | undefined {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)(.*)@([^@]*)$/is.exec(url);
  if (!match) return undefined;
  const [, scheme = '', userinfo = '', rest = ''] = match;
  const web = /^https?:/i.test(scheme);
  const colon = userinfo.indexOf(':');
  const username = colon < 0 ? userinfo : userinfo.slice(0, colon);
  const password = colon < 0 ? '' : userinfo.slice(colon + 1);
  if (!web && password === '') return undefined;
  return {
    url: `${scheme}${web ? '' : `${username}@`}${rest}`,
    username: web ? decode(username) : '',
    password: decode(password),
  };
}

/** A repository URL as shown to who may not hold the credentials written into it. */
export function withoutUrlCredentials(url: string): string {
  return findUrlCredentials(url)?.url ?? url;
}

export const Repository = z.object({
  id: Id,
  project_id: Id,
  name: z.string(),
  git_url: z.string(),
  git_branch: z.string(),
  ssh_key_id: Id,
});
export type Repository = z.infer<typeof Repository>;

export const RepositoryBody = z
  .object({
    ...resourceBodyFields,
    git_url: requiredString('URL', 2048),
    git_branch: z.string().trim().max(255).refine(isGitBranchName, GIT_BRANCH_INVALID).nullable().optional(),
    ssh_key_id: requiredId('Access key'),
  })
  .superRefine((repo, ctx) => {
    const type = getGitUrlType(repo.git_url);
    if (!type) ctx.addIssue({ code: 'custom', path: ['git_url'], message: INCORRECT_URL_MESSAGE });
    if (type !== 'local' && !repo.git_branch)
      ctx.addIssue({ code: 'custom', path: ['git_branch'], message: 'Branch is required' });
  });
export type RepositoryBody = z.input<typeof RepositoryBody>;

const SortQuery = z.object({
  sort: z.enum(['name', 'git_url', 'ssh_key']).catch('name').optional(),
  order: SortOrder.optional(),
});

export const repositoriesApi = resourceEndpoints({
  path: '/api/project/:projectId/repositories',
  params: ProjectParams,
  id: 'repositoryId',
  query: SortQuery,
  body: RepositoryBody,
  item: Repository,
  refs: ResourceRefs,
});
