/**
 * The instance's one Redis (REDIS_URL), shared by everything that uses it:
 * the subscriptions' pub/sub (./realtime.ts), presence
 * (src/presence/presence.service.ts) and the rate limits' counters
 * (src/limits/rate-limits.ts). Two connections, because Redis allows no other
 * command on a connection in subscribe mode: `client` for every command and
 * publish, `subscriber` for the pub/sub's subscriptions. Without REDIS_URL
 * there is none (REDIS provides null) and each user keeps its state in
 * memory, for one instance.
 */
import { Redis } from 'ioredis';

export class RedisConnections {
  /** Commands and publishes. Those made in the same tick (a play's notices, presence's claims) share one write. */
  readonly client: Redis;
  /** The pub/sub's subscriptions only. */
  readonly subscriber: Redis;

  constructor(url: string) {
    const options = {
      // Keep retrying: a Redis restart must not take the instance down with it.
      retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
      maxRetriesPerRequest: 3,
      lazyConnect: false,
    };
    this.client = new Redis(url, { ...options, enableAutoPipelining: true });
    this.subscriber = new Redis(url, options);
    // Connection errors surface through readiness (ping) and retries, not as crashes.
    this.client.on('error', () => undefined);
    this.subscriber.on('error', () => undefined);
  }

  /** Resolves when Redis answers (readiness). */
  ping(): Promise<unknown> {
    return this.client.ping();
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.client.quit(), this.subscriber.quit()]);
  }
}
