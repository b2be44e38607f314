import { Module } from '@nestjs/common';
import { InboxModule } from '../inbox/inbox.module';
import { MatchesModule } from '../matches/matches.module';
import { ClockSchedulerService } from './clock-scheduler.service';

/** Turn clocks: the expiry scheduler (deadlines are written by the append trigger). */
@Module({
  imports: [MatchesModule, InboxModule],
  providers: [ClockSchedulerService],
  exports: [ClockSchedulerService],
})
export class ClocksModule {}
