import { Module } from '@nestjs/common';
import { StoreModule } from '../match-store/store.module';
import { ClockSchedulerService } from './clock-scheduler.service';
import { PendingStarts } from './pending-starts';

/** Turn clocks (deadlines written by the append trigger) and pending starts waiting for client seeds: one scheduler for both. */
@Module({
  imports: [StoreModule],
  providers: [ClockSchedulerService, PendingStarts],
  exports: [ClockSchedulerService, PendingStarts],
})
export class ClocksModule {}
