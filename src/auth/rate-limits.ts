/**
 * The rate limits' buckets, on rate-limiter-flexible: in Redis when
 * REDIS_URL is set, so that every instance spends from the same counters
 * (with a per-instance memory limiter as insurance while Redis is away), in
 * memory otherwise. Fixed windows; points are the rate-limit units a request
 * costs (1, or a GraphQL document's cost).
 */
import { Injectable } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

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
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}

export function rateLimitConfig(env: NodeJS.ProcessEnv = process.env): RateLimitConfig {
  const caller = { points: positive(env.RATE_LIMIT, 600), windowMs: positive(env.RATE_LIMIT_WINDOW_MS, 60_000) };
  const token = env.TOKEN_RATE_LIMIT ? { points: positive(env.TOKEN_RATE_LIMIT, caller.points), windowMs: caller.windowMs } : null;
  const auth = { points: positive(env.AUTH_RATE_LIMIT, 10), windowMs: positive(env.AUTH_RATE_LIMIT_WINDOW_MS, 60_000) };
  return { caller, token, auth };
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

@Injectable()
export class RateLimits implements OnApplicationShutdown {
  private readonly limiters = new Map<Bucket, { limit: Limit; limiter: RateLimiterAbstract }>();
  private readonly redis: Redis | null;

  constructor(
    readonly config: RateLimitConfig = rateLimitConfig(),
    redisUrl: string | undefined = process.env.REDIS_URL,
    /** Separates deployments (or test runs) sharing one Redis. */
    redisPrefix = process.env.RATE_LIMIT_REDIS_PREFIX || 'scopa:rl',
  ) {
    this.redis = redisUrl
      ? new Redis(redisUrl, {
          // a charge never waits for a reconnect: the insurance limiter answers meanwhile
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
        })
      : null;
    this.redis?.on('error', () => undefined); // surfaced by readiness (realtime's connection), not as a crash
    for (const [bucket, limit] of Object.entries(config) as [Bucket, Limit | null][]) {
      if (!limit) continue;
      const duration = Math.max(1, Math.ceil(limit.windowMs / 1000));
      const keyPrefix = `${redisPrefix}:${bucket}`;
      const memory = new RateLimiterMemory({ points: limit.points, duration, keyPrefix });
      const limiter = this.redis
        ? new RateLimiterRedis({ storeClient: this.redis, points: limit.points, duration, keyPrefix, rejectIfRedisNotReady: true, insuranceLimiter: memory })
        : memory;
      this.limiters.set(bucket, { limit: { points: limit.points, windowMs: duration * 1000 }, limiter });
    }
  }

  has(bucket: Bucket): boolean {
    return this.limiters.has(bucket);
  }

  /** Spends `points` from the bucket's counter for `key`; a refused charge still counts (as every attempt does). */
  async consume(bucket: Bucket, key: string, points = 1): Promise<RateLimitState> {
    const entry = this.limiters.get(bucket);
    if (!entry) throw new Error(`no rate-limit bucket ${bucket}`);
    const { limit, limiter } = entry;
    const state = (res: RateLimiterRes, allowed: boolean): RateLimitState => ({
      allowed,
      limit: limit.points,
      remaining: Math.max(0, res.remainingPoints),
      reset: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
      windowSeconds: Math.round(limit.windowMs / 1000),
    });
    try {
      return state(await limiter.consume(key, points), true);
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return state(refusal, false);
      throw refusal;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis) await Promise.allSettled([this.redis.quit()]);
  }
}
