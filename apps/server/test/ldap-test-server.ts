import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, isListening } from './machine.ts';

const SLAPD = '/usr/sbin/slapd';
export const LDAP_SUFFIX = 'dc=gantry,dc=test';
export const LDAP_ROOT_DN = `cn=admin,${LDAP_SUFFIX}`;

export function isSlapdInstalled(): boolean {
  return existsSync(SLAPD) && existsSync('/usr/sbin/slapadd');
}

export interface LdapTestServer {
  /** ldap:// listener (StartTLS offered). */
  url: string;
  /** ldaps:// listener. */
  tlsUrl: string;
  /** PEM of the self-signed certificate both listeners present (for 127.0.0.1). */
  certificateFile: string;
  rootPassword: string;
  close(): Promise<void>;
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}${result.stdout}`);
}

async function waitForPort(port: number, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const failure = exited();
    if (failure !== undefined) throw new Error(`slapd exited: ${failure}`);
    if (await isListening(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('slapd did not start listening in time');
}

/**
 * A throwaway OpenLDAP server (Debian's slapd, mdb backend) in a temp directory on free ports,
 * seeded from LDIF with slapadd before it starts, with a self-signed certificate for TLS.
 */
export async function startLdapTestServer(seedLdif: string): Promise<LdapTestServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-slapd-'));
  mkdirSync(path.join(dir, 'db'));
  const rootPassword = 'slapd-Root-pass1';
  const certificateFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certificateFile,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  const configFile = path.join(dir, 'slapd.conf');
  writeFileSync(
    configFile,
    [
      ...['core', 'cosine', 'nis', 'inetorgperson'].map((s) => `include /etc/ldap/schema/${s}.schema`),
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `pidfile ${dir}/slapd.pid`,
      `argsfile ${dir}/slapd.args`,
      `TLSCertificateFile ${certificateFile}`,
      `TLSCertificateKeyFile ${keyFile}`,
      'database mdb',
      'maxsize 16777216',
      `suffix "${LDAP_SUFFIX}"`,
      `rootdn "${LDAP_ROOT_DN}"`,
      `rootpw ${rootPassword}`,
      `directory ${dir}/db`,
      'access to attrs=userPassword by anonymous auth by * none',
      'access to * by users read by * none',
      '',
    ].join('\n'),
  );
  const seedFile = path.join(dir, 'seed.ldif');
  writeFileSync(seedFile, seedLdif);
  run('/usr/sbin/slapadd', ['-f', configFile, '-l', seedFile]);

  const [port, tlsPort] = [await freePort(), await freePort()];
  const child = spawn(
    SLAPD,
    ['-f', configFile, '-h', `ldap://127.0.0.1:${port}/ ldaps://127.0.0.1:${tlsPort}/`, '-d', '0'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  let exit: string | undefined;
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.on('exit', (code, signal) => (exit = `${code ?? signal}: ${log}`));
  try {
    await waitForPort(port, () => exit);
    await waitForPort(tlsPort, () => exit);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `ldap://127.0.0.1:${port}`,
    tlsUrl: `ldaps://127.0.0.1:${tlsPort}`,
    certificateFile,
    rootPassword,
    async close() {
      if (exit === undefined) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
