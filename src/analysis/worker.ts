/**
 * `npm run worker`: an analysis worker process alone (docs/analysis.md). The
 * same queue and the same job code as the service's own workers
 * (ANALYSIS_WORKERS), on its own DATABASE_URL: any number of these, on any
 * machines, share the queue with the service instances (pg-boss hands each
 * job to one of them). It serves no HTTP. Its progress and analysisReady
 * reach the subscribers of every instance: through Redis with REDIS_URL,
 * through PostgreSQL's NOTIFY without (./analysis-notices.ts). It runs
 * ANALYSIS_WORKERS jobs at a time (at least 1) and ANALYSIS_LARGE_WORKERS
 * large ones.
 *
 * It needs PostgreSQL: the embedded database belongs to the one process that
 * opened its folder, where the service's own workers run the jobs.
 * SIGTERM/SIGINT: the running analysis gives up at its next decision and its
 * job is failed back to the queue (retried at once elsewhere or later).
 */
import { appConfig } from '../config/config';
import { databaseOptionsFromEnv, openDatabase } from '../database/database';
import { MatchStore } from '../match-store/match-store';
import { createRealtime } from '../realtime/realtime';
import { RedisConnections } from '../realtime/redis';
import { analysisQueueOptions } from './analysis-config';
import { ANALYSIS_LARGE_QUEUE, ANALYSIS_QUEUE, AnalysisQueue } from './analysis-queue';
import { analysisNotices } from './analysis-notices';
import { AnalysisRunner } from './analysis-runner';
import { jobDatabase } from '../jobs/job-database';

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
  const notices = analysisNotices(db, config.REDIS_URL, pubsub, false);
  const runner = new AnalysisRunner(db.prisma, new MatchStore(db.prisma, { appendsInFlight: config.APPEND_IN_FLIGHT }), notices.publisher, out);
  const queue = new AnalysisQueue(jobDatabase(db), analysisQueueOptions(config), (err) =>
    process.stderr.write(`job queue: ${(err as Error)?.message ?? String(err)}\n`),
  );
  await queue.start();
  const concurrency = Math.max(1, config.ANALYSIS_WORKERS);
  await queue.work(concurrency, (job) => runner.run(job), ANALYSIS_QUEUE);
  await queue.work(config.ANALYSIS_LARGE_WORKERS, (job) => runner.run(job), ANALYSIS_LARGE_QUEUE);
  out(`analysis worker ${runner.name} ready (${concurrency} at a time, ${config.ANALYSIS_LARGE_WORKERS} large)`);
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
