import { Global, Logger, Module } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { JobsConfig } from '../config/slices';
import { jobDatabase } from './job-database';
import { JobQueue } from './job-queue';
import { Scheduler } from './scheduler';
import { JobMetrics } from './job-metrics';
import { PgliteStatisticsService } from './pglite-statistics.service';

/** Starts the queue once every module has registered its handlers (onModuleInit), and stops it before the database closes. */
@Injectable()
class JobQueueLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(private readonly queue: JobQueue) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.stop();
  }
}

/**
 * Background work, one mechanism (docs/operations.md "Background work"): the
 * job queue every feature queues its lasting reactions on and registers its
 * handlers with (./job-queue.ts), and the scheduler that owns every periodic
 * task (./scheduler.ts). Global: every feature module may inject them.
 */
@Global()
@Module({
  providers: [
    {
      provide: JobQueue,
      inject: [PrismaService, JobsConfig],
      useFactory: (prisma: PrismaService, config: JobsConfig) => {
        const logger = new Logger('Jobs');
        return new JobQueue(
          jobDatabase(prisma.database),
          {
            workers: config.JOB_WORKERS > 0,
            pollingSeconds: config.JOB_POLL_SECONDS,
            // ANALYSIS_MAINTENANCE_SECONDS (deprecated) was the analyses' own queue's: the one queue takes the shorter.
            maintenanceSeconds: Math.min(config.JOB_MAINTENANCE_SECONDS, config.ANALYSIS_MAINTENANCE_SECONDS),
          },
          (err) => logger.warn(`job queue: ${(err as Error)?.message ?? String(err)}`),
        );
      },
    },
    JobQueueLifecycle,
    JobMetrics,
    Scheduler,
    PgliteStatisticsService,
  ],
  exports: [JobQueue, Scheduler],
})
export class JobsModule {}
