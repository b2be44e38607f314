import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ClocksModule } from '../clocks/clocks.module';
import { StoreModule } from '../events/store.module';
import { InboxModule } from '../inbox/inbox.module';
import { RatingsModule } from '../ratings/ratings.module';
import { PresenceModule } from '../presence/presence.module';
import { RulesetsModule } from '../rulesets/rulesets.module';
import { SeatsModule } from '../seats/seats.module';
import { AfterAppend } from './after-append';
import { MatchesController } from './matches.controller';
import { MatchFieldsResolver, MatchSettingsResolver, MatchesResolver, SeatPresenceResolver, TurnNoticeResolver } from './matches.resolver';
import { MatchesService } from './matches.service';
import { RematchesService } from './rematches.service';

/** Matches: the REST controller and the GraphQL resolver, two thin transports over MatchesService; and the store's after-append pipeline. */
@Module({
  imports: [StoreModule, AuthModule, RulesetsModule, InboxModule, SeatsModule, RatingsModule, ClocksModule, PresenceModule],
  controllers: [MatchesController],
  providers: [MatchesService, RematchesService, MatchesResolver, MatchFieldsResolver, MatchSettingsResolver, TurnNoticeResolver, SeatPresenceResolver, AfterAppend],
  exports: [MatchesService, RematchesService],
})
export class MatchesModule {}
