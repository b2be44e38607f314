import { Inject, Injectable, SetMetadata } from '@nestjs/common';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { DomainError } from '../common/domain-error';
import type { Principal } from './principal';

/**
 * Rate limiting. (@nestjs/throttler 6.7 is CommonJS and requires the
 * ESM-only @nestjs/common 12, which jest's ESM mode on Node 20 cannot load:
 * this is the same fixed-window scheme, by hand.)
 */
export interface RateLimitConfig {
  /** Requests per window. */
  limit: number;
  windowMs: number;
}

export function rateLimitConfig(env: NodeJS.ProcessEnv = process.env): RateLimitConfig {
  const limit = Number(env.RATE_LIMIT ?? 600);
  const windowMs = Number(env.RATE_LIMIT_WINDOW_MS ?? 60_000);
  return { limit: limit > 0 ? limit : 600, windowMs: windowMs > 0 ? windowMs : 60_000 };
}

export interface RateLimitHit {
  count: number;
  /** Epoch ms when the window ends. */
  resetAt: number;
}

/** Counts hits per key and window; bound to RATE_LIMIT_STORE so that a shared store (Redis) can replace it. */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
}

export const RATE_LIMIT_STORE = 'RATE_LIMIT_STORE';
export const RATE_LIMIT_CONFIG = 'RATE_LIMIT_CONFIG';

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, RateLimitHit>();
  private sweeps = 0;

  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    if (++this.sweeps % 1000 === 0) for (const [k, v] of this.windows) if (v.resetAt <= now) this.windows.delete(k);
    return { ...w };
  }
}

export const SKIP_RATE_LIMIT = 'scopa:skipRateLimit';
export const SkipRateLimit = (): MethodDecorator & ClassDecorator => SetMetadata(SKIP_RATE_LIMIT, true);

/** Who is counted: each API token on its own, else the account, else the address. */
export function trackerOf(req: { user?: Principal; ip?: string; socket?: { remoteAddress?: string } }): string {
  if (req.user?.tokenId) return `token:${req.user.tokenId}`;
  if (req.user) return `account:${req.user.accountId}`;
  return `ip:${req.ip ?? req.socket?.remoteAddress ?? 'unknown'}`;
}

/**
 * Runs after authentication. REST responses carry RateLimit-Limit,
 * RateLimit-Remaining, RateLimit-Reset (seconds), and Retry-After on a 429;
 * a refusal is RATE_LIMITED with the same figures in the GraphQL extensions
 * and in the problem document.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(RATE_LIMIT_CONFIG) private readonly config: RateLimitConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(SKIP_RATE_LIMIT, [context.getHandler(), context.getClass()])) return true;
    let req: Record<string, any>;
    let res: Record<string, any> | undefined;
    if (context.getType<string>() === 'graphql') {
      const ctx = GqlExecutionContext.create(context).getContext();
      // One GraphQL request counts once, however many fields it selects.
      if (ctx.rateLimited) return true;
      ctx.rateLimited = true;
      req = ctx.req ?? {};
      res = ctx.res;
    } else {
      req = context.switchToHttp().getRequest();
      res = context.switchToHttp().getResponse();
    }
    const { limit, windowMs } = this.config;
    const hit = await this.store.hit(trackerOf(req), windowMs);
    const reset = Math.max(0, Math.ceil((hit.resetAt - Date.now()) / 1000));
    const remaining = Math.max(0, limit - hit.count);
    if (res && typeof res.setHeader === 'function' && !res.headersSent) {
      res.setHeader('RateLimit-Limit', String(limit));
      res.setHeader('RateLimit-Remaining', String(remaining));
      res.setHeader('RateLimit-Reset', String(reset));
      res.setHeader('RateLimit-Policy', `${limit};w=${Math.round(windowMs / 1000)}`);
    }
    if (hit.count > limit) {
      const retryAfter = Math.max(1, reset);
      throw new DomainError('RATE_LIMITED', `rate limit of ${limit} requests per ${Math.round(windowMs / 1000)} s exceeded; retry in ${retryAfter} s`, {
        limit,
        remaining: 0,
        reset,
        retryAfter,
        windowSeconds: Math.round(windowMs / 1000),
      });
    }
    return true;
  }
}
