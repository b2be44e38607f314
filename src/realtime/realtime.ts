/**
 * The subscriptions' transport. With Redis (REDIS_URL set), events fan out
 * through Redis pub/sub so that a subscriber on any instance sees every event
 * of its matches; without it, an in-process PubSub serves a single instance.
 */
import { EventEmitter } from 'node:events';
import { PubSub } from 'graphql-subscriptions';
import type { PubSubEngine } from 'graphql-subscriptions';
import { RedisPubSub } from 'graphql-redis-subscriptions';
import type { RedisConnections } from './redis';

export interface Realtime {
  readonly pubsub: PubSubEngine;
  /** Resolves when Redis answers (readiness); absent in memory mode. */
  readonly ping?: () => Promise<unknown>;
}

export function createRealtime(redis: RedisConnections | null): Realtime {
  if (!redis) return { pubsub: new PubSub({ eventEmitter: unboundedEmitter() }) };
  return { pubsub: new RedisPubSub({ publisher: redis.client, subscriber: redis.subscriber }), ping: () => redis.ping() };
}

/**
 * The in-process PubSub's emitter. graphql-subscriptions adds one listener per
 * subscriber of a channel, and a match's seats and spectators or a lobby's
 * watchers are many: Node's default limit (10) logged a
 * MaxListenersExceededWarning that warns of nothing. The bound on listeners is
 * the subscription caps instead (WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT and the
 * connection limits, src/limits/subscription-caps.ts); over Redis each channel
 * is one Redis subscription per instance whatever the number of subscribers.
 */
function unboundedEmitter(): EventEmitter {
  return new EventEmitter().setMaxListeners(0);
}
