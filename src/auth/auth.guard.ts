import { Injectable, Optional } from '@nestjs/common';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { DomainError, isDomainError } from '../common/domain-error';
import { IS_PUBLIC } from '../common/public.decorator';
import { AccessTokenVerifiers, looksLikeJwt } from './access-token-verifiers';
import { LRUCache } from 'lru-cache';
import { entriesAtMost } from '../common/lru-bound';
import { API_TOKEN_PREFIX } from './auth.config';
import { ServerSecret } from './server-secret';
import { JwtStrategy } from './jwt.strategy';
import type { JwtPayload } from './jwt.strategy';
import { DEFAULT_SCOPE, REQUIRED_SCOPE, SESSION_ONLY, requestOf } from '../common/principal';
import type { Principal, Scope } from '../common/principal';
import { RateLimits } from '../limits/rate-limits';
import { chargeRefusedCredential } from '../limits/rate-limit.guard';
import { TokensService } from './tokens.service';
import { AccountBans } from './account-bans';

function bearerOf(headers: Record<string, unknown> | undefined): string | null {
  const h = headers?.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : null;
}

/**
 * The global guard: every operation needs a bearer token unless marked
 * @Public(). A JWT goes through passport-jwt; an API token (scopa_pat_...)
 * is looked up by its hash; anything else goes to the registered verifiers
 * (OAuth access tokens). Then the credential's scopes are checked: this is
 * the one scope check of REST, GraphQL, graphql-ws and streams.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('jwt') {
  /**
   * JWTs this instance verified (signature, issuer, claims), by their text, with the secret that verified them: the
   * same text presented again skips passport and the HMAC (about 5% of a REST play's CPU), not the checks that can
   * change: its expiry, and its session (JwtStrategy.validate, as on the first time).
   */
  private readonly verified = new LRUCache<string, { payload: JwtPayload; secret: string }>({ ...entriesAtMost(10_000), ttl: 10 * 60_000 });

  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokensService,
    private readonly verifiers: AccessTokenVerifiers,
    private readonly jwt: JwtStrategy,
    private readonly secret: ServerSecret,
    private readonly bans: AccountBans,
    @Optional() private readonly limits?: RateLimits,
  ) {
    super();
  }

  /** A JWT verified here before, still unexpired, under the same secret: its session checked again; else passport. */
  private async authenticateJwt(context: ExecutionContext, req: { user?: Principal }, bearer: string): Promise<void> {
    const known = this.verified.get(bearer);
    if (known && known.payload.exp * 1000 > Date.now() && known.secret === this.secret.value) {
      const principal = await this.jwt.validate(known.payload);
      if (principal) {
        req.user = principal;
        return;
      }
    }
    await (super.canActivate(context) as Promise<boolean>);
    const user = req.user;
    if (user?.via === 'session' && user.sessionId && user.expiresAt) {
      this.verified.set(bearer, {
        payload: { sub: user.accountId, usr: user.username, sid: user.sessionId, exp: user.expiresAt / 1000 },
        secret: this.secret.value,
      });
    }
  }

  override getRequest(context: ExecutionContext): unknown {
    return requestOf(context);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      return await this.authorize(context);
    } catch (err) {
      // Refused credentials spend their address's rate-limit bucket (guessing tokens is limited too).
      if (this.limits && isDomainError(err) && err.code === 'UNAUTHENTICATED') await chargeRefusedCredential(this.limits, context);
      throw err;
    }
  }

  private async authorize(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets);
    const req = requestOf(context) as { user?: Principal; headers?: Record<string, unknown> };
    if (!req.user) {
      const bearer = bearerOf(req.headers);
      if (!bearer) {
        if (isPublic) return true;
        throw new DomainError('UNAUTHENTICATED', 'a bearer token is required (Authorization: Bearer <token>)');
      }
      try {
        if (bearer.startsWith(API_TOKEN_PREFIX)) {
          const principal = await this.tokens.authenticate(bearer);
          if (!principal) throw new DomainError('UNAUTHENTICATED', 'the API token is unknown or revoked');
          req.user = principal;
        } else if (looksLikeJwt(bearer)) {
          await this.authenticateJwt(context, req, bearer);
        } else {
          const principal = await this.verifiers.authenticate(bearer);
          if (!principal) throw new DomainError('UNAUTHENTICATED', 'the access token is unknown, expired or revoked');
          req.user = principal;
        }
        // A banned account's credentials have all ended (src/auth/account-bans.ts); this also refuses any that outlived it.
        if (req.user && (await this.bans.refuses(req.user))) {
          req.user = undefined;
          throw new DomainError('UNAUTHENTICATED', 'the account is banned: its credentials have ended');
        }
      } catch (err) {
        // A public operation ignores a bad token and runs anonymously.
        if (!isPublic) throw err;
        req.user = undefined;
      }
    }
    if (isPublic) return true;
    const user = req.user!;
    if (this.reflector.getAllAndOverride<boolean>(SESSION_ONLY, targets) && user.via !== 'session') {
      throw new DomainError('FORBIDDEN', 'this operation needs a password session, not an API token');
    }
    const scope = this.reflector.getAllAndOverride<Scope>(REQUIRED_SCOPE, targets) ?? DEFAULT_SCOPE;
    if (!user.scopes.includes(scope))
      throw new DomainError('FORBIDDEN', `this ${user.via === 'oauth' ? 'OAuth access token' : 'API token'} lacks the ${scope} scope`, {
        requiredScope: scope,
      });
    return true;
  }

  override handleRequest<TUser>(err: unknown, user: TUser): TUser {
    if (err instanceof DomainError) throw err;
    if (err || !user) throw new DomainError('UNAUTHENTICATED', 'the bearer token is invalid or expired');
    return user;
  }
}
