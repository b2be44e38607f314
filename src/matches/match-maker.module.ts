import { Module } from '@nestjs/common';
import { ClocksModule } from '../clocks/clocks.module';
import { StoreModule } from '../match-store/store.module';
import { RulesetsModule } from '../rulesets/rulesets.module';
import { BotsModule } from '../bots/bots.module';
import { RatedPlay } from '../ratings/rated-play';
import { MatchMaker } from './match-maker';

/** The one way a match is made (./match-maker.ts), for matches, challenges, seeks and rematches. */
@Module({
  imports: [StoreModule, ClocksModule, RulesetsModule, BotsModule],
  providers: [MatchMaker, RatedPlay],
  exports: [MatchMaker, RatedPlay],
})
export class MatchMakerModule {}
