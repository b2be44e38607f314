import { Global, Inject, Module } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import type { PubSubEngine } from 'graphql-subscriptions';
import { createRealtime } from './realtime';
import type { Realtime } from './realtime';

/**
 * Injection token of the subscriptions' PubSubEngine: Redis-backed
 * (graphql-redis-subscriptions) when REDIS_URL is set, in-process otherwise;
 * the resolvers do not know which.
 */
export const PUB_SUB = 'PUB_SUB';
const REALTIME = 'REALTIME';

/** Resolves when Redis answers (readiness); provided as null without REDIS_URL. */
export const REDIS_PING = Symbol('REDIS_PING');
export type RedisPing = () => Promise<unknown>;

export type { PubSubEngine };

@Global()
@Module({
  providers: [
    { provide: REALTIME, useFactory: (): Realtime => createRealtime() },
    { provide: PUB_SUB, useFactory: (realtime: Realtime): PubSubEngine => realtime.pubsub, inject: [REALTIME] },
    { provide: REDIS_PING, useFactory: (realtime: Realtime) => realtime.ping ?? null, inject: [REALTIME] },
  ],
  exports: [PUB_SUB, REDIS_PING],
})
export class RealtimeModule implements OnApplicationShutdown {
  constructor(@Inject(REALTIME) private readonly realtime: Realtime) {}

  async onApplicationShutdown(): Promise<void> {
    await this.realtime.close();
  }
}
