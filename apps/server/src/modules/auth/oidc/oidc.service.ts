import type { SsoErrorCode } from '@gantry/contract';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import type { Clock } from '../../../clock.ts';
import type { Config, OidcProviderConfig } from '../../../config.ts';
import type { SecretBox } from '../../../secrets/secret-box.ts';
import type { ClientInfo } from '../session.ts';
import type { ExternalUsers } from '../external/external-users.ts';
import { SsoRefusal } from '../external/external-users.ts';
import type { Claims } from './oidc-claims.ts';
import { readClaim, readGroups } from './oidc-claims.ts';
import type { OidcClients } from './oidc-clients.ts';
import { createSpentStates, OIDC_FLOW_TTL_MS, openFlow, sealFlow, toSafeReturnPath } from './oidc-flow.ts';

const DEFAULT_SCOPES = ['openid', 'profile', 'email'];

interface OidcDeps {
  config: Config;
  clock: Clock;
  secrets: SecretBox;
  clients: OidcClients;
  externalUsers: ExternalUsers;
  createSession(userId: number, client: ClientInfo): Promise<string>;
  logger: FastifyBaseLogger;
}

/** Where the browser goes next, with the cookies to set on the way. */
export interface OidcStep {
  location: string;
  /** Sealed flow state for the callback; undefined means clear it. */
  flowCookie?: string;
  sessionToken?: string;
}

export function createOidcService({ config, clock, secrets, clients, externalUsers, createSession, logger }: OidcDeps) {
  const spentStates = createSpentStates(() => clock.now().getTime());

  /** The public base URL of the site: web_host when configured, else what the request came in on. */
  function siteBase(requestOrigin: string): string {
    return (config.web_host || requestOrigin).replace(/\/+$/, '');
  }

  function toApp(requestOrigin: string, path: string): string {
    return config.web_host ? `${siteBase(requestOrigin)}${path}` : path;
  }

  function toLoginPage(requestOrigin: string, code: SsoErrorCode): OidcStep {
    return { location: toApp(requestOrigin, `/auth/login?error=${code}`) };
  }

  function findProvider(providerId: string): OidcProviderConfig | undefined {
    return Object.hasOwn(config.oidc_providers, providerId) ? config.oidc_providers[providerId] : undefined;
  }

  function callbackUrl(providerId: string, provider: OidcProviderConfig, requestOrigin: string): string {
    return (
      provider.redirect_url || `${siteBase(requestOrigin)}/api/auth/oidc/${encodeURIComponent(providerId)}/redirect`
    );
  }

  async function readClaims(
    client: oidc.Configuration,
    tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
  ): Promise<Claims> {
    const idClaims: Claims = tokens.claims() ?? {};
    if (!client.serverMetadata().userinfo_endpoint || typeof idClaims.sub !== 'string') return idClaims;
    // Many providers put e-mail and groups only into userinfo; the ID token stays the authority on who signed in.
    const userinfo = await oidc.fetchUserInfo(client, tokens.access_token, idClaims.sub);
    return { ...userinfo, ...idClaims };
  }

  return {
    /** Starts the authorization code flow with state, nonce and PKCE (S256). */
    async startLogin(providerId: string, returnPath: string | undefined, requestOrigin: string): Promise<OidcStep> {
      const provider = findProvider(providerId);
      if (!provider) return toLoginPage(requestOrigin, 'oidc_unknown_provider');
      let client: oidc.Configuration;
      try {
        client = await clients.get(providerId);
      } catch (error) {
        logger.warn({ err: error, provider: providerId }, 'OpenID provider is not reachable or misconfigured');
        return toLoginPage(requestOrigin, 'oidc_unavailable');
      }
      const verifier = oidc.randomPKCECodeVerifier();
      const flow = {
        provider: providerId,
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier,
        redirectUri: callbackUrl(providerId, provider, requestOrigin),
        returnPath: toSafeReturnPath(returnPath),
        expiresAt: clock.now().getTime() + OIDC_FLOW_TTL_MS,
      };
      const url = oidc.buildAuthorizationUrl(client, {
        redirect_uri: flow.redirectUri,
        scope: (provider.scopes?.length ? provider.scopes : DEFAULT_SCOPES).join(' '),
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      return { location: url.href, flowCookie: sealFlow(secrets, flow) };
    },

    /** Checks the authorization response against the flow, redeems the code and signs the user in. */
    async finishLogin(
      providerId: string,
      query: Record<string, unknown>,
      sealedFlow: string | undefined,
      requestOrigin: string,
      clientInfo: ClientInfo,
    ): Promise<OidcStep> {
      const provider = findProvider(providerId);
      if (!provider) return toLoginPage(requestOrigin, 'oidc_unknown_provider');
      const flow = openFlow(secrets, sealedFlow);
      const state = typeof query.state === 'string' ? query.state : '';
      if (
        !flow ||
        flow.provider !== providerId ||
        flow.expiresAt <= clock.now().getTime() ||
        !state ||
        flow.state !== state
      ) {
        return toLoginPage(requestOrigin, 'oidc_invalid_state');
      }
      if (!spentStates.spend(flow.state, flow.expiresAt)) return toLoginPage(requestOrigin, 'oidc_invalid_state');
      if (typeof query.error === 'string') {
        logger.info({ provider: providerId, error: query.error }, 'OpenID provider refused the sign-in');
        return toLoginPage(requestOrigin, 'oidc_denied');
      }
      try {
        const client = await clients.get(providerId);
        const currentUrl = new URL(flow.redirectUri);
        for (const [key, value] of Object.entries(query))
          if (typeof value === 'string') currentUrl.searchParams.set(key, value);
        const tokens = await oidc.authorizationCodeGrant(client, currentUrl, {
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          pkceCodeVerifier: flow.verifier,
          idTokenExpected: true,
        });
        const claims = await readClaims(client, tokens);
        // Accounts are matched by e-mail, so an address the provider itself has not verified must not open one.
        if (claims.email_verified === false || claims.email_verified === 'false') {
          throw new SsoRefusal('sso_email_unverified', 'The identity provider has not verified the e-mail address');
        }
        const username =
          readClaim(claims, provider.username_claim || 'preferred_username') || oidc.randomState().slice(0, 16);
        const user = await externalUsers.signIn(
          {
            source: `oidc:${providerId}`,
            subject: readClaim(claims, 'sub'),
            username,
            name: readClaim(claims, provider.name_claim || 'name|preferred_username') || 'Anonymous',
            email: readClaim(claims, provider.email_claim || 'email'),
            groups: readGroups(claims, provider.groups_claim || 'groups'),
          },
          { matchBy: 'email', mapping: provider },
        );
        return {
          location: toApp(requestOrigin, flow.returnPath),
          sessionToken: await createSession(user.id, clientInfo),
        };
      } catch (error) {
        if (error instanceof SsoRefusal) {
          logger.info({ provider: providerId, reason: error.message }, 'OpenID sign-in refused');
          return toLoginPage(requestOrigin, error.code);
        }
        logger.warn({ err: error, provider: providerId }, 'OpenID sign-in failed');
        return toLoginPage(requestOrigin, 'oidc_failed');
      }
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
