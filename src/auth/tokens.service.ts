import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import { API_TOKEN_PREFIX } from './auth.config';
import { RevocationBus } from '../connections/revocations';
import { TOKEN_SCOPES, expandScopes } from '../common/principal';
import type { Principal, TokenScope } from '../common/principal';

export interface ApiTokenInfo {
  id: string;
  name: string;
  /** As created: fine scopes, or the aliases `read` / `play`. */
  scopes: TokenScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Personal API tokens: 256 random bits, shown once, stored as their SHA-256
 * (enough for a secret of that entropy: nothing to brute-force).
 */
@Injectable()
export class TokensService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly bus: RevocationBus,
  ) {}

  async create(owner: Principal, name: string, scopes: TokenScope[]): Promise<{ token: string; info: ApiTokenInfo }> {
    const wanted = [...new Set(scopes)];
    if (wanted.length === 0 || wanted.some((s) => !(TOKEN_SCOPES as readonly string[]).includes(s))) {
      throw new DomainError('VALIDATION_FAILED', `scopes: one or more of ${TOKEN_SCOPES.join(', ')}`);
    }
    const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const row = await this.prisma.apiToken.create({
      data: { accountId: owner.accountId, name, scopes: wanted, tokenHash: hashOf(token) },
    });
    return { token, info: toInfo(row) };
  }

  async list(owner: Principal): Promise<ApiTokenInfo[]> {
    const rows = await this.prisma.apiToken.findMany({ where: { accountId: owner.accountId }, orderBy: { createdAt: 'asc' } });
    return rows.map(toInfo);
  }

  async revoke(owner: Principal, id: string): Promise<ApiTokenInfo> {
    const row = await this.prisma.apiToken.findFirst({ where: { id, accountId: owner.accountId } }).catch(() => null);
    if (!row) throw new DomainError('NOT_FOUND', 'no such token');
    if (row.revokedAt) return toInfo(row);
    const revoked = await this.prisma.apiToken.update({ where: { id }, data: { revokedAt: new Date() } });
    // HTTP reads the row on every request; open sockets hear it here, on every instance.
    await this.bus.publish({ kind: 'token', accountId: owner.accountId, tokenId: id });
    return toInfo(revoked);
  }

  /** The principal a raw token stands for, or null (unknown or revoked). */
  async authenticate(raw: string): Promise<Principal | null> {
    if (!raw.startsWith(API_TOKEN_PREFIX) || raw.length > 200) return null;
    const row = await this.prisma.apiToken.findUnique({ where: { tokenHash: hashOf(raw) }, include: { account: { select: { username: true } } } });
    if (!row || row.revokedAt) return null;
    const now = new Date();
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
      void this.prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } }).catch(() => undefined);
    }
    return {
      accountId: row.accountId,
      username: row.account.username,
      via: 'token',
      tokenId: row.id,
      scopes: expandScopes(row.scopes),
    };
  }
}

function toInfo(row: { id: string; name: string; scopes: string[]; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }): ApiTokenInfo {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as TokenScope[],
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}
