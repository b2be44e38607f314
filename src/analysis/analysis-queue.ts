/**
 * The analysis jobs on pg-boss (a PostgreSQL job queue): the queue
 * `analysis` in schema `pgboss` of the service's own database, embedded or
 * PostgreSQL (./job-database.ts). A job is durable (a row), fetched by one
 * worker at a time (`FOR UPDATE SKIP LOCKED`), retried with exponential
 * back-off when its handler fails or when it stays active past its expiry
 * (a worker killed mid-job: pg-boss's maintenance, run by whichever process
 * gets to it first, fails it by timeout and the retry runs elsewhere).
 */
import PgBoss from 'pg-boss';
import type { JobDatabase } from '../jobs/job-database';

export const ANALYSIS_QUEUE = 'analysis';
/** The analyses of more than ANALYSIS_LARGE_DECISIONS decisions: workers of their own, so a long one never holds the short ones' (migration 20261201230000). */
export const ANALYSIS_LARGE_QUEUE = 'analysis-large';
export type AnalysisQueueName = typeof ANALYSIS_QUEUE | typeof ANALYSIS_LARGE_QUEUE;

export interface AnalysisQueueOptions {
  /** Retries after the first run (ANALYSIS_RETRY_LIMIT). */
  retryLimit: number;
  /** First retry delay, seconds; doubled (with jitter) at each retry (ANALYSIS_RETRY_DELAY_SECONDS). */
  retryDelaySeconds: number;
  /** A job still active after this is failed by timeout and retried (ANALYSIS_JOB_TIMEOUT_SECONDS). */
  expireSeconds: number;
  /** How often an idle worker looks for a job (ANALYSIS_POLL_SECONDS). */
  pollingSeconds: number;
  /** How often expired jobs are looked for (ANALYSIS_MAINTENANCE_SECONDS). */
  maintenanceSeconds: number;
}

export interface AnalysisJob {
  id: string;
  data: { analysisId: string };
  retryCount: number;
  retryLimit: number;
}

export class AnalysisQueue {
  private readonly boss: PgBoss;
  private readonly workers: { queue: AnalysisQueueName; id: string }[] = [];
  private started = false;
  private stopped = false;

  constructor(
    db: JobDatabase,
    private readonly options: AnalysisQueueOptions,
    onError: (err: unknown) => void = () => undefined,
  ) {
    // pg-boss completes or fails a job without awaiting it: a handler that ends after the stop (its job already given
    // back by the stop) would write to a database that may be closed by then, an unhandled rejection. After the stop
    // those late writes are dropped.
    const guarded: JobDatabase = { executeSql: (text, values) => (this.stopped ? Promise.resolve({ rows: [] }) : db.executeSql(text, values)) };
    // No cron (schedule: false); maintenance (supervise) on every process: pg-boss lets one run it per interval.
    this.boss = new PgBoss({
      db: guarded,
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceSeconds,
    } as PgBoss.ConstructorOptions);
    this.boss.on('error', onError);
  }

  async start(): Promise<void> {
    await this.boss.start();
    this.started = true;
    // The queues exist (migrations); their options follow this process's configuration.
    for (const name of [ANALYSIS_QUEUE, ANALYSIS_LARGE_QUEUE]) {
      await this.boss.updateQueue(name, {
        name,
        policy: 'standard',
        retryLimit: this.options.retryLimit,
        retryDelay: this.options.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: this.options.expireSeconds,
      } as PgBoss.Queue);
    }
  }

  /** Queues the job of an analysis on `queue`; the same job id again is a no-op while that job exists (pg-boss: ON CONFLICT DO NOTHING). */
  async send(jobId: string, analysisId: string, queue: AnalysisQueueName = ANALYSIS_QUEUE): Promise<void> {
    await this.boss.send(queue, { analysisId }, { id: jobId } as PgBoss.SendOptions);
    for (const w of this.workers) if (w.queue === queue) this.boss.notifyWorker(w.id);
  }

  /** `concurrency` workers of `queue` in this process, each running one job at a time. */
  async work(concurrency: number, handler: (job: AnalysisJob) => Promise<void>, queue: AnalysisQueueName = ANALYSIS_QUEUE): Promise<void> {
    for (let i = 0; i < concurrency; i++) {
      const id = await this.boss.work<{ analysisId: string }>(
        queue,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.options.pollingSeconds },
        async ([job]) => handler(job as unknown as AnalysisJob),
      );
      this.workers.push({ queue, id });
    }
  }

  /** The job's state (created, retry, active, completed, cancelled, failed), or null when pg-boss no longer has it. */
  async jobState(jobId: string): Promise<string | null> {
    for (const queue of [ANALYSIS_QUEUE, ANALYSIS_LARGE_QUEUE]) {
      const job = await this.boss.getJobById(queue, jobId);
      if (job) return job.state;
    }
    return null;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    // Not graceful: a running analysis is abandoned (its handler sees the stop) and its job retried after its expiry.
    await this.boss.stop({ graceful: false, close: false, wait: true, timeout: 5000 } as PgBoss.StopOptions);
    this.stopped = true;
  }
}
