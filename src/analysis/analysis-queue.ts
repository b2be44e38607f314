/**
 * The analysis jobs on the service's one job queue (src/jobs/job-queue.ts,
 * pg-boss): the kinds `analysis` and `analysis-large` (src/jobs/job-kinds.ts),
 * with the retry policy of the ANALYSIS_* variables rather than the kinds'
 * defaults. A job is durable (a row), fetched by one worker at a time,
 * retried with exponential back-off when its handler fails or when it stays
 * active past its expiry (a worker killed mid-job: the queue's maintenance,
 * run by whichever process gets to it first, fails it by timeout and the
 * retry runs elsewhere).
 */
import type { JobQueue } from '../jobs/job-queue';
import type { JobPolicy } from '../jobs/job-kinds';

export const ANALYSIS_QUEUE = 'analysis';
/** The analyses of more than ANALYSIS_LARGE_DECISIONS decisions: workers of their own, so a long one never holds the short ones' (migration 20261201230000). */
export const ANALYSIS_LARGE_QUEUE = 'analysis-large';
export type AnalysisQueueName = typeof ANALYSIS_QUEUE | typeof ANALYSIS_LARGE_QUEUE;
const QUEUES: readonly AnalysisQueueName[] = [ANALYSIS_QUEUE, ANALYSIS_LARGE_QUEUE];

export interface AnalysisQueueOptions {
  /** Retries after the first run (ANALYSIS_RETRY_LIMIT), first retry delay (ANALYSIS_RETRY_DELAY_SECONDS), expiry (ANALYSIS_JOB_TIMEOUT_SECONDS). */
  policy: JobPolicy;
  /** How often an idle worker looks for a job (ANALYSIS_POLL_SECONDS). */
  pollingSeconds: number;
}

export interface AnalysisJob {
  id: string;
  data: { analysisId: string };
  retryCount: number;
  retryLimit: number;
}

export class AnalysisQueue {
  constructor(
    private readonly jobs: JobQueue,
    private readonly options: AnalysisQueueOptions,
  ) {}

  /**
   * Registers the handler of both kinds with this process's workers: `small` jobs of `analysis` and `large` of
   * `analysis-large` at a time (0: none here, whatever JOB_WORKERS says; the policy is set all the same, so that every
   * process sets the same one).
   */
  async work(handler: (job: AnalysisJob) => Promise<void>, workers: { small: number; large: number }): Promise<void> {
    const counts: Record<AnalysisQueueName, number> = { [ANALYSIS_QUEUE]: workers.small, [ANALYSIS_LARGE_QUEUE]: workers.large };
    for (const kind of QUEUES) {
      await this.jobs.handle<{ analysisId: string }>(kind, handler, {
        concurrency: counts[kind],
        workers: counts[kind] > 0,
        policy: this.options.policy,
        pollingSeconds: this.options.pollingSeconds,
      });
    }
  }

  /** Queues the job of an analysis on `queue`; the same job id again is a no-op while that job exists (pg-boss: ON CONFLICT DO NOTHING). */
  async send(jobId: string, analysisId: string, queue: AnalysisQueueName = ANALYSIS_QUEUE): Promise<void> {
    await this.jobs.send(queue, { analysisId }, { id: jobId });
  }

  /** The job's state (created, retry, active, completed, cancelled, failed), or null when pg-boss no longer has it. */
  async jobState(jobId: string): Promise<string | null> {
    for (const queue of QUEUES) {
      const state = await this.jobs.state(queue, jobId);
      if (state) return state;
    }
    return null;
  }
}
