import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope, WEBHOOK_WRITE, PROFILE_READ } from '../common/principal';
import type { Principal } from '../common/principal';
import { CreateWebhookInput, CreatedWebhookModel, DeliveriesQuery, WebhookDeliveryModel, WebhookModel } from './webhook.model';
import { WebhooksService } from './webhooks.service';
import { ApiErrors } from '../common/api-errors';

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @RequireScope(WEBHOOK_WRITE)
  @Post()
  @ApiErrors('CONFLICT')
  @ApiOperation({ operationId: 'createWebhook', summary: 'Register a webhook URL (the signing secret is in this response only)' })
  @ApiCreatedResponse({ type: CreatedWebhookModel })
  create(@Caller() caller: Principal, @Body() body: CreateWebhookInput): Promise<CreatedWebhookModel> {
    return this.webhooks.create(caller, body.url, body.events);
  }

  @RequireScope(PROFILE_READ)
  @Get()
  @ApiOperation({ operationId: 'listWebhooks', summary: 'My webhooks (without secrets)' })
  @ApiOkResponse({ type: [WebhookModel] })
  list(@Caller() caller: Principal): Promise<WebhookModel[]> {
    return this.webhooks.list(caller);
  }

  @RequireScope(PROFILE_READ)
  @Get('deliveries')
  @ApiOperation({ operationId: 'listWebhookDeliveries', summary: 'Deliveries of my webhooks, newest first (status, attempts, last error)' })
  @ApiOkResponse({ type: [WebhookDeliveryModel] })
  @ApiErrors('NOT_FOUND')
  deliveries(@Caller() caller: Principal, @Query() q: DeliveriesQuery): Promise<WebhookDeliveryModel[]> {
    return this.webhooks.deliveries(caller, q.webhookId, q.limit ?? 50);
  }

  @RequireScope(WEBHOOK_WRITE)
  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteWebhook', summary: 'Remove one of my webhooks and its deliveries' })
  @ApiNoContentResponse()
  async remove(@Caller() caller: Principal, @Param('id') id: string): Promise<void> {
    await this.webhooks.delete(caller, id);
  }
}
