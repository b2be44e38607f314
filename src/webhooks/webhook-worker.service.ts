import { Injectable, Logger } from '@nestjs/common';
import type { OnModuleInit } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { MetricsService } from '../observability/metrics.service';
import { WebhookWorker, webhookOptionsFromEnv } from './webhook-worker';
import type { DeliveryAttempt } from './webhook-worker';
import { AppConfig } from '../config/config';
import { JobQueue } from '../jobs/job-queue';
import { JOB_KINDS } from '../jobs/job-kinds';

/** Seconds an attempt may stay active beyond its request timeout before pg-boss takes it for dead and runs it again. */
const EXPIRY_MARGIN_SECONDS = 10;

/**
 * Delivers webhooks: the handler of the 'webhook-delivery' jobs (one attempt each, ./webhook-worker.ts). Its workers
 * run in a process with job workers, WEBHOOK_BATCH of them, each looking for due attempts every WEBHOOK_POLL_MS
 * (at least 500 ms); WEBHOOK_POLL_MS=0 keeps them off in this process (poll() still runs the due ones).
 */
@Injectable()
export class WebhookWorkerService implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');
  readonly worker: WebhookWorker;

  constructor(
    prisma: PrismaService,
    metrics: MetricsService,
    private readonly config: AppConfig,
    private readonly jobs: JobQueue,
  ) {
    this.worker = new WebhookWorker(prisma, { ...webhookOptionsFromEnv(config), onOutcome: (outcome) => metrics.webhookDeliveries.inc({ outcome }) }, jobs);
  }

  async onModuleInit(): Promise<void> {
    const pollMs = this.config.WEBHOOK_POLL_MS;
    const kind = JOB_KINDS['webhook-delivery'];
    await this.jobs.handle<DeliveryAttempt>(
      'webhook-delivery',
      async (job) => {
        await this.worker.attempt(job.data);
      },
      {
        workers: pollMs > 0,
        concurrency: this.config.WEBHOOK_BATCH,
        pollingSeconds: Math.max(0.5, pollMs / 1000),
        policy: { ...kind, expireInSeconds: Math.max(kind.expireInSeconds, Math.ceil(this.config.WEBHOOK_TIMEOUT_MS / 1000) + EXPIRY_MARGIN_SECONDS) },
      },
    );
  }

  /** Runs the attempts due now, here (tests drive delivery through it); errors are logged, the jobs stay queued. */
  async poll(): Promise<unknown> {
    try {
      return await this.worker.tick();
    } catch (err) {
      this.logger.warn(`webhook attempts: ${(err as Error)?.message ?? String(err)}`);
      return 0;
    }
  }
}
