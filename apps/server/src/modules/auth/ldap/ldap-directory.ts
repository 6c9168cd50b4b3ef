import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { Client, Entry } from 'ldapts';
import { loadOnDemand } from '../../../load-on-demand.ts';
import type { Config } from '../../../config.ts';
import type { ExternalIdentity } from '../external/external-users.ts';

const loadLdap = loadOnDemand<typeof import('ldapts')>('ldapts');

const CONNECT_TIMEOUT_MS = 5_000;
const OPERATION_TIMEOUT_MS = 10_000;

/** Semaphore writes the server as `host:port` and picks ldaps by `ldap_needtls`; a full URL is taken as given. */
export function toLdapUrl(server: string, needTls: boolean): string {
  if (/^ldaps?:\/\//i.test(server)) return server;
  return `${needTls ? 'ldaps' : 'ldap'}://${server}`;
}

/** The configured filter with `%s` replaced by the login, escaped so it cannot change the filter (RFC 4515). */
export function buildUserFilter(template: string, login: string): string {
  const escaped = login.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return template.replaceAll('%s', escaped);
}

function readAttribute(entry: Entry, name: string): string[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  if (!key) return [];
  const value = entry[key];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : v));
}

function first(entry: Entry, name: string): string {
  return readAttribute(entry, name)[0] ?? '';
}

/** Checks logins against an LDAP directory: service bind, search, then bind as the user found. */
export function createLdapDirectory(config: Config) {
  const url = toLdapUrl(config.ldap_server, config.ldap_needtls);

  function tlsOptions(): ConnectionOptions {
    return {
      rejectUnauthorized: !config.ldap_tls_skip_verify,
      ...(config.ldap_tls_ca_file ? { ca: readFileSync(config.ldap_tls_ca_file) } : {}),
    };
  }

  async function connect(): Promise<Client> {
    const secure = url.toLowerCase().startsWith('ldaps://');
    // ldapts speaks TLS from the first byte whenever it is given TLS options, so plain ldap:// gets none.
    const { Client } = loadLdap();
    const client = new Client({
      url,
      connectTimeout: CONNECT_TIMEOUT_MS,
      timeout: OPERATION_TIMEOUT_MS,
      ...(secure ? { tlsOptions: tlsOptions() } : {}),
    });
    // The upgraded socket knows no host name of its own; the certificate is checked against the server's.
    if (config.ldap_starttls && !secure) await client.startTLS({ ...tlsOptions(), host: new URL(url).hostname });
    return client;
  }

  async function withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const client = await connect();
    try {
      return await work(client);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  return {
    /**
     * The directory's view of the user when the password is right; undefined when the login is unknown,
     * ambiguous or the password wrong. Connection and configuration problems throw.
     */
    async authenticate(login: string, password: string): Promise<ExternalIdentity | undefined> {
      // An empty password would be an unauthenticated bind, which servers accept: never a sign-in.
      if (!password) return undefined;
      const mappings = config.ldap_mappings;
      const attributes = [mappings.mail, mappings.uid, mappings.cn, config.ldap_groups_attribute];
      const entries = await withClient(async (client) => {
        if (config.ldap_binddn) await client.bind(config.ldap_binddn, config.ldap_bindpassword);
        try {
          const result = await client.search(config.ldap_searchdn, {
            scope: 'sub',
            filter: buildUserFilter(config.ldap_searchfilter, login),
            attributes,
            sizeLimit: 2,
          });
          return result.searchEntries;
        } catch (error) {
          // More than one entry matched: the login is ambiguous, so nobody signs in with it.
          if (error instanceof loadLdap().SizeLimitExceededError) return [];
          throw error;
        }
      });
      const entry = entries.length === 1 ? entries[0] : undefined;
      if (!entry) return undefined;
      try {
        await withClient((client) => client.bind(entry.dn, password));
      } catch (error) {
        if (error instanceof loadLdap().InvalidCredentialsError) return undefined;
        throw error;
      }
      return {
        source: 'ldap',
        // DNs compare without regard to case; one entry is one subject however the server spells its DN.
        subject: entry.dn.toLowerCase(),
        username: first(entry, mappings.uid) || login,
        name: first(entry, mappings.cn),
        email: first(entry, mappings.mail),
        groups: readAttribute(entry, config.ldap_groups_attribute),
      };
    },
  };
}

export type LdapDirectory = ReturnType<typeof createLdapDirectory>;
