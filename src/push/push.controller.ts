import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, PROFILE_READ, PUSH_WRITE, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { ApiErrors } from '../common/api-errors';
import { Public } from '../common/public.decorator';
import { AddPushSubscriptionInput } from './push.input';
import { PushSubscriptionModel, VapidPublicKeyModel } from './push.model';
import { PushSubscriptionsService } from './push-subscriptions.service';

/** Web Push (docs/notifications.md): my browsers' subscriptions, and the key they subscribe with. */
@ApiTags('push')
@Controller('v1')
export class PushController {
  constructor(private readonly push: PushSubscriptionsService) {}

  @Public()
  @Get('push/vapid-public-key')
  @ApiOperation({
    operationId: 'vapidPublicKey',
    summary: "The service's VAPID public key, for PushManager.subscribe({ userVisibleOnly: true, applicationServerKey }) (public)",
  })
  @ApiOkResponse({ type: VapidPublicKeyModel })
  vapidPublicKey(): VapidPublicKeyModel {
    return { publicKey: this.push.vapidPublicKey() };
  }

  @ApiBearerAuth()
  @RequireScope(PUSH_WRITE)
  @Post('account/push-subscriptions')
  @ApiErrors('LIMIT_REACHED')
  @ApiOperation({
    operationId: 'addPushSubscription',
    summary:
      "Register this browser's push subscription (its PushSubscription JSON) for the kinds given (default all); the same endpoint again replaces its keys and kinds (same id)",
  })
  @ApiCreatedResponse({ type: PushSubscriptionModel })
  add(@Caller() caller: Principal, @Body() body: AddPushSubscriptionInput): Promise<PushSubscriptionModel> {
    return this.push.add(caller, body);
  }

  @ApiBearerAuth()
  @RequireScope(PROFILE_READ)
  @Get('account/push-subscriptions')
  @ApiOperation({ operationId: 'pushSubscriptions', summary: 'My push subscriptions, oldest first, with the kinds each takes' })
  @ApiOkResponse({ type: [PushSubscriptionModel] })
  list(@Caller() caller: Principal): Promise<PushSubscriptionModel[]> {
    return this.push.list(caller);
  }

  @ApiBearerAuth()
  @RequireScope(PUSH_WRITE)
  @Delete('account/push-subscriptions/:id')
  @HttpCode(204)
  @ApiErrors('NOT_FOUND')
  @ApiOperation({ operationId: 'removePushSubscription', summary: 'Remove one of my push subscriptions: that browser is told nothing more' })
  @ApiNoContentResponse()
  async remove(@Caller() caller: Principal, @Param('id') id: string): Promise<void> {
    await this.push.remove(caller, id);
  }
}
