import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Scheduler } from '../jobs/scheduler';
import type { PeriodicTask } from '../jobs/scheduler';
import { AppConfig } from '../config/config';
import { TournamentsService } from './tournaments.service';

/**
 * Durable scheduling of tournaments, on the clocks' cadence (CLOCK_POLL_MS;
 * 0 disables it on this instance): the rows are the record, so a restart
 * loses nothing. It starts every tournament whose `startsAt` has come (a transition under
 * the tournament's row lock: of two instances, one starts it and the other
 * finds it started). Results and rounds need no sweep: each is a job
 * committed with what causes it (./tournament-reactions.ts).
 * A periodic task of the one scheduler (src/jobs/scheduler.ts).
 */
@Injectable()
export class TournamentSchedulerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('TournamentScheduler');
  private readonly task: PeriodicTask;

  constructor(
    private readonly tournaments: TournamentsService,
    private readonly config: AppConfig,
    scheduler: Scheduler,
  ) {
    this.task = scheduler.task('tournaments due', () => this.tick());
  }

  onApplicationBootstrap(): void {
    this.task.start(this.config.CLOCK_POLL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  poll(): Promise<unknown> {
    return this.task.poll();
  }

  /** One tick: the due starts. */
  async tick(): Promise<void> {
    for (const id of await this.tournaments.dueStarts()) {
      await this.tournaments.startDue(id).catch((err: unknown) => this.logger.warn(`start of tournament ${id}: ${(err as Error).message}`));
    }
  }
}
