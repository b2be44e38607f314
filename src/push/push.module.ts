import { Module } from '@nestjs/common';
import { PushConfig } from '../config/slices';
import { PushController } from './push.controller';
import { PushDeliveryService } from './push-delivery.service';
import { PushResolver } from './push.resolver';
import { PushSubscriptionsService } from './push-subscriptions.service';
import { PushSubscriptionsStore } from './push-subscriptions-store';
import { PUSH_TLS, VAPID_KEYS } from './push-tokens';
import { vapidKeys } from './vapid-keys';

/** Web Push (docs/notifications.md): subscriptions (REST + GraphQL), the VAPID keys, the delivery worker. */
@Module({
  controllers: [PushController],
  providers: [
    PushSubscriptionsStore,
    PushSubscriptionsService,
    PushResolver,
    PushDeliveryService,
    { provide: VAPID_KEYS, useFactory: (config: PushConfig) => vapidKeys(config), inject: [PushConfig] },
    // Node's CAs (and NODE_EXTRA_CA_CERTS); a test of a loopback push service gives its own.
    { provide: PUSH_TLS, useValue: {} },
  ],
  exports: [PushDeliveryService],
})
export class PushModule {}
