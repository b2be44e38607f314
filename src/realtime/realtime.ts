/**
 * The subscriptions' transport. With REDIS_URL set, events fan out through
 * Redis pub/sub so that a subscriber on any instance sees every event of its
 * matches; without it, an in-process PubSub serves a single instance.
 */
import { PubSub } from 'graphql-subscriptions';
import type { PubSubEngine } from 'graphql-subscriptions';
import { RedisPubSub } from 'graphql-redis-subscriptions';
import { Redis } from 'ioredis';

export interface Realtime {
  readonly pubsub: PubSubEngine;
  /** Resolves when Redis answers (readiness); absent in memory mode. */
  readonly ping?: () => Promise<unknown>;
  close(): Promise<void>;
}

export function createRealtime(redisUrl: string | undefined = process.env.REDIS_URL): Realtime {
  if (!redisUrl) return { pubsub: new PubSub(), close: async () => undefined };
  const options = {
    // Keep retrying: a Redis restart must not take the instance down with it.
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
    maxRetriesPerRequest: 3,
    lazyConnect: false,
  };
  // Publishes made in the same tick (a play's match and turn notices, many plays under load) share one write.
  const publisher = new Redis(redisUrl, { ...options, enableAutoPipelining: true });
  const subscriber = new Redis(redisUrl, options);
  // Connection errors surface through readiness and retries, not as crashes.
  publisher.on('error', () => undefined);
  subscriber.on('error', () => undefined);
  return {
    pubsub: new RedisPubSub({ publisher, subscriber }),
    ping: () => publisher.ping(),
    close: async () => {
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
