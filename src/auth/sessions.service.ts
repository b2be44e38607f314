import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import { RevocationBus, sessionKey } from './revocations';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How long an instance trusts what it read about a session (SESSION_CACHE_TTL
 * seconds, default 60). Revocations reach every instance at once through the
 * pub/sub; this only bounds how stale a cache can be if such news is lost.
 */
export function sessionCacheTtlMs(): number {
  const s = Number(process.env.SESSION_CACHE_TTL ?? 60);
  return Number.isFinite(s) && s >= 0 ? s * 1000 : 60_000;
}

/**
 * Password sessions: a row per login (its id is the JWT's `sid`), revoked by
 * logout or logout-everywhere. Whether a session is active is read once per
 * instance and cached, so a request costs no database read.
 */
@Injectable()
export class SessionsService {
  private readonly active = new LRUCache<string, Promise<boolean>>({ max: 100_000, ttl: Math.max(1, sessionCacheTtlMs()) });

  constructor(
    private readonly prisma: PrismaService,
    private readonly bus: RevocationBus,
  ) {}

  /** A new session of the account, valid for ttlSeconds; deletes the account's expired ones. */
  async start(accountId: string, ttlSeconds: number): Promise<{ id: string; expiresAt: Date }> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    const [, row] = await this.prisma.$transaction([
      this.prisma.session.deleteMany({ where: { accountId, expiresAt: { lt: now } } }),
      this.prisma.session.create({ data: { accountId, expiresAt }, select: { id: true } }),
    ]);
    this.active.set(row.id, Promise.resolve(true));
    return { id: row.id, expiresAt };
  }

  /** Whether the session is neither revoked nor unknown (expiry is the JWT's own check). */
  async isActive(sessionId: string, accountId: string): Promise<boolean> {
    if (!UUID.test(sessionId)) return false;
    const key = sessionKey(sessionId);
    if (this.bus.isRevoked(key)) return false;
    let read = this.active.get(sessionId);
    if (!read) {
      read = this.prisma.session
        .findUnique({ where: { id: sessionId }, select: { accountId: true, revokedAt: true } })
        .then((row) => !!row && row.accountId === accountId && !row.revokedAt);
      // One read for concurrent requests of a session; a failed read is not remembered.
      this.active.set(sessionId, read);
      read.catch(() => this.active.delete(sessionId));
    }
    // The news of a revocation may have come while the row was read.
    return (await read) && !this.bus.isRevoked(key);
  }

  /** Logout: ends this session, on every instance. */
  async revoke(accountId: string, sessionId: string): Promise<void> {
    if (!UUID.test(sessionId)) throw new DomainError('UNAUTHENTICATED', 'this token names no session');
    const rows = await this.prisma.session.updateManyAndReturn({
      where: { id: sessionId, accountId, revokedAt: null },
      data: { revokedAt: new Date() },
      select: { id: true, expiresAt: true },
    });
    await this.announce(accountId, rows);
  }

  /** Logout everywhere: ends every session of the account (its API tokens stay). */
  async revokeAll(accountId: string): Promise<number> {
    const now = new Date();
    const rows = await this.prisma.session.updateManyAndReturn({
      where: { accountId, revokedAt: null, expiresAt: { gt: now } },
      data: { revokedAt: now },
      select: { id: true, expiresAt: true },
    });
    await this.announce(accountId, rows);
    return rows.length;
  }

  private async announce(accountId: string, rows: { id: string; expiresAt: Date }[]): Promise<void> {
    for (const row of rows) this.active.delete(row.id);
    if (rows.length === 0) return;
    await this.bus.publish({ kind: 'sessions', accountId, sessions: rows.map((r) => ({ id: r.id, expiresAt: r.expiresAt.getTime() })) });
  }
}
