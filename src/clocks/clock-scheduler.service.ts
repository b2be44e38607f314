import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { MatchStore } from '../match-store/match-store';
import { MetricsService } from '../observability/metrics.service';
import { ClockScheduler } from './clock-scheduler';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';
import { ClockLowNotifier } from './clock-low';
import { AppConfig } from '../config/config';
import { JobQueue } from '../jobs/job-queue';
import { Scheduler } from '../jobs/scheduler';
import type { PeriodicTask } from '../jobs/scheduler';

/** 'match-deadline' jobs this process runs at once (an expiry may wait for the bot replies it makes due). */
const DEADLINE_WORKERS = 2;

/**
 * The turn clocks and pending starts (./clock-scheduler.ts) on the job queue, and the clockLow notices
 * (./clock-low.ts): one periodic task, 'clock deadlines', every CLOCK_POLL_MS (default 1000; 0 disables it on this
 * instance, and this instance's deadline workers with it) from application bootstrap to shutdown. A tick queues the
 * deadlines due within the lookahead (twice the period) as jobs starting at their deadline, runs those already due,
 * and sends the clockLow notices (ephemeral, in process). This process's workers are woken at each deadline it
 * queued (ClockScheduler.sweep); their poll (JOB_POLL_SECONDS) finds the jobs of a process that stopped before
 * then. The rows and the jobs are the only record: a restart loses nothing.
 */
@Injectable()
export class ClockSchedulerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Clocks');
  readonly scheduler: ClockScheduler;
  /** The clockLow notices (./clock-low.ts), on the same task. */
  readonly clockLow: ClockLowNotifier;
  private readonly task: PeriodicTask;

  private readonly pollMs: number;

  constructor(
    prisma: PrismaService,
    store: MatchStore,
    metrics: MetricsService,
    @Inject(PUB_SUB) pubsub: PubSubEngine,
    config: AppConfig,
    jobs: JobQueue,
    tasks: Scheduler,
  ) {
    this.pollMs = config.CLOCK_POLL_MS;
    this.clockLow = new ClockLowNotifier(prisma, pubsub, config.CLOCK_LOW_FRACTION);
    this.scheduler = new ClockScheduler(prisma, store, {
      jobs,
      batch: config.CLOCK_BATCH,
      lookaheadMs: Math.max(2 * this.pollMs, 2000),
      workers: this.pollMs > 0 ? DEADLINE_WORKERS : 0,
      expireMs: config.CLOCK_LEASE_MS,
      onExpired: async (clock, result) => {
        if (clock.kind === 'turn') metrics.clockExpiries.inc({ policy: clock.onExpiry });
        // Notices and bot replies follow every append (src/reactions/after-append.ts); the job waits for them.
        await store.settled(result);
      },
      onError: (clock, err) =>
        this.logger.warn(`${clock.kind === 'start' ? 'pending start' : 'clock'} of ${clock.matchId}@${clock.seq}: ${(err as Error)?.message ?? String(err)}`),
    });
    this.task = tasks.task('clock deadlines', () => Promise.all([this.scheduler.sweep(), this.clockLow.tick()]));
  }

  onApplicationBootstrap(): void {
    this.task.start(this.pollMs);
  }

  /** One tick, unless one is under way. */
  poll(): Promise<unknown> {
    return this.task.poll();
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }
}
