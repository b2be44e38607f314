/**
 * The rate limits' buckets, on rate-limiter-flexible: in Redis when
 * REDIS_URL or REDIS_SENTINELS is set (the instance's shared connection, src/realtime/redis.ts),
 * so that every instance spends from the same counters (with a per-instance
 * memory limiter as insurance while Redis is away), in memory otherwise. Fixed windows; points are the rate-limit units a request
 * costs (1, or a GraphQL document's cost).
 *
 * With Redis, a request need not go to Redis each time: an instance takes a
 * lease of 1% of a key's limit (LEASE_FRACTION) on top of a charge it sends,
 * and spends the following charges of that key from the lease in memory until
 * it runs out or the window ends. A lease is spent in Redis when it is taken,
 * so the instances together never allow more than the limit; the error is
 * the other way: the unspent leases (at most one per instance and key) count
 * as spent, so a key may be refused up to (instances x 1%) of its limit
 * early. Near the limit (less than two leases plus the charge left, as this
 * instance last saw it) every charge goes to Redis alone, as without leases,
 * and a limit under 100 units takes no lease at all.
 *
 * While Redis is away or switching masters (Sentinel, docs/operations.md
 * "Redis failover (Sentinel)"), a charge Redis cannot take (not connected, or
 * failed after the connection's retries) is counted by the insurance limiter
 * of this instance alone: the limits fail open, up to one full limit per
 * instance, for the seconds of the switch, and the RateLimit-* headers still
 * come. A limit bounds abuse, it records nothing: refusing every request for
 * want of a shared counter would turn a Redis switch into an outage.
 */
import { Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { entriesAtMost } from '../common/lru-bound';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { AppConfig } from '../config/config';

export interface Limit {
  /** Units per window. */
  points: number;
  windowMs: number;
}

export interface RateLimitConfig {
  /** Per account (its session and all its API tokens together), and per address for anonymous callers. */
  caller: Limit;
  /** Per API token, on top of its account's bucket; null: tokens share the account's bucket only. */
  token: Limit | null;
  /** login and register attempts per address (credential stuffing). */
  auth: Limit;
  /** Chat messages per account, every room together (src/chat: CHAT_RATE_LIMIT); absent: unlimited. */
  chatUser?: Limit;
  /** Chat messages per room, every author together (CHAT_ROOM_RATE_LIMIT); absent: unlimited. */
  chatRoom?: Limit;
}

export function rateLimitConfig(config: AppConfig): RateLimitConfig {
  const caller = { points: config.RATE_LIMIT, windowMs: config.RATE_LIMIT_WINDOW_MS };
  const token = config.TOKEN_RATE_LIMIT !== undefined ? { points: config.TOKEN_RATE_LIMIT, windowMs: caller.windowMs } : null;
  const auth = { points: config.AUTH_RATE_LIMIT, windowMs: config.AUTH_RATE_LIMIT_WINDOW_MS };
  const chatUser = { points: config.CHAT_RATE_LIMIT, windowMs: config.CHAT_RATE_LIMIT_WINDOW_MS };
  const chatRoom = { points: config.CHAT_ROOM_RATE_LIMIT, windowMs: config.CHAT_RATE_LIMIT_WINDOW_MS };
  return { caller, token, auth, chatUser, chatRoom };
}

export type Bucket = keyof RateLimitConfig;

/** A bucket after a charge: what the RateLimit-* headers and a RATE_LIMITED error report. */
export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  reset: number;
  windowSeconds: number;
}

/** The share of a key's limit an instance takes as a lease (see above): the documented error per instance. */
export const LEASE_FRACTION = 0.01;
/** Keys with a lease held at once per instance (the least recently used lapse: refused early by at most its rest). */
const MAX_LEASES = 100_000;

/** Units of a key taken from Redis and not yet spent here, in the window that ends at resetAt. */
interface Lease {
  left: number;
  /** What Redis said was left for everyone once the lease was taken. */
  remaining: number;
  /** Epoch ms when the window (and the lease) ends. */
  resetAt: number;
}

@Injectable()
export class RateLimits {
  private readonly limiters = new Map<Bucket, { limit: Limit; limiter: RateLimiterAbstract; lease: number }>();
  private readonly leases = new LRUCache<string, Lease>(entriesAtMost(MAX_LEASES));
  /** A charge of a key on its way to Redis: a concurrent charge of the same key waits for its lease. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    readonly config: RateLimitConfig,
    /** The instance's shared Redis connection (its owner closes it), or null: counters in memory. */
    private readonly redis: Redis | null,
    /** Separates deployments (or test runs) sharing one Redis (RATE_LIMIT_REDIS_PREFIX). */
    redisPrefix: string,
  ) {
    for (const [bucket, limit] of Object.entries(config) as [Bucket, Limit | null | undefined][]) {
      if (!limit) continue;
      const duration = Math.max(1, Math.ceil(limit.windowMs / 1000));
      const keyPrefix = `${redisPrefix}:${bucket}`;
      const memory = new RateLimiterMemory({ points: limit.points, duration, keyPrefix });
      const limiter = this.redis
        ? // a charge never waits for a reconnect (rejectIfRedisNotReady): the insurance limiter answers meanwhile
          new RateLimiterRedis({ storeClient: this.redis, points: limit.points, duration, keyPrefix, rejectIfRedisNotReady: true, insuranceLimiter: memory })
        : memory;
      const lease = this.redis ? Math.floor(limit.points * LEASE_FRACTION) : 0;
      this.limiters.set(bucket, { limit: { points: limit.points, windowMs: duration * 1000 }, limiter, lease });
    }
  }

  has(bucket: Bucket): boolean {
    return this.limiters.has(bucket);
  }

  /** Spends `points` from the bucket's counter for `key`; a refused charge still counts (as every attempt does). */
  async consume(bucket: Bucket, key: string, points = 1): Promise<RateLimitState> {
    const entry = this.limiters.get(bucket);
    if (!entry) throw new Error(`no rate-limit bucket ${bucket}`);
    const { limit, limiter, lease } = entry;
    const windowSeconds = Math.round(limit.windowMs / 1000);
    const state = (allowed: boolean, remaining: number, msBeforeNext: number): RateLimitState => ({
      allowed,
      limit: limit.points,
      remaining: Math.max(0, remaining),
      reset: Math.max(0, Math.ceil(msBeforeNext / 1000)),
      windowSeconds,
    });
    if (lease === 0) {
      try {
        const res = await limiter.consume(key, points);
        return state(true, res.remainingPoints, res.msBeforeNext);
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return state(false, refusal.remainingPoints, refusal.msBeforeNext);
        throw refusal;
      }
    }
    const id = `${bucket}:${key}`;
    const waiting = this.inFlight.get(id);
    if (waiting) await waiting.catch(() => undefined);
    const held = this.leases.get(id);
    const now = Date.now();
    if (held && held.resetAt > now && held.left >= points) {
      held.left -= points;
      return state(true, held.remaining + held.left, held.resetAt - now);
    }
    // A lease on top of this charge while far from the limit (as last seen here); near it, the charge alone.
    const known = held && held.resetAt > now ? held.remaining : limit.points;
    const extra = known >= points + 2 * lease ? lease : 0;
    const charged = this.charge(limiter, key, points, extra);
    this.inFlight.set(id, charged);
    try {
      const { res, allowed, leased } = await charged;
      const resetAt = Date.now() + res.msBeforeNext;
      // Remembered even without a lease: what is left decides whether the next charge may take one.
      this.leases.set(id, { left: leased, remaining: res.remainingPoints, resetAt });
      return state(allowed, res.remainingPoints + leased, res.msBeforeNext);
    } finally {
      if (this.inFlight.get(id) === charged) this.inFlight.delete(id);
    }
  }

  /**
   * Spends points + extra in Redis. When that is refused but the points alone
   * fit, the extra is given back and the charge is allowed; when even they do
   * not, the extra is given back too: a refusal counts the charge, as ever.
   */
  private async charge(
    limiter: RateLimiterAbstract,
    key: string,
    points: number,
    extra: number,
  ): Promise<{ res: RateLimiterRes; allowed: boolean; leased: number }> {
    try {
      return { res: await limiter.consume(key, points + extra), allowed: true, leased: extra };
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      if (extra === 0) return { res: refusal, allowed: false, leased: 0 };
      const res = await limiter.reward(key, extra);
      return { res, allowed: res.consumedPoints <= limiter.points, leased: 0 };
    }
  }
}
