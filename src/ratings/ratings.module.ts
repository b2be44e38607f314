import { VacationsModule } from '../vacations/vacations.module';
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { StoreModule } from '../match-store/store.module';
import { RatingsController } from './ratings.controller';
import { RatingsRecorder } from './ratings-recorder.service';
import { RatingsResolver } from './ratings.resolver';
import { RatingsService } from './ratings.service';

/** Glicko-2 ratings of rated matches (a projection of their logs), profiles, leaderboards, crosstables. */
@Module({
  imports: [StoreModule, AuthModule, VacationsModule],
  controllers: [RatingsController],
  providers: [RatingsService, RatingsRecorder, RatingsResolver],
  exports: [RatingsService, RatingsRecorder],
})
export class RatingsModule {}
