import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthModule } from '../auth/auth.module';
import { BearerAuthGuard } from '../auth/auth.guard';
import { MemoryRateLimitStore, RATE_LIMIT_CONFIG, RATE_LIMIT_STORE, RateLimitGuard, rateLimitConfig } from '../auth/throttle.guard';
import { AppGraphQLModule } from '../graphql/graphql.module';
import { PubSubModule } from '../graphql/pubsub';
import { MatchesModule } from '../matches/matches.module';
import { MatchesController } from '../matches/matches.controller';
import { MatchesResolver } from '../matches/matches.resolver';
import { RulesetsModule } from '../rulesets/rulesets.module';
import { MatchesApi } from './matches-api.service';
import { InboxModule } from '../inbox/inbox.module';
import { SeatsModule } from '../seats/seats.module';
import { RatingsModule } from '../ratings/ratings.module';

/**
 * The public API: GraphQL (/graphql, graphql-ws) and REST (/v1), two thin
 * transports over the same services. Guards run in order: authentication
 * (global, @Public() opts out), then rate limiting (keyed on the caller).
 */
@Module({
  imports: [PubSubModule, AuthModule, RulesetsModule, MatchesModule, AppGraphQLModule, InboxModule, SeatsModule, RatingsModule],
  controllers: [MatchesController],
  providers: [
    MatchesApi,
    MatchesResolver,
    { provide: RATE_LIMIT_STORE, useFactory: () => new MemoryRateLimitStore() },
    { provide: RATE_LIMIT_CONFIG, useFactory: () => rateLimitConfig() },
    { provide: APP_GUARD, useClass: BearerAuthGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
})
export class ApiModule {}
