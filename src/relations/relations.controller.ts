import { Body, Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, PROFILE_READ, RequireScope, SOCIAL_WRITE } from '../common/principal';
import type { Principal } from '../common/principal';
import { ApiErrors } from '../common/api-errors';
import { RelationsService } from './relations.service';
import { MessageSettingsInput, RelationPageQuery } from './relations.input';
import { BlockPageModel, FollowPageModel, MessageSettingsModel, RelationModel } from './relations.model';

/** Follows, blocks and my message settings (docs/social.md "Follows and blocks"). */
@ApiTags('social')
@ApiBearerAuth()
@Controller('v1')
export class RelationsController {
  constructor(private readonly relations: RelationsService) {}

  @RequireScope(SOCIAL_WRITE)
  @Put('users/:username/follow')
  @ApiOperation({ operationId: 'followUser', summary: 'Follow a player (idempotent); VALIDATION_FAILED for myself, BLOCKED for a player I block' })
  @ApiOkResponse({ type: RelationModel })
  @ApiErrors('BLOCKED')
  follow(@Caller() caller: Principal, @Param('username') username: string): Promise<RelationModel> {
    return this.relations.follow(caller, username);
  }

  @RequireScope(SOCIAL_WRITE)
  @Delete('users/:username/follow')
  @ApiOperation({ operationId: 'unfollowUser', summary: 'Stop following a player (idempotent)' })
  @ApiOkResponse({ type: RelationModel })
  unfollow(@Caller() caller: Principal, @Param('username') username: string): Promise<RelationModel> {
    return this.relations.unfollow(caller, username);
  }

  @RequireScope(PROFILE_READ)
  @Get('users/:username/following')
  @ApiOperation({ operationId: 'following', summary: 'Whom a player follows, newest first, each with whether they are online now (cursor pages)' })
  @ApiOkResponse({ type: FollowPageModel })
  following(@Caller() caller: Principal, @Param('username') username: string, @Query() q: RelationPageQuery): Promise<FollowPageModel> {
    return this.relations.following(caller, username, q.first, q.after);
  }

  @RequireScope(PROFILE_READ)
  @Get('users/:username/followers')
  @ApiOperation({ operationId: 'followers', summary: 'Who follows a player, newest first, each with whether they are online now (cursor pages)' })
  @ApiOkResponse({ type: FollowPageModel })
  followers(@Caller() caller: Principal, @Param('username') username: string, @Query() q: RelationPageQuery): Promise<FollowPageModel> {
    return this.relations.followers(caller, username, q.first, q.after);
  }

  @RequireScope(SOCIAL_WRITE)
  @Put('users/:username/block')
  @ApiOperation({
    operationId: 'blockUser',
    summary: 'Block a player (idempotent, silent: they are not told): the follows both ways end; no challenge, rematch, message or seek pairing between us',
  })
  @ApiOkResponse({ type: RelationModel })
  block(@Caller() caller: Principal, @Param('username') username: string): Promise<RelationModel> {
    return this.relations.block(caller, username);
  }

  @RequireScope(SOCIAL_WRITE)
  @Delete('users/:username/block')
  @ApiOperation({ operationId: 'unblockUser', summary: 'Unblock a player (idempotent); the follows the block ended stay ended' })
  @ApiOkResponse({ type: RelationModel })
  unblock(@Caller() caller: Principal, @Param('username') username: string): Promise<RelationModel> {
    return this.relations.unblock(caller, username);
  }

  @RequireScope(PROFILE_READ)
  @Get('account/blocks')
  @ApiOperation({ operationId: 'myBlocks', summary: 'The players I block, newest first (cursor pages)' })
  @ApiOkResponse({ type: BlockPageModel })
  blocks(@Caller() caller: Principal, @Query() q: RelationPageQuery): Promise<BlockPageModel> {
    return this.relations.blocks(caller, q.first, q.after);
  }

  @RequireScope(PROFILE_READ)
  @Get('account/message-settings')
  @ApiOperation({ operationId: 'messageSettings', summary: 'Who may send me direct messages (directMessages: everyone, followed or nobody)' })
  @ApiOkResponse({ type: MessageSettingsModel })
  messageSettings(@Caller() caller: Principal): Promise<MessageSettingsModel> {
    return this.relations.messageSettings(caller);
  }

  @RequireScope(SOCIAL_WRITE)
  @Put('account/message-settings')
  @ApiOperation({ operationId: 'setMessageSettings', summary: 'Change who may send me direct messages' })
  @ApiOkResponse({ type: MessageSettingsModel })
  setMessageSettings(@Caller() caller: Principal, @Body() body: MessageSettingsInput): Promise<MessageSettingsModel> {
    return this.relations.setMessageSettings(caller, body);
  }
}
