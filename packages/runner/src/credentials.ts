import type { KeyMaterial } from '@gantry/contract';
import type { TaskWorkspace } from './workspace.ts';

/**
 * Environment that makes ssh use a key without it ever touching argv or a log: the key sits in a
 * 0600 file and its passphrase is answered by an askpass script reading another 0600 file.
 */
export function createSshEnvironment(
  workspace: Pick<TaskWorkspace, 'writePrivateFile'>,
  key: KeyMaterial,
): { env: Record<string, string>; keyFile?: string } {
  if (key.type !== 'ssh') return { env: {} };
  const privateKey = key.private_key.endsWith('\n') ? key.private_key : `${key.private_key}\n`;
  const keyFile = workspace.writePrivateFile('id_key', privateKey);
  const env: Record<string, string> = {};
  if (key.passphrase) {
    const passphraseFile = workspace.writePrivateFile('passphrase', key.passphrase);
    const askpass = workspace.writePrivateFile('askpass.sh', `#!/bin/sh\ncat '${passphraseFile}'\n`, 0o700);
    Object.assign(env, { SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0' });
  }
  return { env, keyFile };
}

/**
 * Answers git's username and password questions over https from 0600 files, never from the URL, and
 * only for `host` (the repository's `host[:port]`): a submodule or a redirect elsewhere gets nothing.
 */
export function createGitAskpassEnvironment(
  workspace: Pick<TaskWorkspace, 'writePrivateFile'>,
  key: KeyMaterial,
  host: string,
): Record<string, string> {
  if (key.type !== 'login_password') return {};
  const loginFile = workspace.writePrivateFile('git-login', key.login);
  const passwordFile = workspace.writePrivateFile('git-password', key.password);
  const hostFile = workspace.writePrivateFile('git-host', host);
  // git asks "Username for 'https://host': " and "Password for 'https://user@host': ".
  const script = [
    '#!/bin/sh',
    `host=$(cat '${hostFile}')`,
    'case "$1" in',
    `  *"//$host'"*|*"@$host'"*) ;;`,
    '  *) exit 1 ;;',
    'esac',
    'case "$1" in',
    `  Username*) cat '${loginFile}' ;;`,
    `  *) cat '${passwordFile}' ;;`,
    'esac',
    '',
  ].join('\n');
  return { GIT_ASKPASS: workspace.writePrivateFile('git-askpass.sh', script, 0o700), GIT_TERMINAL_PROMPT: '0' };
}
