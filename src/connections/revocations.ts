/**
 * Revoked credentials, announced to every instance through the
 * subscriptions' pub/sub (Redis when REDIS_URL is set), so that each one
 * refuses them on HTTP at once and closes the sockets opened with them.
 *
 * Each instance also remembers what it heard for as long as the credential
 * could still be presented (a session: until its JWT expires; an API token:
 * a while, after which the database row answers): an authentication that
 * read "active" just before the news arrived checks here again.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { entriesAtMost } from '../common/lru-bound';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';

export const REVOCATIONS_CHANNEL = 'auth:revocations';

/**
 * A revoked credential: an API token, sessions (one by logout, all of an
 * account by logout-everywhere), an OAuth grant (every token an app holds
 * from one authorization: revoked by the user, by the app, by deleting the
 * app, or by the reuse of a spent refresh token), or one OAuth access token
 * (revoked by its app, RFC 7009: the grant and its other tokens go on), or
 * a whole account (a moderator's ban: every credential of it, whatever its
 * kind, src/auth/account-bans.ts). `accountRestored` is the other way: a
 * moderator lifted the account's ban, and every instance forgets it (the
 * credentials the ban revoked stay revoked; new ones work).
 */
export type Revocation =
  | { kind: 'token'; accountId: string; tokenId: string }
  | { kind: 'sessions'; accountId: string; sessions: { id: string; expiresAt: number }[] }
  | { kind: 'grant'; accountId: string; grantId: string }
  | { kind: 'accessToken'; accountId: string; accessTokenId: string; expiresAt: number }
  | { kind: 'account'; accountId: string }
  | { kind: 'accountRestored'; accountId: string };

/** The key of a credential in the registries: `token:<id>`, `session:<sid>`, `grant:<id>` or `access-token:<jti>`; `account:<id>`, every credential of an account. */
export const tokenKey = (tokenId: string): string => `token:${tokenId}`;
export const sessionKey = (sessionId: string): string => `session:${sessionId}`;
export const grantKey = (grantId: string): string => `grant:${grantId}`;
export const accessTokenKey = (accessTokenId: string): string => `access-token:${accessTokenId}`;
export const accountKey = (accountId: string): string => `account:${accountId}`;

/** How long a revoked API token is remembered here: far longer than an authentication in flight takes. */
const TOKEN_MEMORY_MS = 10 * 60_000;
/** How long a banned account is remembered here; then its row answers (src/auth/account-bans.ts reads it, cached for less). */
const ACCOUNT_MEMORY_MS = 24 * 3600_000;
/** Bound on remembered revocations (a flood of logouts evicts the oldest; the database still says no). */
const MAX_REMEMBERED = 200_000;

type Listener = (keys: string[]) => void;

@Injectable()
export class RevocationBus implements OnModuleInit, OnModuleDestroy {
  private readonly log = new Logger('Auth');
  private readonly revoked = new LRUCache<string, true>({ ...entriesAtMost(MAX_REMEMBERED), ttlAutopurge: false });
  private readonly listeners = new Set<Listener>();
  private readonly restoredListeners = new Set<(accountId: string) => void>();
  private subscription: number | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Resolves once this instance hears revocations (it starts without waiting: Redis may be down). */
  ready: Promise<void> = Promise.resolve();

  constructor(@Inject(PUB_SUB) private readonly pubsub: PubSubEngine) {}

  onModuleInit(): void {
    this.ready = this.listen();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    if (this.subscription !== undefined) this.pubsub.unsubscribe(this.subscription);
  }

  /** Subscribes to the channel, retrying every second until it can (a failed Redis SUBSCRIBE is not retried by ioredis). */
  private listen(): Promise<void> {
    return this.pubsub
      .subscribe(REVOCATIONS_CHANNEL, (message: unknown) => this.apply(message), {})
      .then(
        (id) => {
          if (this.stopped) this.pubsub.unsubscribe(id);
          else this.subscription = id;
        },
        (err: unknown) => {
          if (this.stopped) return;
          this.log.warn(`cannot hear revocations from other instances yet (${(err as Error).message}); retrying`);
          return new Promise<void>((resolve) => {
            this.retry = setTimeout(() => resolve(this.listen()), 1000);
            this.retry.unref();
          });
        },
      );
  }

  /** Applies a revocation here at once, then tells the other instances. */
  async publish(revocation: Revocation): Promise<void> {
    this.apply(revocation);
    try {
      await this.pubsub.publish(REVOCATIONS_CHANNEL, revocation);
    } catch (err) {
      // The database holds the revocation: other instances' caches expire (SESSION_CACHE_TTL), but their sockets stay open.
      this.log.warn(`could not announce a revocation to other instances: ${(err as Error).message}`);
    }
  }

  isRevoked(key: string): boolean {
    return this.revoked.has(key);
  }

  /** Called with the keys of every revocation heard (its own included). */
  onRevoked(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called with the account of every lifted ban heard (its own included). */
  onRestored(listener: (accountId: string) => void): () => void {
    this.restoredListeners.add(listener);
    return () => this.restoredListeners.delete(listener);
  }

  private apply(message: unknown): void {
    const restored = message as Partial<Revocation> | null;
    if (restored?.kind === 'accountRestored' && typeof restored.accountId === 'string' && restored.accountId) {
      this.revoked.delete(accountKey(restored.accountId));
      for (const listener of this.restoredListeners) listener(restored.accountId);
      return;
    }
    const keys = keysOf(message);
    if (keys.length === 0) return;
    const now = Date.now();
    for (const { key, until } of keys) if (until > now) this.revoked.set(key, true, { ttl: until - now });
    const names = keys.map((k) => k.key);
    for (const listener of this.listeners) listener(names);
  }
}

/** The credentials a message names, each with how long to remember it; nothing for a malformed message. */
function keysOf(message: unknown): { key: string; until: number }[] {
  const m = message as Partial<Revocation> | null;
  if (!m || typeof m !== 'object') return [];
  if (m.kind === 'token' && typeof m.tokenId === 'string') return [{ key: tokenKey(m.tokenId), until: Date.now() + TOKEN_MEMORY_MS }];
  if (m.kind === 'grant' && typeof m.grantId === 'string') return [{ key: grantKey(m.grantId), until: Date.now() + TOKEN_MEMORY_MS }];
  if (m.kind === 'accessToken' && typeof m.accessTokenId === 'string') {
    // remembered until it would have expired anyway (at least a while, as an API token)
    const until = Math.max(typeof m.expiresAt === 'number' ? m.expiresAt : 0, Date.now() + TOKEN_MEMORY_MS);
    return [{ key: accessTokenKey(m.accessTokenId), until }];
  }
  if (m.kind === 'account' && typeof m.accountId === 'string' && m.accountId) return [{ key: accountKey(m.accountId), until: Date.now() + ACCOUNT_MEMORY_MS }];
  if (m.kind === 'sessions' && Array.isArray(m.sessions)) {
    return m.sessions
      .filter((s) => s && typeof s.id === 'string' && typeof s.expiresAt === 'number')
      .map((s) => ({ key: sessionKey(s.id), until: s.expiresAt }));
  }
  return [];
}
