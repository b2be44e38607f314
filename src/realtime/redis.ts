/**
 * The instance's one Redis (REDIS_URL, or the master of REDIS_SENTINEL_NAME
 * found through REDIS_SENTINELS), shared by everything that uses it:
 * the subscriptions' pub/sub (./realtime.ts), presence
 * (src/presence/presence.service.ts) and the rate limits' counters
 * (src/limits/rate-limits.ts). Two connections, because Redis allows no other
 * command on a connection in subscribe mode: `client` for every command and
 * publish, `subscriber` for the pub/sub's subscriptions. Without either
 * there is none (REDIS provides null) and each user keeps its state in
 * memory, for one instance.
 *
 * With Sentinel (docs/operations.md "Redis failover (Sentinel)"), ioredis
 * asks the Sentinels for the group's master at each (re)connect, checks the
 * role of the server it reaches, and drops the connection when Sentinel
 * announces a switch (failoverDetector), so both connections follow a
 * promotion without a restart. Redis pub/sub drops what is published while a
 * subscriber is away: `onResume` tells the live feeds when the subscriber
 * connection is back (resubscribed), so that they read what they missed from
 * the log (src/matches/live-feed.ts).
 */
import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { AppConfig } from '../config/config';
import type { SentinelAddress } from '../config/variables';

/** Where Redis is: one server by URL, or a Sentinel-monitored group. */
export type RedisTarget = { url: string } | { sentinels: readonly SentinelAddress[]; name: string };

/** The configured Redis, or null (memory mode). The config checks that at most one of the two is given (src/config/variables.ts). */
export function redisTarget(config: Pick<AppConfig, 'REDIS_URL' | 'REDIS_SENTINELS' | 'REDIS_SENTINEL_NAME'>): RedisTarget | null {
  if (config.REDIS_SENTINELS && config.REDIS_SENTINEL_NAME) return { sentinels: config.REDIS_SENTINELS, name: config.REDIS_SENTINEL_NAME };
  if (config.REDIS_URL) return { url: config.REDIS_URL };
  return null;
}

/** Whether this process shares Redis with the others (the notices then cross through it). */
export function hasRedis(config: Pick<AppConfig, 'REDIS_URL' | 'REDIS_SENTINELS' | 'REDIS_SENTINEL_NAME'>): boolean {
  return redisTarget(config) !== null;
}

/**
 * A replica answers writes with READONLY: met when a connection still reaches
 * a demoted master during a switch. Reconnect (asking Sentinel again) and
 * send the command again (2), instead of failing it.
 */
export function reconnectOnReadOnly(err: Error): 2 | false {
  return err.message.startsWith('READONLY') ? 2 : false;
}

export type ResumeListener = () => void;

export class RedisConnections {
  /** Commands and publishes. Those made in the same tick (a play's notices, presence's claims) share one write. */
  readonly client: Redis;
  /** The pub/sub's subscriptions only. */
  readonly subscriber: Redis;
  private readonly listeners = { client: new Set<ResumeListener>(), subscriber: new Set<ResumeListener>() };
  private closing = false;

  constructor(target: RedisTarget | string) {
    const where = typeof target === 'string' ? { url: target } : target;
    const options: RedisOptions = {
      // Keep retrying: a Redis restart (or a Sentinel switch) must not take the instance down with it.
      retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
      // A queued command fails once 3 more reconnects have failed (2 s after a loss, longer later): callers fail open or retry (see their files).
      maxRetriesPerRequest: 3,
      // Commands issued while reconnecting wait for the connection (bounded by maxRetriesPerRequest).
      enableOfflineQueue: true,
      reconnectOnError: reconnectOnReadOnly,
      lazyConnect: false,
    };
    const make = (extra: RedisOptions): Redis =>
      'url' in where
        ? new Redis(where.url, { ...options, ...extra })
        : new Redis({
            ...options,
            ...extra,
            sentinels: where.sentinels.map((s) => ({ host: s.host, port: s.port })),
            name: where.name,
            role: 'master',
            // Sentinel's +switch-master closes the connection at once, rather than when the old master stops answering.
            failoverDetector: true,
            // A master that died without a reset must not hold each reconnect for ioredis's default 10 s.
            connectTimeout: 2000,
          });
    this.client = make({ enableAutoPipelining: true });
    this.subscriber = make({});
    // Connection errors surface through readiness (ping) and retries, not as crashes.
    this.client.on('error', () => undefined);
    this.subscriber.on('error', () => undefined);
    this.watch(this.client, () => this.fire('client'));
    // The subscriber resubscribes its channels right after 'ready': a PING answered after them means they are in place again.
    this.watch(this.subscriber, () =>
      setImmediate(() =>
        this.subscriber.ping().then(
          () => this.fire('subscriber'),
          () => undefined, // lost again: the next 'ready' fires
        ),
      ),
    );
  }

  /**
   * `listener` runs each time the connection is back after a loss (not at the
   * first connect): for `subscriber`, once its subscriptions are in place
   * again, so that a log read then misses nothing published after it. Returns
   * the unsubscribe.
   */
  onResume(connection: 'client' | 'subscriber', listener: ResumeListener): () => void {
    this.listeners[connection].add(listener);
    return () => this.listeners[connection].delete(listener);
  }

  /** Resolves when Redis answers (readiness). */
  ping(): Promise<unknown> {
    return this.client.ping();
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([this.client.quit(), this.subscriber.quit()]);
  }

  private watch(connection: Redis, resumed: () => void): void {
    let lost = false;
    connection.on('close', () => {
      if (!this.closing) lost = true;
    });
    connection.on('ready', () => {
      if (!lost) return;
      lost = false;
      resumed();
    });
  }

  private fire(connection: 'client' | 'subscriber'): void {
    for (const listener of [...this.listeners[connection]]) {
      try {
        listener();
      } catch {
        // one listener's failure is its own
      }
    }
  }
}
