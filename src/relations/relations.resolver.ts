import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Caller, PROFILE_READ, RequireScope, SOCIAL_WRITE } from '../common/principal';
import type { Principal } from '../common/principal';
import { RelationsService } from './relations.service';
import { MessageSettingsInput, RelationPageQuery, UserListArgs } from './relations.input';
import { BlockPageModel, FollowPageModel, MessageSettingsModel, RelationModel } from './relations.model';

/** Follows, blocks and my message settings over GraphQL (docs/social.md "Follows and blocks"). */
@Resolver()
export class RelationsResolver {
  constructor(private readonly relations: RelationsService) {}

  @RequireScope(SOCIAL_WRITE)
  @Mutation(() => RelationModel, { description: 'Follow a player (idempotent); VALIDATION_FAILED for myself, BLOCKED for a player I block.' })
  follow(@Caller() caller: Principal, @Args('username', { description: 'The player.' }) username: string): Promise<RelationModel> {
    return this.relations.follow(caller, username);
  }

  @RequireScope(SOCIAL_WRITE)
  @Mutation(() => RelationModel, { description: 'Stop following a player (idempotent).' })
  unfollow(@Caller() caller: Principal, @Args('username', { description: 'The player.' }) username: string): Promise<RelationModel> {
    return this.relations.unfollow(caller, username);
  }

  @RequireScope(SOCIAL_WRITE)
  @Mutation(() => RelationModel, {
    description:
      'Block a player (idempotent, silent: they are not told): the follows both ways end; no challenge, rematch, direct message or seek pairing between us.',
  })
  block(@Caller() caller: Principal, @Args('username', { description: 'The player.' }) username: string): Promise<RelationModel> {
    return this.relations.block(caller, username);
  }

  @RequireScope(SOCIAL_WRITE)
  @Mutation(() => RelationModel, { description: 'Unblock a player (idempotent); the follows the block ended stay ended.' })
  unblock(@Caller() caller: Principal, @Args('username', { description: 'The player.' }) username: string): Promise<RelationModel> {
    return this.relations.unblock(caller, username);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => FollowPageModel, { description: 'Whom a player follows, newest first, each with whether they are online now, in cursor pages.' })
  following(@Caller() caller: Principal, @Args() q: UserListArgs): Promise<FollowPageModel> {
    return this.relations.following(caller, q.username, q.first, q.after);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => FollowPageModel, { description: 'Who follows a player, newest first, each with whether they are online now, in cursor pages.' })
  followers(@Caller() caller: Principal, @Args() q: UserListArgs): Promise<FollowPageModel> {
    return this.relations.followers(caller, q.username, q.first, q.after);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => BlockPageModel, { description: 'The players I block, newest first, in cursor pages.' })
  blocks(@Caller() caller: Principal, @Args() q: RelationPageQuery): Promise<BlockPageModel> {
    return this.relations.blocks(caller, q.first, q.after);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => MessageSettingsModel, { description: 'Who may send me direct messages.' })
  messageSettings(@Caller() caller: Principal): Promise<MessageSettingsModel> {
    return this.relations.messageSettings(caller);
  }

  @RequireScope(SOCIAL_WRITE)
  @Mutation(() => MessageSettingsModel, { description: 'Change who may send me direct messages.' })
  setMessageSettings(
    @Caller() caller: Principal,
    @Args('input', { description: 'The new setting.' }) input: MessageSettingsInput,
  ): Promise<MessageSettingsModel> {
    return this.relations.setMessageSettings(caller, input);
  }
}
