import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { JWT_ISSUER, jwtSecret } from './auth.config';
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
      secretOrKey: jwtSecret(),
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
