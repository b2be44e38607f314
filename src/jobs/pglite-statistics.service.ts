/**
 * The planner's statistics for the embedded database. PGlite runs PostgreSQL
 * in one process without autovacuum's workers, so it never gathers them by
 * itself (pg_class.reltuples stays -1 however many rows a table holds).
 * Without them the planner guesses a few rows per player and per match: a
 * player's archive then sorts all of their matches for every page, and reads
 * the events of a page by scanning every event. So on PGlite this runs
 * ANALYZE once the service has started, then every PGLITE_ANALYZE_MS
 * (default an hour; 0: never). On PostgreSQL autovacuum does it.
 * A periodic task of the one scheduler (./scheduler.ts): here, beside it,
 * because src/database may not import src/jobs (src/jobs imports it).
 */
import { Injectable } from '@nestjs/common';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { PrismaService } from '../database/prisma.service';
import { Scheduler } from './scheduler';
import type { PeriodicTask } from './scheduler';

@Injectable()
export class PgliteStatisticsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly task: PeriodicTask;
  private readonly everyMs: number;

  constructor(
    private readonly prisma: PrismaService,
    config: AppConfig,
    scheduler: Scheduler,
  ) {
    this.everyMs = config.PGLITE_ANALYZE_MS;
    this.task = scheduler.task('ANALYZE', () => this.prisma.database.rows('ANALYZE', []));
  }

  onApplicationBootstrap(): void {
    if (this.prisma.database.kind !== 'pglite' || !(this.everyMs > 0)) return;
    void this.task.poll();
    this.task.start(this.everyMs);
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }
}
