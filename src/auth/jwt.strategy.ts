import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { DomainError } from '../common/domain-error';
import { JWT_ISSUER } from './auth.config';
import type { Principal } from '../common/principal';
import { SCOPES } from '../common/principal';
import { ServerSecret } from './server-secret';
import { SessionsService } from './sessions.service';

export interface JwtPayload {
  sub: string;
  usr: string;
  /** The session (a row of `sessions`): what logout revokes. */
  sid: string;
  /** Seconds since the epoch; a token without it is refused (it would never end). */
  exp: number;
}

/** Password sessions: a signed, expiring JWT as the bearer token, naming a session that logout can end. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    private readonly sessions: SessionsService,
    secret: ServerSecret,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // jsonwebtoken takes a KeyObject (see jwtVerifyKey); passport-jwt's types only name string and Buffer.
      secretOrKeyProvider: (_req: unknown, _token: unknown, done: (err: unknown, key?: string) => void) => done(null, secret.verifyKey as unknown as string),
      issuer: JWT_ISSUER,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /** The principal of a verified payload, once its session is known to be active (HTTP and graphql-ws alike). */
  async validate(payload: unknown): Promise<Principal | false> {
    const principal = principalOfJwt(payload);
    if (!principal) return false;
    if (!(await this.sessions.isActive(principal.sessionId!, principal.accountId)))
      throw new DomainError('UNAUTHENTICATED', 'the session has ended (logged out)');
    return principal;
  }
}

/** The principal a verified payload names, or false when a claim is missing (exp and sid included). */
export function principalOfJwt(payload: unknown): Principal | false {
  const p = payload as Partial<JwtPayload> | null;
  if (!p || typeof p.sub !== 'string' || typeof p.usr !== 'string' || typeof p.sid !== 'string') return false;
  if (typeof p.exp !== 'number' || !Number.isFinite(p.exp)) return false;
  return { accountId: p.sub, username: p.usr, via: 'session', tokenId: null, scopes: [...SCOPES], sessionId: p.sid, expiresAt: p.exp * 1000 };
}
