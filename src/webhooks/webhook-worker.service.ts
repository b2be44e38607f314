import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { MetricsService } from '../observability/metrics.service';
import { WebhookWorker, webhookOptionsFromEnv } from './webhook-worker';

/** Sends webhook deliveries every WEBHOOK_POLL_MS (default 1000; 0 disables it on this instance). */
@Injectable()
export class WebhookWorkerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  readonly worker: WebhookWorker;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(prisma: PrismaService, metrics: MetricsService) {
    this.worker = new WebhookWorker(prisma, { ...webhookOptionsFromEnv(), onOutcome: (outcome) => metrics.webhookDeliveries.inc({ outcome }) });
  }

  onApplicationBootstrap(): void {
    const every = Number(process.env.WEBHOOK_POLL_MS ?? 1000);
    if (!(every > 0)) return;
    this.timer = setInterval(() => void this.poll(), every);
    this.timer.unref();
  }

  poll(): Promise<unknown> {
    if (this.stopped) return Promise.resolve();
    if (!this.running) {
      this.running = this.worker
        .tick()
        .catch((err: unknown) => this.logger.warn(`webhook tick: ${(err as Error).message}`))
        .finally(() => (this.running = null));
    }
    return this.running;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
