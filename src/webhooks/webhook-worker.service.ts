import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { MetricsService } from '../observability/metrics.service';
import { WebhookWorker, webhookOptionsFromEnv } from './webhook-worker';
import { Poller } from '../common/poller';
import { AppConfig } from '../config/config';

/** Sends webhook deliveries every WEBHOOK_POLL_MS (default 1000; 0 disables it on this instance). */
@Injectable()
export class WebhookWorkerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  readonly worker: WebhookWorker;
  private readonly poller: Poller;

  private readonly pollMs: number;

  constructor(prisma: PrismaService, metrics: MetricsService, config: AppConfig) {
    this.pollMs = config.WEBHOOK_POLL_MS;
    this.worker = new WebhookWorker(prisma, { ...webhookOptionsFromEnv(config), onOutcome: (outcome) => metrics.webhookDeliveries.inc({ outcome }) });
    this.poller = new Poller('webhook tick', () => this.worker.tick(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.poller.start(this.pollMs);
  }

  poll(): Promise<unknown> {
    return this.poller.poll();
  }

  onModuleDestroy(): Promise<void> {
    return this.poller.stop();
  }
}
