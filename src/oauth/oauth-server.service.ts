import { Injectable, Logger, Optional } from '@nestjs/common';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { entriesAtMost } from '../common/lru-bound';
import { Provider, errors, interactionPolicy } from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { AccessTokenVerifiers } from '../auth/access-token-verifiers';
import { SCOPES, expandScopes } from '../common/principal';
import type { Principal } from '../common/principal';
import { RateLimits } from '../limits/rate-limits';
import { RevocationBus, accessTokenKey, grantKey } from '../connections/revocations';
import { PrismaService } from '../database/prisma.service';
import { AccountsService } from '../auth/accounts.service';
import { derivedKey, oauthIssuer, signingJwk, tokenTtls } from './oauth.config';
import { ServerSecret } from '../auth/server-secret';
import { OAuthConfig } from '../config/slices';
import { Scheduler } from '../jobs/scheduler';
import type { PeriodicTask } from '../jobs/scheduler';
import { PrismaAdapter } from './prisma-adapter';

/** The authorization server's endpoints, at the service's own origin. */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  revocation: '/oauth/revoke',
  introspection: '/oauth/introspect',
  jwks: '/oauth/jwks',
  end_session: '/oauth/end-session',
  userinfo: '/oauth/userinfo',
  pushed_authorization_request: '/oauth/par',
} as const;

/** Where the provider sends the browser to approve or deny (the web client's consent page, through ConsentController). */
export const consentPath = (uid: string): string => `/oauth/consent/${uid}`;

/** What the provider answers itself: its endpoints and the metadata documents. The consent routes are Nest's. */
const PROVIDER_PATH = /^\/oauth\/(authorize|token|revoke|introspect|jwks|par)(\/|$)|^\/\.well-known\/(oauth-authorization-server|openid-configuration)$/;

/** The RFC 8414 metadata document's path. */
const METADATA_PATH = '/.well-known/oauth-authorization-server';

/** How often expired rows of oauth_payloads are deleted (a periodic task of the one scheduler, src/jobs/scheduler.ts). */
const SWEEP_MS = 10 * 60_000;

/**
 * The OAuth 2.0 authorization server: oidc-provider (authorization code with
 * PKCE S256 required, state required, exact redirect URIs with any loopback
 * port for native apps, refresh tokens rotated on every use with reuse
 * detection, RFC 7009 revocation, RFC 7662 introspection, RFC 8414
 * metadata, RFC 9126 pushed authorization requests), persisted in our database, mounted on the Express app, its
 * access tokens accepted by the one guard through AccessTokenVerifiers.
 */
@Injectable()
export class OAuthServer implements OnModuleInit, OnModuleDestroy {
  private readonly log = new Logger('OAuth');
  private provider!: Provider;
  private unregister: (() => void) | undefined;
  private readonly sweeper: PeriodicTask;
  /**
   * Grants known to exist, read at most once a minute per grant: a token
   * saved just after its grant was revoked (a race with a reuse) finds no
   * grant here once the revocation's news is forgotten.
   */
  private readonly liveGrants = new LRUCache<string, Promise<boolean>>({ ...entriesAtMost(100_000), ttl: 60_000 });

  constructor(
    private readonly prisma: PrismaService,
    private readonly verifiers: AccessTokenVerifiers,
    private readonly bus: RevocationBus,
    private readonly http: HttpAdapterHost,
    private readonly accounts: AccountsService,
    private readonly config: OAuthConfig,
    private readonly secret: ServerSecret,
    scheduler: Scheduler,
    @Optional() private readonly limits?: RateLimits,
  ) {
    this.sweeper = scheduler.task('OAuth sweep', () => this.sweep());
  }

  get oidc(): Provider {
    return this.provider;
  }

  onModuleInit(): void {
    this.provider = this.build();
    const handle = this.provider.callback();
    // Nest has registered its routes by now (the consent routes among them): this comes after them.
    this.http.httpAdapter.use((req: IncomingMessage & { ip?: string }, res: ServerResponse, next: () => void) => {
      const path = (req.url ?? '').split('?')[0];
      if (!PROVIDER_PATH.test(path)) return next();
      // oidc-provider 8 serves its metadata at the OpenID path only: the RFC 8414 path answers the same document.
      if (path === METADATA_PATH) req.url = `/.well-known/openid-configuration${(req.url ?? '').slice(path.length)}`;
      void this.admit(req, res).then((ok) => (ok ? handle(req, res) : undefined));
    });
    this.unregister = this.verifiers.register((token) => this.authenticate(token));
    this.sweeper.start(SWEEP_MS);
  }

  onModuleDestroy(): Promise<void> {
    this.unregister?.();
    return this.sweeper.stop();
  }

  /**
   * The OAuth endpoints are outside the guards: each request spends one unit
   * of its address's caller bucket (as an anonymous API call does), so that
   * guessing codes or tokens is limited too. Refused: 429 with an OAuth-style
   * JSON error and Retry-After.
   */
  private async admit(req: IncomingMessage & { ip?: string }, res: ServerResponse): Promise<boolean> {
    if (!this.limits?.has('caller')) return true;
    const state = await this.limits.consume('caller', `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`, 1).catch(() => null);
    if (!state || state.allowed) return true;
    const retryAfter = Math.max(1, state.reset);
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(retryAfter), 'cache-control': 'no-store' });
    res.end(
      JSON.stringify({
        error: 'temporarily_unavailable',
        error_description: `rate limit of ${state.limit} requests per ${state.windowSeconds} s exceeded; retry in ${retryAfter} s`,
      }),
    );
    return false;
  }

  /** The caller an OAuth access token stands for, or null (unknown, expired, revoked). */
  async authenticate(token: string): Promise<Principal | null> {
    if (!/^[A-Za-z0-9_-]{20,128}$/.test(token)) return null;
    let at: InstanceType<Provider['AccessToken']> | undefined;
    try {
      at = await this.provider.AccessToken.find(token);
    } catch {
      return null;
    }
    if (!at || !at.accountId || !at.grantId || !at.jti || at.isExpired) return null;
    if (this.bus.isRevoked(accessTokenKey(at.jti)) || this.bus.isRevoked(grantKey(at.grantId)) || !(await this.grantExists(at.grantId))) return null;
    const usr = (at.extra as { usr?: unknown } | undefined)?.usr;
    const username = typeof usr === 'string' ? usr : (await this.accounts.byId(at.accountId))?.username;
    if (!username) return null;
    return {
      accountId: at.accountId,
      username,
      via: 'oauth',
      tokenId: null,
      scopes: expandScopes((at.scope ?? '').split(' ')),
      grantId: at.grantId,
      accessTokenId: at.jti,
      clientId: at.clientId,
      expiresAt: (at.exp ?? 0) * 1000,
    };
  }

  private grantExists(grantId: string): Promise<boolean> {
    let read = this.liveGrants.get(grantId);
    if (!read) {
      read = this.prisma.oAuthPayload.count({ where: { model: 'Grant', id: grantId } }).then((n) => n > 0);
      this.liveGrants.set(grantId, read);
      read.catch(() => this.liveGrants.delete(grantId));
    }
    return read;
  }

  /** Deletes every row of a grant (the grant, its codes and tokens) and tells every instance (open sockets close). */
  async revokeGrant(grantId: string, accountId: string | null): Promise<void> {
    this.liveGrants.delete(grantId);
    await this.prisma.oAuthPayload.deleteMany({ where: { OR: [{ grantId }, { model: 'Grant', id: grantId }] } });
    await this.bus.publish({ kind: 'grant', accountId: accountId ?? '', grantId });
  }

  private async sweep(): Promise<void> {
    await this.prisma.oAuthPayload.deleteMany({ where: { expiresAt: { lt: new Date() } } }).catch(() => undefined);
  }

  private build(): Provider {
    const prisma = this.prisma;
    const accounts = this.accounts;
    const hooks = { grantRevoked: (grantId: string, accountId: string | null) => this.revokeGrant(grantId, accountId) };
    const usernameOf = async (id: string | undefined): Promise<string | undefined> => {
      if (!id) return undefined;
      const row = await accounts.byId(id).catch(() => null);
      return row?.username;
    };

    // Every authorization goes through the consent page (the user sees which app asks what, every time);
    // the page answers with both the login (the web client's signed-in account) and the consent.
    const policy = interactionPolicy.base();
    policy
      .get('login')!
      .checks.add(
        new interactionPolicy.Check('consent_every_time', 'every authorization is approved on the consent page', (ctx: KoaContextWithOIDC) =>
          ctx.oidc.result ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
        ),
      );

    const configuration: Configuration = {
      adapter: (name: string) => new PrismaAdapter(name, prisma, hooks, this.secret.value),
      clients: [],
      findAccount: async (_ctx, sub) => {
        const username = await usernameOf(sub);
        return username ? { accountId: sub, claims: async () => ({ sub, preferred_username: username }) } : undefined;
      },
      extraTokenClaims: async (_ctx, token) => {
        const username = await usernameOf((token as { accountId?: string }).accountId);
        return username ? { usr: username } : undefined;
      },
      scopes: [...SCOPES],
      claims: { openid: ['sub'] },
      responseTypes: ['code'],
      pkce: { required: () => true },
      routes: OAUTH_ROUTES,
      allowOmittingSingleRegisteredRedirectUri: false,
      // RFC 6749 recommends it, the issue requires it: a request without state is refused (invalid_request, at the redirect URI).
      extraParams: {
        state: (_ctx: KoaContextWithOIDC, value: string | undefined) => {
          if (!value) throw new errors.InvalidRequest("missing required parameter 'state'");
        },
      },
      features: {
        devInteractions: { enabled: false },
        // RFC 9126: an app may push its authorization request (POST /oauth/par, with PKCE and state as ever) and send the browser with its request_uri.
        pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: false, allowUnregisteredRedirectUris: false },
        // An app revokes only what was issued to it (oidc-provider 8 refuses another app's token itself: invalid_request).
        revocation: { enabled: true },
        introspection: {
          enabled: true,
          // An app introspects only what was issued to it.
          allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
        },
        userinfo: { enabled: false },
        rpInitiatedLogout: { enabled: false },
        resourceIndicators: { enabled: false },
      },
      clientDefaults: {
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: 'EdDSA',
      },
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      // Every refresh spends its token and issues the next; a spent one presented again revokes the whole grant.
      rotateRefreshToken: true,
      // Tokens live their own lives: the provider's browser session only lasts the authorization.
      expiresWithSession: async () => false,
      ttl: {
        ...tokenTtls(this.config),
        IdToken: 3600,
        Interaction: 600,
        Session: 600,
      },
      interactions: { url: async (_ctx, interaction) => consentPath(interaction.uid), policy },
      // SameSite=Lax for the provider's session cookie too (oidc-provider 8 defaults it to None; 9 to Lax).
      cookies: { keys: [derivedKey(this.secret.value, 'cookies').toString('base64url')], long: { sameSite: 'lax' } },
      jwks: { keys: [signingJwk(this.secret.value) as never] },
      enabledJWA: { idTokenSigningAlgValues: ['EdDSA'] },
      renderError: async (ctx, out) => {
        ctx.type = 'application/json';
        ctx.body = out;
      },
    };
    const provider = new Provider(oauthIssuer(this.config), configuration);
    // X-Forwarded-Proto/Host from the proxies the service trusts (as Express does).
    provider.proxy = !!this.config.TRUST_PROXY;
    provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => {
      const accountId =
        ctx.oidc?.entities?.Grant?.accountId ?? ctx.oidc?.entities?.RefreshToken?.accountId ?? ctx.oidc?.entities?.AuthorizationCode?.accountId ?? null;
      void this.bus.publish({ kind: 'grant', accountId: accountId ?? '', grantId });
    });
    // An app revoking one access token (RFC 7009): its row is gone (HTTP refuses it on every instance); its sockets and streams close.
    provider.on('access_token.destroyed', (token: InstanceType<Provider['AccessToken']>) => {
      if (!token.jti) return;
      void this.bus.publish({ kind: 'accessToken', accountId: token.accountId ?? '', accessTokenId: token.jti, expiresAt: (token.exp ?? 0) * 1000 });
    });
    provider.on('server_error', (_ctx: unknown, err: Error) => this.log.error(`oauth server error: ${err.message}`, err.stack));
    return provider;
  }
}
