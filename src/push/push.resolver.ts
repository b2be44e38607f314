import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Caller, PROFILE_READ, PUSH_WRITE, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { Public } from '../common/public.decorator';
import { AddPushSubscriptionInput } from './push.input';
import { PushSubscriptionModel } from './push.model';
import { PushSubscriptionsService } from './push-subscriptions.service';

@Resolver()
export class PushResolver {
  constructor(private readonly push: PushSubscriptionsService) {}

  @Public()
  @Query(() => String, {
    description: "The service's VAPID public key (base64url): PushManager.subscribe's applicationServerKey. Public, as GET /v1/push/vapid-public-key.",
  })
  pushVapidPublicKey(): string {
    return this.push.vapidPublicKey();
  }

  @RequireScope(PUSH_WRITE)
  @Mutation(() => PushSubscriptionModel, {
    description:
      "Register a browser's push subscription for the kinds given (default all); the same endpoint again replaces its keys and kinds (same id). LIMIT_REACHED past 20.",
  })
  addPushSubscription(
    @Caller() caller: Principal,
    @Args('input', { description: "The browser's subscription (PushSubscription.toJSON()) and the kinds it wants." }) input: AddPushSubscriptionInput,
  ): Promise<PushSubscriptionModel> {
    return this.push.add(caller, input);
  }

  @RequireScope(PUSH_WRITE)
  @Mutation(() => Boolean, { description: 'Remove one of my push subscriptions (NOT_FOUND when I have none such).' })
  removePushSubscription(@Caller() caller: Principal, @Args('id', { type: () => ID, description: 'The push subscription id.' }) id: string): Promise<boolean> {
    return this.push.remove(caller, id);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => [PushSubscriptionModel], { description: 'My push subscriptions, oldest first, with the kinds each takes.' })
  pushSubscriptions(@Caller() caller: Principal): Promise<PushSubscriptionModel[]> {
    return this.push.list(caller);
  }
}
