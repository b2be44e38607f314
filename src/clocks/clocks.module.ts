import { Module } from '@nestjs/common';
import { StoreModule } from '../events/store.module';
import { ClockSchedulerService } from './clock-scheduler.service';

/** Turn clocks: the expiry scheduler (deadlines are written by the append trigger). */
@Module({
  imports: [StoreModule],
  providers: [ClockSchedulerService],
  exports: [ClockSchedulerService],
})
export class ClocksModule {}
