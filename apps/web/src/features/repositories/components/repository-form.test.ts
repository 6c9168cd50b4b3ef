import { describe, expect, it } from 'vitest';
import { RepositoryBody } from '@gantry/contract';
import { RepositoryFormSchema } from './repository-form.ts';

const messages = (value: unknown) =>
  Object.fromEntries(
    (RepositoryFormSchema.safeParse(value).error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
  );

describe('repository form', () => {
  it('reports an incorrect URL together with the missing access key', () => {
    expect(messages({ name: 'app', git_url: 'ftp://example.com/app.git', git_branch: 'main' })).toEqual({
      git_url: 'Incorrect URL',
      ssh_key_id: 'Access key is required',
    });
  });

  it('needs a branch unless the repository is a local path', () => {
    expect(messages({ name: 'app', git_url: 'git@github.com:acme/app.git', git_branch: '', ssh_key_id: 1 })).toEqual({
      git_branch: 'Branch is required',
    });
    expect(messages({ name: 'app', git_url: '/srv/repos/app', git_branch: '', ssh_key_id: 1 })).toEqual({});
  });

  it('accepts what the contract accepts', () => {
    const repo = { name: 'app', git_url: 'https://github.com/acme/app.git', git_branch: 'main', ssh_key_id: 1 };
    expect(RepositoryFormSchema.safeParse(repo).success).toBe(true);
    expect(RepositoryBody.safeParse(repo).success).toBe(true);
  });
});
