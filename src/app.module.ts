import { VacationsModule } from './vacations/vacations.module';
import { Module } from '@nestjs/common';
import { AdminModule } from './admin/admin.module';
import { AnalysisModule } from './analysis/analysis.module';
import { ArchivesModule } from './archives/archives.module';
import { ChallengesModule } from './challenges/challenges.module';
import { ChatModule } from './chat/chat.module';
import { PresenceModule } from './presence/presence.module';
import { AuthModule } from './auth/auth.module';
import { ClocksModule } from './clocks/clocks.module';
import { ConfigModule } from './config/config.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { PushModule } from './push/push.module';
import { DatabaseModule } from './database/database.module';
import { AppGraphQLModule } from './graphql/graphql.module';
import { HealthModule } from './health/health.module';
import { JobsModule } from './jobs/jobs.module';
import { InboxModule } from './inbox/inbox.module';
import { LobbyModule } from './lobby/lobby.module';
import { MatchesModule } from './matches/matches.module';
import { ModerationModule } from './moderation/moderation.module';
import { OAuthModule } from './oauth/oauth.module';
import { ObservabilityModule } from './observability/observability.module';
import { ReactionsModule } from './reactions/reactions.module';
import { RealtimeModule } from './realtime/realtime.module';
import { RelationsModule } from './relations/relations.module';
import { RulesetsModule } from './rulesets/rulesets.module';
import { BotsModule } from './bots/bots.module';
import { StreamsModule } from './streams/streams.module';
import { TournamentsModule } from './tournaments/tournaments.module';
import { TeamsModule } from './teams/teams.module';

/**
 * Every module of the service, in order. The order of the controllers in openapi.yaml follows this one (health,
 * matches, auth, rulesets, inbox, hints, webhooks).
 */
export const APP_MODULES = [
  ConfigModule,
  ObservabilityModule,
  DatabaseModule,
  JobsModule,
  RealtimeModule,
  HealthModule,
  MatchesModule,
  AuthModule,
  AppGraphQLModule,
  RulesetsModule,
  InboxModule,
  BotsModule,
  ClocksModule,
  WebhooksModule,
  PushModule,
  ArchivesModule,
  LobbyModule,
  StreamsModule,
  OAuthModule,
  ChallengesModule,
  RelationsModule,
  TournamentsModule,
  TeamsModule,
  PresenceModule,
  ReactionsModule,
  AnalysisModule,
  AdminModule,
  ChatModule,
  ModerationModule,
  VacationsModule,
];

/**
 * The modules that only serve requests (the GraphQL server, the probes, the HTTP streams, the OAuth server mounted on
 * the HTTP adapter, the archives' reads and exports, the admin's REST, reports and moderation): the worker process (src/worker.module.ts)
 * leaves them out, and has every other.
 */
export const SERVING_MODULES: readonly (typeof APP_MODULES)[number][] = [
  AppGraphQLModule,
  HealthModule,
  StreamsModule,
  OAuthModule,
  ArchivesModule,
  AdminModule,
  ModerationModule,
];

@Module({ imports: APP_MODULES })
export class AppModule {}
