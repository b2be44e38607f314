import { Global, Inject, Module } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import type { PubSubEngine } from 'graphql-subscriptions';
import { AppConfig } from '../config/config';
import { createRealtime } from './realtime';
import type { FeedResumes, Realtime } from './realtime';
import { RedisConnections, redisTarget } from './redis';

/**
 * Injection token of the subscriptions' PubSubEngine: Redis-backed
 * (graphql-redis-subscriptions) when REDIS_URL or REDIS_SENTINELS is set, in-process otherwise;
 * the resolvers do not know which.
 */
export const PUB_SUB = 'PUB_SUB';
const REALTIME = 'REALTIME';

/** The instance's one Redis (./redis.ts): RedisConnections, or null without REDIS_URL or REDIS_SENTINELS. */
export const REDIS = Symbol('REDIS');

/** Resolves when Redis answers (readiness); provided as null without Redis. */
export const REDIS_PING = Symbol('REDIS_PING');
export type RedisPing = () => Promise<unknown>;

/** When the subscriber connection is back after a loss (./realtime.ts FeedResumes): the live feeds catch up from the log. */
export const FEED_RESUMES = Symbol('FEED_RESUMES');

export type { FeedResumes, PubSubEngine };

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      useFactory: (config: AppConfig) => {
        const target = redisTarget(config);
        return target ? new RedisConnections(target) : null;
      },
      inject: [AppConfig],
    },
    { provide: REALTIME, useFactory: (redis: RedisConnections | null): Realtime => createRealtime(redis), inject: [REDIS] },
    { provide: PUB_SUB, useFactory: (realtime: Realtime): PubSubEngine => realtime.pubsub, inject: [REALTIME] },
    { provide: REDIS_PING, useFactory: (realtime: Realtime) => realtime.ping ?? null, inject: [REALTIME] },
    { provide: FEED_RESUMES, useFactory: (realtime: Realtime): FeedResumes => realtime.resumes, inject: [REALTIME] },
  ],
  exports: [REDIS, PUB_SUB, REDIS_PING, FEED_RESUMES],
})
export class RealtimeModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: RedisConnections | null) {}

  /** After every module's onModuleDestroy (presence releases its claims there): the connections close last. */
  async onApplicationShutdown(): Promise<void> {
    await this.redis?.close();
  }
}
