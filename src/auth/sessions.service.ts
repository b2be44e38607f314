import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { entriesAtMost } from '../common/lru-bound';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import { REFRESH_TOKEN_PREFIX } from './auth.config';
import { RevocationBus, sessionKey } from '../connections/revocations';
import { AuthConfig } from '../config/slices';

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');
const newRefreshToken = (): string => REFRESH_TOKEN_PREFIX + randomBytes(32).toString('base64url');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How long an instance trusts what it read about a session (SESSION_CACHE_TTL
 * seconds, default 60). Revocations reach every instance at once through the
 * pub/sub; this only bounds how stale a cache can be if such news is lost.
 */
export function sessionCacheTtlMs(config: Pick<AuthConfig, 'SESSION_CACHE_TTL'>): number {
  return config.SESSION_CACHE_TTL * 1000;
}

/**
 * Password sessions: a row per login (its id is the JWT's `sid`), revoked by
 * logout or logout-everywhere. Whether a session is active is read once per
 * instance and cached, so a request costs no database read.
 */
@Injectable()
export class SessionsService {
  private readonly active: LRUCache<string, Promise<boolean>>;

  constructor(
    private readonly prisma: PrismaService,
    private readonly bus: RevocationBus,
    config: AuthConfig,
  ) {
    this.active = new LRUCache<string, Promise<boolean>>({ ...entriesAtMost(100_000), ttl: Math.max(1, sessionCacheTtlMs(config)) });
  }

  /**
   * A new session of the account, valid for ttlSeconds (the refresh tokens'
   * life), with its first refresh token; deletes the account's expired ones.
   */
  async start(accountId: string, ttlSeconds: number): Promise<{ id: string; expiresAt: Date; refreshToken: string }> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    const refreshToken = newRefreshToken();
    const [, row] = await this.prisma.$transaction([
      this.prisma.session.deleteMany({ where: { accountId, expiresAt: { lt: now } } }),
      this.prisma.session.create({ data: { accountId, expiresAt, refreshTokens: { create: { tokenHash: hashOf(refreshToken) } } }, select: { id: true } }),
    ]);
    this.active.set(row.id, Promise.resolve(true));
    return { id: row.id, expiresAt, refreshToken };
  }

  /**
   * Spends a refresh token (single use) and returns its session with the
   * next one. A spent token presented again ends the session at once (it
   * was copied: RFC 6819 5.2.2.3), as does an unknown, ended or expired one
   * being refused.
   */
  async refresh(raw: string): Promise<{ sessionId: string; accountId: string; refreshToken: string }> {
    const refused = (why: string) => new DomainError('UNAUTHENTICATED', why);
    if (typeof raw !== 'string' || !raw.startsWith(REFRESH_TOKEN_PREFIX) || raw.length > 200) throw refused('the refresh token is unknown');
    const hash = hashOf(raw);
    const now = new Date();
    const next = newRefreshToken();
    const outcome = await this.prisma.$transaction(async (tx) => {
      // The conditional update is the single-use check: of two concurrent refreshes one wins.
      const spent = await tx.sessionRefreshToken.updateManyAndReturn({
        where: { tokenHash: hash, usedAt: null },
        data: { usedAt: now },
        select: { sessionId: true },
      });
      const row = spent[0] ?? (await tx.sessionRefreshToken.findUnique({ where: { tokenHash: hash }, select: { sessionId: true } }));
      if (!row) return { kind: 'unknown' as const };
      const session = await tx.session.findUnique({ where: { id: row.sessionId }, select: { id: true, accountId: true, revokedAt: true, expiresAt: true } });
      if (!session || session.revokedAt || session.expiresAt <= now) return { kind: 'ended' as const };
      if (spent.length === 0) return { kind: 'reused' as const, session };
      await tx.sessionRefreshToken.create({ data: { tokenHash: hashOf(next), sessionId: session.id } });
      return { kind: 'ok' as const, session };
    });
    if (outcome.kind === 'unknown') throw refused('the refresh token is unknown');
    if (outcome.kind === 'ended') throw refused('the session has ended');
    if (outcome.kind === 'reused') {
      await this.revoke(outcome.session.accountId, outcome.session.id);
      throw refused('the refresh token was already used: the session has been ended');
    }
    return { sessionId: outcome.session.id, accountId: outcome.session.accountId, refreshToken: next };
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

  /** Tells this instance's cache and every instance that these sessions of the account have ended (their rows say so already). */
  async announce(accountId: string, rows: { id: string; expiresAt: Date }[]): Promise<void> {
    for (const row of rows) this.active.delete(row.id);
    if (rows.length === 0) return;
    await this.bus.publish({ kind: 'sessions', accountId, sessions: rows.map((r) => ({ id: r.id, expiresAt: r.expiresAt.getTime() })) });
  }
}
