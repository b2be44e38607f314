import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module';
import { RatingsController } from './ratings.controller';
import { RatingsRecorder } from './ratings-recorder.service';
import { MatchRatingChangesResolver, MatchSettingsRatedResolver, RatingsResolver } from './ratings.resolver';
import { RatingsService } from './ratings.service';

/** Glicko-2 ratings of rated matches (a projection of their logs), profiles, leaderboards, crosstables. */
@Module({
  imports: [MatchesModule],
  controllers: [RatingsController],
  providers: [RatingsService, RatingsRecorder, RatingsResolver, MatchRatingChangesResolver, MatchSettingsRatedResolver],
  exports: [RatingsService, RatingsRecorder],
})
export class RatingsModule {}
