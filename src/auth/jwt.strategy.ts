import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { JWT_ISSUER, jwtVerifyKey } from './auth.config';
import type { Principal } from './principal';
import { SCOPES } from './principal';

export interface JwtPayload {
  sub: string;
  usr: string;
}

/** Password sessions: a signed, expiring JWT as the bearer token. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor() {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // jsonwebtoken takes a KeyObject (see jwtVerifyKey); passport-jwt's types only name string and Buffer.
      secretOrKeyProvider: (_req: unknown, _token: unknown, done: (err: unknown, key?: string) => void) => done(null, jwtVerifyKey() as unknown as string),
      issuer: JWT_ISSUER,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  validate(payload: JwtPayload): Principal | false {
    return principalOfJwt(payload);
  }
}

export function principalOfJwt(payload: unknown): Principal | false {
  const p = payload as Partial<JwtPayload> | null;
  if (!p || typeof p.sub !== 'string' || typeof p.usr !== 'string') return false;
  return { accountId: p.sub, username: p.usr, via: 'session', tokenId: null, scopes: [...SCOPES] };
}
