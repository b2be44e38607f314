import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RatingsModule } from '../ratings/ratings.module';
import { TeamsController } from './teams.controller';
import { TeamsResolver } from './teams.resolver';
import { TeamsService } from './teams.service';
import { TeamsStore } from './teams-store';

/** Teams (clubs, docs/social.md "Teams"): membership, requests, leaders; TeamsService tells other features who is in which team. */
@Module({
  imports: [AuthModule, RatingsModule],
  controllers: [TeamsController],
  providers: [TeamsService, TeamsStore, TeamsResolver],
  exports: [TeamsService],
})
export class TeamsModule {}
