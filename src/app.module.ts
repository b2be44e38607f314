import { Module } from '@nestjs/common';
import { ArchivesModule } from './archives/archives.module';
import { ChallengesModule } from './challenges/challenges.module';
import { PresenceModule } from './presence/presence.module';
import { AuthModule } from './auth/auth.module';
import { ClocksModule } from './clocks/clocks.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { DatabaseModule } from './database/database.module';
import { AppGraphQLModule } from './graphql/graphql.module';
import { HealthModule } from './health/health.module';
import { InboxModule } from './inbox/inbox.module';
import { LobbyModule } from './lobby/lobby.module';
import { MatchesModule } from './matches/matches.module';
import { OAuthModule } from './oauth/oauth.module';
import { ObservabilityModule } from './observability/observability.module';
import { RealtimeModule } from './realtime/realtime.module';
import { RulesetsModule } from './rulesets/rulesets.module';
import { SeatsModule } from './seats/seats.module';
import { StreamsModule } from './streams/streams.module';

@Module({
  // The order of the controllers in openapi.yaml follows this one (health, matches, auth, rulesets, inbox, hints, webhooks).
  imports: [
    ObservabilityModule,
    DatabaseModule,
    RealtimeModule,
    HealthModule,
    MatchesModule,
    AuthModule,
    AppGraphQLModule,
    RulesetsModule,
    InboxModule,
    SeatsModule,
    ClocksModule,
    WebhooksModule,
    ArchivesModule,
    LobbyModule,
    StreamsModule,
    OAuthModule,
    ChallengesModule,
    PresenceModule,
  ],
})
export class AppModule {}
