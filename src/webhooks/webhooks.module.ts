import { Module } from '@nestjs/common';
import { WebhookWorkerService } from './webhook-worker.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksResolver } from './webhooks.resolver';
import { WebhooksService } from './webhooks.service';

/** Webhooks: registration (REST + GraphQL) and the delivery worker. */
@Module({
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhooksResolver, WebhookWorkerService],
  exports: [WebhooksService, WebhookWorkerService],
})
export class WebhooksModule {}
