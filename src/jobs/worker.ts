/**
 * `npm run worker`: a worker process alone (docs/operations.md "Background
 * work"). A Nest application context of the service's own modules and
 * configuration, those that only serve requests left out
 * (src/worker.module.ts): it works every kind of job of the one queue
 * (./job-kinds.ts: ratings, tournament results and rounds, deadlines, webhook
 * deliveries, analyses) with the service's handlers and options, and runs the
 * same periodic tasks (./scheduler.ts). Any number of these, on any
 * machines, share the queue with the service instances (pg-boss hands each
 * job to one of them). It serves no HTTP. Analyses: ANALYSIS_WORKERS at a
 * time (at least 1) and ANALYSIS_LARGE_WORKERS large ones; their progress and
 * analysisReady reach every instance through Redis with REDIS_URL, through
 * PostgreSQL's NOTIFY without (src/analysis/analysis-notices.ts).
 *
 * It needs PostgreSQL: the embedded database belongs to the one process that
 * opened its folder, where the service's own workers run the jobs.
 * SIGTERM/SIGINT close the application: the periodic tasks stop, a running
 * analysis gives up at its next decision, and the jobs under way go back to
 * the queue (retried elsewhere or later: every handler is idempotent).
 */
import 'reflect-metadata';
import { hostname } from 'node:os';
import { NestFactory } from '@nestjs/core';
import { appConfig, ConfigError } from '../config/config';
import { BootLogger, nestLogLevels } from '../observability/boot-logger';
import { logLevel } from '../observability/observability.module';
import { WorkerModule } from '../worker.module';
import { JobQueue } from './job-queue';
import { Scheduler } from './scheduler';

async function main(): Promise<void> {
  const config = appConfig(); // a bad value of any variable stops the start here, naming it
  if (!config.DATABASE_URL) {
    process.stderr.write('npm run worker needs DATABASE_URL (PostgreSQL): on the embedded database the service runs every job itself\n');
    process.exit(2);
  }
  if (config.JOB_WORKERS === 0) {
    process.stderr.write('npm run worker with JOB_WORKERS=0 would work no job but analyses: unset it, or set it to 1\n');
    process.exit(2);
  }
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const notes: string[] = [];
  const logger = new BootLogger({ logLevels: nestLogLevels(logLevel(config)) });
  const app = await NestFactory.createApplicationContext(WorkerModule.of({ out, note: (what) => notes.push(what) }), { logger });
  const kinds = app.get(JobQueue).working();
  const tasks = app.get(Scheduler).names();
  out(`job worker ${hostname()}:${process.pid} ready (kinds: ${kinds.join(', ')}; periodic tasks: ${tasks.join(', ')}${notes.map((n) => `; ${n}`).join('')})`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err: unknown) => {
  // A bad variable: its message says which and what it accepts; the stack would only bury it.
  process.stderr.write(`job worker: ${err instanceof ConfigError ? err.message : ((err as Error)?.stack ?? String(err))}\n`);
  process.exit(1);
});
