import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { TurnNotifier } from '../inbox/turn-notifier';
import { MatchesService } from '../matches/matches.service';
import { MetricsService } from '../observability/metrics.service';
import { ClockScheduler } from './clock-scheduler';

/**
 * Polls the turn clocks every CLOCK_POLL_MS (default 1000; 0 disables this
 * instance's scheduler) from application bootstrap to shutdown. The database
 * rows are the only record: a restart loses nothing.
 */
@Injectable()
export class ClockSchedulerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Clocks');
  readonly scheduler: ClockScheduler;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(prisma: PrismaService, store: MatchesService, notifier: TurnNotifier, metrics: MetricsService) {
    this.scheduler = new ClockScheduler(prisma, store, {
      batch: Number(process.env.CLOCK_BATCH ?? 20),
      leaseMs: Number(process.env.CLOCK_LEASE_MS ?? 30_000),
      onExpired: async (clock, result) => {
        metrics.clockExpiries.inc({ policy: clock.onExpiry });
        await notifier.publishQuietly(result);
      },
      onError: (clock, err) => this.logger.warn(`clock of ${clock.matchId}@${clock.seq}: ${(err as Error)?.message ?? String(err)}`),
    });
  }

  onApplicationBootstrap(): void {
    const every = Number(process.env.CLOCK_POLL_MS ?? 1000);
    if (!(every > 0)) return;
    this.timer = setInterval(() => void this.poll(), every);
    this.timer.unref();
  }

  /** One tick, unless one is under way. */
  poll(): Promise<unknown> {
    if (this.stopped) return Promise.resolve();
    if (!this.running) {
      this.running = this.scheduler
        .tick()
        .catch((err: unknown) => this.logger.warn(`clock tick: ${(err as Error).message}`))
        .finally(() => (this.running = null));
    }
    return this.running;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
