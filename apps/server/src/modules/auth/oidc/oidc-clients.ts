import * as oidc from 'openid-client';
import type { OidcProviderConfig } from '../../../config.ts';

/** Seconds any one request to a provider may take. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/**
 * The client authentication the provider accepts: client_secret_basic is what most servers expect
 * (and the OAuth default), _post where only that is advertised, none for public clients.
 */
function chooseClientAuth(provider: OidcProviderConfig, metadata: oidc.ServerMetadata): oidc.ClientAuth {
  if (!provider.client_secret) return oidc.None();
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post')) {
    return oidc.ClientSecretPost(provider.client_secret);
  }
  return oidc.ClientSecretBasic(provider.client_secret);
}

async function readServerMetadata(provider: OidcProviderConfig): Promise<oidc.ServerMetadata> {
  const endpoint = provider.endpoint;
  if (endpoint?.auth_url && endpoint.token_url) {
    const issuer = endpoint.issuer_url || provider.provider_url;
    if (!issuer) throw new Error('endpoint.issuer_url or provider_url is required');
    return {
      issuer,
      authorization_endpoint: endpoint.auth_url,
      token_endpoint: endpoint.token_url,
      ...(endpoint.userinfo_url ? { userinfo_endpoint: endpoint.userinfo_url } : {}),
      ...(endpoint.jwks_url ? { jwks_uri: endpoint.jwks_url } : {}),
      ...(endpoint.algorithms?.length ? { id_token_signing_alg_values_supported: endpoint.algorithms } : {}),
    };
  }
  if (!provider.provider_url) throw new Error('provider_url (or endpoint.auth_url and endpoint.token_url) is required');
  const discovered = await oidc.discovery(
    new URL(provider.provider_url),
    provider.client_id ?? '',
    undefined,
    oidc.None(),
    {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      // The administrator chose this URL; plain http is their call (an IdP on the same private network).
      execute: provider.provider_url.startsWith('http:') ? [oidc.allowInsecureRequests] : [],
    },
  );
  return discovered.serverMetadata();
}

/** Builds each provider's client once, on first use, so a provider that is down does not stop the server starting. */
export function createOidcClients(providers: Record<string, OidcProviderConfig>) {
  const clients = new Map<string, Promise<oidc.Configuration>>();

  async function build(provider: OidcProviderConfig): Promise<oidc.Configuration> {
    if (!provider.client_id) throw new Error('client_id is required');
    const metadata = await readServerMetadata(provider);
    const client = new oidc.Configuration(
      metadata,
      provider.client_id,
      undefined,
      chooseClientAuth(provider, metadata),
    );
    client.timeout = PROVIDER_TIMEOUT_SECONDS;
    const urls = [metadata.issuer, metadata.authorization_endpoint, metadata.token_endpoint];
    if (urls.some((url) => url?.startsWith('http:'))) oidc.allowInsecureRequests(client);
    return client;
  }

  return {
    get(providerId: string): Promise<oidc.Configuration> {
      const provider = providers[providerId];
      if (!provider) return Promise.reject(new Error(`Unknown OpenID provider ${providerId}`));
      let client = clients.get(providerId);
      if (!client) {
        client = build(provider);
        // A failed discovery is retried on the next sign-in rather than cached.
        client.catch(() => clients.delete(providerId));
        clients.set(providerId, client);
      }
      return client;
    },
  };
}

export type OidcClients = ReturnType<typeof createOidcClients>;
