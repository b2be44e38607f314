import { VacationsModule } from '../vacations/vacations.module';
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ClocksModule } from '../clocks/clocks.module';
import { StoreModule } from '../match-store/store.module';
import { InboxModule } from '../inbox/inbox.module';
import { RatingsModule } from '../ratings/ratings.module';
import { PresenceModule } from '../presence/presence.module';
import { RelationsModule } from '../relations/relations.module';
import { RulesetsModule } from '../rulesets/rulesets.module';
import { BotsModule } from '../bots/bots.module';
import { MatchMakerModule } from './match-maker.module';
import { TournamentTablesModule } from '../match-store/tournament-tables.module';
import { MatchesController } from './matches.controller';
import { MatchFieldsResolver, MatchSettingsResolver, MatchesResolver, SeatPresenceResolver, TurnNoticeResolver } from './matches.resolver';
import { MatchesService } from './matches.service';
import { RematchesService } from './rematches.service';
import { RematchesStore } from './rematches-store';

/** Matches: the REST controller and the GraphQL resolver, two thin transports over MatchesService (what follows an append: src/reactions/after-append.ts). */
@Module({
  imports: [
    StoreModule,
    AuthModule,
    RulesetsModule,
    InboxModule,
    BotsModule,
    RatingsModule,
    ClocksModule,
    PresenceModule,
    MatchMakerModule,
    TournamentTablesModule,
    RelationsModule,
    VacationsModule,
  ],
  controllers: [MatchesController],
  providers: [
    MatchesService,
    RematchesService,
    RematchesStore,
    MatchesResolver,
    MatchFieldsResolver,
    MatchSettingsResolver,
    TurnNoticeResolver,
    SeatPresenceResolver,
  ],
  exports: [MatchesService, RematchesService],
})
export class MatchesModule {}
