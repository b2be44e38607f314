import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { MatchStore } from '../match-store/match-store';
import { MetricsService } from '../observability/metrics.service';
import { ClockScheduler } from './clock-scheduler';
import { Poller } from '../common/poller';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';
import { ClockLowNotifier } from './clock-low';
import { AppConfig } from '../config/config';

/**
 * Polls the turn clocks (and the pending starts, ./pending-starts.ts) every CLOCK_POLL_MS (default 1000; 0 disables this
 * instance's scheduler) from application bootstrap to shutdown. The database
 * rows are the only record: a restart loses nothing.
 */
@Injectable()
export class ClockSchedulerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Clocks');
  readonly scheduler: ClockScheduler;
  /** The clockLow notices (./clock-low.ts), on the same poll. */
  readonly clockLow: ClockLowNotifier;
  private readonly poller: Poller;

  private readonly pollMs: number;

  constructor(prisma: PrismaService, store: MatchStore, metrics: MetricsService, @Inject(PUB_SUB) pubsub: PubSubEngine, config: AppConfig) {
    this.pollMs = config.CLOCK_POLL_MS;
    this.clockLow = new ClockLowNotifier(prisma, pubsub, config.CLOCK_LOW_FRACTION);
    this.scheduler = new ClockScheduler(prisma, store, {
      batch: config.CLOCK_BATCH,
      leaseMs: config.CLOCK_LEASE_MS,
      onExpired: async (clock, result) => {
        if (clock.kind === 'turn') metrics.clockExpiries.inc({ policy: clock.onExpiry });
        // Notices and bot replies follow every append (src/reactions/after-append.ts); the tick waits for them.
        await store.settled(result);
      },
      onError: (clock, err) =>
        this.logger.warn(`${clock.kind === 'start' ? 'pending start' : 'clock'} of ${clock.matchId}@${clock.seq}: ${(err as Error)?.message ?? String(err)}`),
    });
    this.poller = new Poller('clock tick', () => Promise.all([this.scheduler.tick(), this.clockLow.tick()]), this.logger);
  }

  onApplicationBootstrap(): void {
    this.poller.start(this.pollMs);
  }

  /** One tick, unless one is under way. */
  poll(): Promise<unknown> {
    return this.poller.poll();
  }

  onModuleDestroy(): Promise<void> {
    return this.poller.stop();
  }
}
