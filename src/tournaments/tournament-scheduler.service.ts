import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Poller } from '../common/poller';
import { AppConfig } from '../config/config';
import { TournamentsService } from './tournaments.service';

/** The results sweep runs on the first tick and then once every this many ticks. */
export const RESULT_SWEEP_EVERY = 60;

/**
 * Durable scheduling of tournaments, on the clocks' cadence (CLOCK_POLL_MS;
 * 0 disables it on this instance): the rows are the record, so a restart
 * loses nothing.
 * - starts every tournament whose `startsAt` has come (a transition under the
 *   tournament's row lock: of two instances, one starts it and the other
 *   finds it started);
 * - now and then, records the results of tournament matches that ended
 *   while no instance recorded them (a crash right after the end): the
 *   after-append pipeline records every other one at once.
 */
@Injectable()
export class TournamentSchedulerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('TournamentScheduler');
  private readonly poller: Poller;
  private ticks = 0;

  constructor(
    private readonly tournaments: TournamentsService,
    private readonly config: AppConfig,
  ) {
    this.poller = new Poller('tournament tick', () => this.tick(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.poller.start(this.config.CLOCK_POLL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.poller.stop();
  }

  poll(): Promise<unknown> {
    return this.poller.poll();
  }

  /** One tick: the due starts, and every RESULT_SWEEP_EVERY ticks the results sweep. */
  async tick(): Promise<void> {
    for (const id of await this.tournaments.dueStarts()) {
      await this.tournaments.startDue(id).catch((err: unknown) => this.logger.warn(`start of tournament ${id}: ${(err as Error).message}`));
    }
    if (this.ticks++ % RESULT_SWEEP_EVERY === 0) await this.tournaments.sweepResults();
  }
}
