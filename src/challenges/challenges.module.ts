import { VacationsModule } from '../vacations/vacations.module';
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { StoreModule } from '../match-store/store.module';
import { MatchMakerModule } from '../matches/match-maker.module';
import { RulesetsModule } from '../rulesets/rulesets.module';
import { RelationsModule } from '../relations/relations.module';
import { ChallengesController } from './challenges.controller';
import { ChallengesResolver } from './challenges.resolver';
import { ChallengesService } from './challenges.service';
import { ChallengesStore } from './challenges-store';

/** Direct challenges (accept, decline, cancel, expiry) and the acceptChallenges account setting. */
@Module({
  imports: [AuthModule, RulesetsModule, StoreModule, MatchMakerModule, RelationsModule, VacationsModule],
  controllers: [ChallengesController],
  providers: [ChallengesService, ChallengesStore, ChallengesResolver],
  exports: [ChallengesService],
})
export class ChallengesModule {}
