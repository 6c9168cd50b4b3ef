import { describe, expect, it } from 'vitest';
import { getGitUrlType } from '@gantry/contract';
import { applyUrlType, isLocalUrl } from './git-url.ts';

describe('applyUrlType', () => {
  it('turns an scp-like ssh URL into http(s) or git URLs with the same host and path', () => {
    expect(applyUrlType('git@github.com:org/app.git', 'https')).toBe('https://github.com/org/app.git');
    expect(applyUrlType('git@github.com:org/app.git', 'git')).toBe('git://github.com/org/app.git');
  });

  it('turns a scheme URL into scp-like ssh, with git as the default user', () => {
    expect(applyUrlType('https://github.com/org/app.git', 'ssh')).toBe('git@github.com:org/app.git');
    expect(applyUrlType('ssh://deploy@example.com/srv/app.git', 'https')).toBe(
      'https://deploy@example.com/srv/app.git',
    );
  });

  it('gives local paths a leading slash and converts between local and file URLs', () => {
    expect(applyUrlType('srv/repos/app', 'local')).toBe('/srv/repos/app');
    expect(applyUrlType('/srv/repos/app', 'file')).toBe('file:///srv/repos/app');
    expect(applyUrlType('file:///srv/repos/app', 'local')).toBe('/srv/repos/app');
  });

  it('leaves a URL that already is of the chosen kind alone', () => {
    expect(applyUrlType('ssh://git@host:2222/org/app.git', 'ssh')).toBe('ssh://git@host:2222/org/app.git');
    expect(applyUrlType(' https://example.com/a.git ', 'https')).toBe('https://example.com/a.git');
  });

  it('produces URLs the contract classifies as the chosen kind', () => {
    for (const type of ['ssh', 'https', 'http', 'git', 'file', 'local'] as const) {
      expect(getGitUrlType(applyUrlType('git@gitlab.example.com:team/app.git', type))).toBe(type);
    }
  });
});

describe('URL kinds', () => {
  it('recognises local paths and rejects unknown schemes', () => {
    expect(isLocalUrl('/srv/app')).toBe(true);
    expect(isLocalUrl('git@host:app.git')).toBe(false);
    expect(getGitUrlType('ftp://host/app.git')).toBeUndefined();
  });

  it('reads every URL without a scheme as ssh (seed 001 section 5), never an option or a remote helper', () => {
    for (const url of ['tmp/path', 'host:repo.git', 'git@host:org/app.git', 'app'])
      expect(getGitUrlType(url), url).toBe('ssh');
    for (const url of ['-uploadpack=touch /tmp/x', 'ext::sh -c id', 'ext::evil', 'fd::3', 'my repo'])
      expect(getGitUrlType(url), url).toBeUndefined();
    expect(applyUrlType('tmp/path', 'local')).toBe('/tmp/path');
  });
});
