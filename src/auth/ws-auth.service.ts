import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AccessTokenVerifiers, looksLikeJwt } from './access-token-verifiers';
import { API_TOKEN_PREFIX, JWT_ISSUER } from './auth.config';
import { JwtStrategy } from './jwt.strategy';
import { ServerSecret } from './server-secret';
import type { Principal } from '../common/principal';
import { SocketRegistry } from '../connections/socket-registry';
import type { Connection } from '../connections/socket-registry';
import { TokensService } from './tokens.service';
import { AccountBans } from './account-bans';

/**
 * The graphql-ws connection's authentication: the same bearer tokens as
 * HTTP (a JWT, verified with the secret and options passport-jwt uses, or
 * an API token), taken from the connection_init payload. An accepted
 * connection is tracked until its credential is revoked or expires.
 */
@Injectable()
export class WsAuthService {
  constructor(
    private readonly jwt: JwtService,
    private readonly strategy: JwtStrategy,
    private readonly tokens: TokensService,
    private readonly sockets: SocketRegistry,
    private readonly verifiers: AccessTokenVerifiers,
    private readonly secret: ServerSecret,
    private readonly bans: AccountBans,
  ) {}

  /** Authenticates the connection and tracks it; false refuses it (graphql-ws closes it with 4403). */
  async connect(params: unknown, connection: Connection): Promise<boolean> {
    connection.user = (await this.authenticate(params)) ?? undefined;
    if (connection.user && this.sockets.track(connection)) return true;
    connection.user = undefined;
    return false;
  }

  /** The principal of the connection_init payload's bearer token, or null (none, unknown, ended, or a banned account's). */
  async authenticate(params: unknown): Promise<Principal | null> {
    const principal = await this.credential(params);
    return principal && !(await this.bans.refuses(principal)) ? principal : null;
  }

  private async credential(params: unknown): Promise<Principal | null> {
    const p = (params ?? {}) as Record<string, unknown>;
    const raw = p.authorization ?? p.Authorization ?? p.token ?? p.authToken;
    if (typeof raw !== 'string') return null;
    const token = raw.replace(/^Bearer\s+/i, '').trim();
    if (!token) return null;
    if (token.startsWith(API_TOKEN_PREFIX)) {
      // Any valid token connects; each operation on the socket is then checked by the guard like over HTTP.
      return this.tokens.authenticate(token);
    }
    if (!looksLikeJwt(token)) return this.verifiers.authenticate(token);
    try {
      // The secret as a KeyObject, as the HTTP strategy has it: given the string, jsonwebtoken first tries it as a PEM
      // public key and throws, on every verify (the largest single cost of opening a socket: bench:connections).
      const secret = this.secret.verifyKey as unknown as string;
      const payload = await this.jwt.verifyAsync(token, { issuer: JWT_ISSUER, algorithms: ['HS256'], secret });
      return (await this.strategy.validate(payload)) || null;
    } catch {
      return null;
    }
  }
}
