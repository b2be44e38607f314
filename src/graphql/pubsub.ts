import { Global, Module } from '@nestjs/common';
import { PubSub } from 'graphql-subscriptions';
import type { PubSubEngine } from 'graphql-subscriptions';

/**
 * Injection token of the subscriptions' PubSubEngine. In-process for now;
 * a Redis-backed engine (graphql-redis-subscriptions) can be bound to the
 * same token without touching the resolvers.
 */
export const PUB_SUB = 'PUB_SUB';

export type { PubSubEngine };

@Global()
@Module({
  providers: [{ provide: PUB_SUB, useFactory: (): PubSubEngine => new PubSub() }],
  exports: [PUB_SUB],
})
export class PubSubModule {}
