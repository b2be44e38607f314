/**
 * Banned accounts (a moderator's ban, src/moderation/): the flag is a column
 * of auth's `accounts` (banned_at), so that auth reads it without importing
 * moderation (which imports auth). A ban ends every credential of the
 * account as logout-everywhere does, and more: in the ban's own transaction
 * every session (the JWTs and their refresh tokens) and every API token is
 * revoked with the mark; after the commit the account's revocation on the
 * bus (`account:<id>`, heard by every instance) closes every open socket and
 * HTTP stream whatever its credential (OAuth access tokens included), and
 * the sessions and tokens are announced as logout and revoke announce them.
 * Login is then refused with ACCOUNT_BANNED (./accounts.service.ts).
 *
 * Every authentication (the guard, the graphql-ws handshake) asks
 * refuses(principal): a session or an API token is refused by its own row
 * (revoked with the ban), so only the bus's news is checked for them (no
 * read on the play path); an OAuth access token, whose grant outlives the
 * ban, is checked against the account's row, read once per instance and
 * cached for SESSION_CACHE_TTL (the bus remembers a ban far longer).
 */
import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { entriesAtMost } from '../common/lru-bound';
import type { Principal } from '../common/principal';
import { AuthConfig } from '../config/slices';
import { RevocationBus, accountKey } from '../connections/revocations';
import { PrismaService } from '../database/prisma.service';
import { SessionsService, sessionCacheTtlMs } from './sessions.service';

/** What runs a statement inside the caller's transaction (the moderation log's, so the ban and its log line commit together). */
export interface BanSql {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** What a ban ended in the database, to announce once it is committed. */
export interface BanMark {
  accountId: string;
  bannedAt: Date;
  sessions: { id: string; expiresAt: Date }[];
  tokens: string[];
}

@Injectable()
export class AccountBans {
  private readonly banned: LRUCache<string, Promise<boolean>>;

  constructor(
    private readonly prisma: PrismaService,
    private readonly bus: RevocationBus,
    private readonly sessions: SessionsService,
    config: AuthConfig,
  ) {
    this.banned = new LRUCache<string, Promise<boolean>>({ ...entriesAtMost(100_000), ttl: Math.max(1, sessionCacheTtlMs(config)) });
    // a lifted ban, heard from any instance: the account's row answers again
    bus.onRestored((accountId) => this.banned.delete(accountId));
  }

  /** Whether an authenticated principal's account is banned (see above: the bus for sessions and API tokens, the row for OAuth). */
  async refuses(principal: Pick<Principal, 'accountId' | 'via'>): Promise<boolean> {
    if (this.bus.isRevoked(accountKey(principal.accountId))) return true;
    if (principal.via !== 'oauth') return false;
    return this.isBanned(principal.accountId);
  }

  /** Whether the account is banned: the bus's news, else its row (cached per instance). */
  async isBanned(accountId: string): Promise<boolean> {
    if (this.bus.isRevoked(accountKey(accountId))) return true;
    let read = this.banned.get(accountId);
    if (!read) {
      read = this.prisma
        .$queryRawUnsafe<{ banned: boolean }[]>(`SELECT banned_at IS NOT NULL AS banned FROM accounts WHERE id = $1::uuid`, accountId)
        .then((rows) => rows[0]?.banned === true);
      this.banned.set(accountId, read);
      read.catch(() => this.banned.delete(accountId));
    }
    return (await read) || this.bus.isRevoked(accountKey(accountId));
  }

  /**
   * Marks the account banned and revokes its sessions and API tokens, inside
   * the caller's transaction; null when it was banned already (nothing
   * changed). Announce the mark after the commit (announce).
   */
  async markBanned(tx: BanSql, accountId: string): Promise<BanMark | null> {
    const marked = await tx.$queryRawUnsafe<{ banned_at: Date }[]>(
      `UPDATE accounts SET banned_at = now() WHERE id = $1::uuid AND banned_at IS NULL RETURNING banned_at`,
      accountId,
    );
    if (!marked[0]) return null;
    const sessions = await tx.$queryRawUnsafe<{ id: string; expires_at: Date }[]>(
      `UPDATE sessions SET revoked_at = now() WHERE account_id = $1::uuid AND revoked_at IS NULL AND expires_at > now() RETURNING id::text AS id, expires_at`,
      accountId,
    );
    const tokens = await tx.$queryRawUnsafe<{ id: string }[]>(
      `UPDATE api_tokens SET revoked_at = now() WHERE account_id = $1::uuid AND revoked_at IS NULL RETURNING id::text AS id`,
      accountId,
    );
    return {
      accountId,
      bannedAt: new Date(marked[0].banned_at),
      sessions: sessions.map((s) => ({ id: s.id, expiresAt: new Date(s.expires_at) })),
      tokens: tokens.map((t) => t.id),
    };
  }

  /**
   * Lifts the account's ban inside the caller's transaction: false when it was
   * not banned (nothing changed). The credentials the ban revoked stay
   * revoked: the account logs in again. Announce it after the commit (announceLifted).
   */
  async unmarkBanned(tx: BanSql, accountId: string): Promise<boolean> {
    const rows = await tx.$queryRawUnsafe<unknown[]>(
      `UPDATE accounts SET banned_at = NULL WHERE id = $1::uuid AND banned_at IS NOT NULL RETURNING id`,
      accountId,
    );
    return rows.length > 0;
  }

  /** After the lifted ban's commit: every instance forgets the ban (login and new credentials work again). */
  async announceLifted(accountId: string): Promise<void> {
    this.banned.delete(accountId);
    await this.bus.publish({ kind: 'accountRestored', accountId });
  }

  /**
   * After the ban's commit: every instance hears it, first the account (its
   * sockets and streams close, whatever the credential), then its sessions
   * and API tokens (the caches that held them active forget them).
   */
  async announce(mark: BanMark): Promise<void> {
    this.banned.set(mark.accountId, Promise.resolve(true));
    await this.bus.publish({ kind: 'account', accountId: mark.accountId });
    await this.sessions.announce(mark.accountId, mark.sessions);
    for (const tokenId of mark.tokens) await this.bus.publish({ kind: 'token', accountId: mark.accountId, tokenId });
  }
}
