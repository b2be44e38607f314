import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { StoreModule } from '../match-store/store.module';
import { MatchMakerModule } from '../matches/match-maker.module';
import { RulesetsModule } from '../rulesets/rulesets.module';
import { RatingsModule } from '../ratings/ratings.module';
import { TournamentTablesModule } from '../match-store/tournament-tables.module';
import { TeamsModule } from '../teams/teams.module';
import { TournamentsController } from './tournaments.controller';
import { TournamentFieldsResolver, TournamentsResolver } from './tournaments.resolver';
import { TournamentsService } from './tournaments.service';
import { TournamentSchedulerService } from './tournament-scheduler.service';
import { TournamentReactions } from './tournament-reactions';

/** Tournaments (docs/tournaments.md): the service, its scheduler, its jobs (results and rounds, ./tournament-reactions.ts), and two thin transports. */
@Module({
  imports: [AuthModule, StoreModule, MatchMakerModule, RulesetsModule, RatingsModule, TournamentTablesModule, TeamsModule],
  controllers: [TournamentsController],
  providers: [TournamentsService, TournamentSchedulerService, TournamentReactions, TournamentsResolver, TournamentFieldsResolver],
  exports: [TournamentsService, TournamentSchedulerService, TournamentReactions],
})
export class TournamentsModule {}
