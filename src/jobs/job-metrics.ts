/**
 * The job queue on /metrics: per kind, read from the queue at scrape time
 * (every process sees the whole queue, so any instance's figures do), the
 * jobs waiting, running and failed for good, and how long the oldest due job
 * has waited; and this process's failed runs, split into retries and
 * failures for good.
 */
import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { MetricsService } from '../observability/metrics.service';
import { JobQueue } from './job-queue';
import type { QueueStats } from './job-queue';

@Injectable()
export class JobMetrics {
  constructor(metrics: MetricsService, jobs: JobQueue) {
    const registers = [metrics.registry];
    const gauge = (name: string, help: string, pick: (s: QueueStats) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['kind'] as const,
        registers,
        async collect() {
          for (const s of await jobs.stats()) this.set({ kind: s.kind }, pick(s));
        },
      });
    gauge('scopa_jobs_waiting', 'Jobs waiting to run (due or not), by kind', (s) => s.waiting);
    gauge('scopa_jobs_active', 'Jobs running, by kind', (s) => s.active);
    gauge('scopa_jobs_failed', 'Jobs failed for good and kept (the dead letters), by kind', (s) => s.failed);
    gauge('scopa_jobs_oldest_waiting_seconds', 'How long the oldest due waiting job has waited, by kind', (s) => s.oldestWaitingSeconds);
    const retries = new Counter({
      name: 'scopa_job_retries_total',
      help: 'Failed runs of a job in this process that will be retried, by kind',
      labelNames: ['kind'] as const,
      registers,
    });
    const failures = new Counter({
      name: 'scopa_job_failures_total',
      help: 'Failed runs of a job in this process after which it is failed for good, by kind',
      labelNames: ['kind'] as const,
      registers,
    });
    jobs.onJobFailed((kind, willRetry) => (willRetry ? retries : failures).inc({ kind }));
  }
}
