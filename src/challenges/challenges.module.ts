import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ClocksModule } from '../clocks/clocks.module';
import { StoreModule } from '../events/store.module';
import { RulesetsModule } from '../rulesets/rulesets.module';
import { ChallengesController } from './challenges.controller';
import { ChallengesResolver } from './challenges.resolver';
import { ChallengesService } from './challenges.service';

/** Direct challenges (accept, decline, cancel, expiry) and the acceptChallenges account setting. */
@Module({
  imports: [StoreModule, AuthModule, RulesetsModule, ClocksModule],
  controllers: [ChallengesController],
  providers: [ChallengesService, ChallengesResolver],
  exports: [ChallengesService],
})
export class ChallengesModule {}
