/**
 * `npm run worker`: an analysis worker process alone (docs/analysis.md). The
 * same queue and the same job code as the service's own workers
 * (ANALYSIS_WORKERS), on its own DATABASE_URL: any number of these, on any
 * machines, share the queue with the service instances (pg-boss hands each
 * job to one of them). It serves no HTTP. With REDIS_URL its progress
 * reaches the subscribers of every instance; without, the instances read it
 * from the analysis row.
 *
 * It needs PostgreSQL: the embedded database belongs to the one process that
 * opened its folder, where the service's own workers run the jobs.
 * SIGTERM/SIGINT: the running analysis gives up at its next decision and its
 * job is failed back to the queue (retried at once elsewhere or later).
 */
import { appConfig } from '../config/config';
import { databaseOptionsFromEnv, openDatabase } from '../database/database';
import { MatchStore } from '../events/match-store';
import { createRealtime } from '../realtime/realtime';
import { RedisConnections } from '../realtime/redis';
import { analysisQueueOptions } from './analysis-config';
import { AnalysisQueue } from './analysis-queue';
import { AnalysisRunner } from './analysis-runner';
import { jobDatabase } from './job-database';

async function main(): Promise<void> {
  const config = appConfig();
  if (!config.DATABASE_URL) {
    process.stderr.write('npm run worker needs DATABASE_URL (PostgreSQL): on the embedded database the service runs the analyses itself (ANALYSIS_WORKERS)\n');
    process.exit(2);
  }
  const db = await openDatabase(databaseOptionsFromEnv(config));
  const redis = config.REDIS_URL ? new RedisConnections(config.REDIS_URL) : null;
  const { pubsub } = createRealtime(redis);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const runner = new AnalysisRunner(db.prisma, new MatchStore(db.prisma), pubsub, out);
  const queue = new AnalysisQueue(jobDatabase(db), analysisQueueOptions(config), (err) => process.stderr.write(`job queue: ${(err as Error)?.message ?? String(err)}\n`));
  await queue.start();
  const concurrency = Math.max(1, config.ANALYSIS_WORKERS);
  await queue.work(concurrency, (job) => runner.run(job));
  out(`analysis worker ${runner.name} ready (${concurrency} at a time)`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    runner.stop();
    await queue.stop();
    await redis?.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err: unknown) => {
  process.stderr.write(`analysis worker: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
