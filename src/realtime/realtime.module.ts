import { Global, Inject, Module } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import type { PubSubEngine } from 'graphql-subscriptions';
import { AppConfig } from '../config/config';
import { createRealtime } from './realtime';
import type { Realtime } from './realtime';
import { RedisConnections } from './redis';

/**
 * Injection token of the subscriptions' PubSubEngine: Redis-backed
 * (graphql-redis-subscriptions) when REDIS_URL is set, in-process otherwise;
 * the resolvers do not know which.
 */
export const PUB_SUB = 'PUB_SUB';
const REALTIME = 'REALTIME';

/** The instance's one Redis (./redis.ts): RedisConnections, or null without REDIS_URL. */
export const REDIS = Symbol('REDIS');

/** Resolves when Redis answers (readiness); provided as null without REDIS_URL. */
export const REDIS_PING = Symbol('REDIS_PING');
export type RedisPing = () => Promise<unknown>;

export type { PubSubEngine };

@Global()
@Module({
  providers: [
    { provide: REDIS, useFactory: (config: AppConfig) => (config.REDIS_URL ? new RedisConnections(config.REDIS_URL) : null), inject: [AppConfig] },
    { provide: REALTIME, useFactory: (redis: RedisConnections | null): Realtime => createRealtime(redis), inject: [REDIS] },
    { provide: PUB_SUB, useFactory: (realtime: Realtime): PubSubEngine => realtime.pubsub, inject: [REALTIME] },
    { provide: REDIS_PING, useFactory: (realtime: Realtime) => realtime.ping ?? null, inject: [REALTIME] },
  ],
  exports: [REDIS, PUB_SUB, REDIS_PING],
})
export class RealtimeModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: RedisConnections | null) {}

  /** After every module's onModuleDestroy (presence releases its claims there): the connections close last. */
  async onApplicationShutdown(): Promise<void> {
    await this.redis?.close();
  }
}
