import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Caller, RequireScope, WEBHOOK_WRITE, PROFILE_READ } from '../common/principal';
import type { Principal } from '../common/principal';
import { CreateWebhookInput, CreatedWebhookModel, WebhookDeliveryModel, WebhookModel } from './webhook.model';
import { WebhooksService } from './webhooks.service';

@Resolver()
export class WebhooksResolver {
  constructor(private readonly service: WebhooksService) {}

  @RequireScope(WEBHOOK_WRITE)
  @Mutation(() => CreatedWebhookModel, { description: 'Register a webhook URL for my events; the signing secret is returned this once.' })
  createWebhook(@Caller() caller: Principal, @Args('input') input: CreateWebhookInput): Promise<CreatedWebhookModel> {
    return this.service.create(caller, input.url, input.events);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => [WebhookModel], { description: 'My webhooks (without their secrets).' })
  webhooks(@Caller() caller: Principal): Promise<WebhookModel[]> {
    return this.service.list(caller);
  }

  @RequireScope(WEBHOOK_WRITE)
  @Mutation(() => Boolean, { description: 'Remove one of my webhooks (and its deliveries).' })
  deleteWebhook(@Caller() caller: Principal, @Args('id', { type: () => ID }) id: string): Promise<boolean> {
    return this.service.delete(caller, id);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => [WebhookDeliveryModel], { description: 'Deliveries of my webhooks (or of one), newest first, with status and attempts.' })
  webhookDeliveries(
    @Caller() caller: Principal,
    @Args('webhookId', { type: () => ID, nullable: true }) webhookId?: string,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
  ): Promise<WebhookDeliveryModel[]> {
    return this.service.deliveries(caller, webhookId ?? undefined, limit ?? 50);
  }
}
