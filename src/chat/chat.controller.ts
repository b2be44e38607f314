import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, MATCH_PLAY, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { ApiErrors } from '../common/api-errors';
import { ChatService } from './chat.service';
import { ChatPageQuery, MatchChatQuery, MatchRoomQuery, RemoveChatMessageQuery, SendChatInput } from './chat.input';
import { ChatMessageModel, ChatPageModel } from './chat.model';

const SEND = 'Plain text (1 to 500 characters after trimming, one line), stored and returned as sent: never markup.';
const SEND_ERRORS = ['VALIDATION_FAILED', 'CHAT_MUTED', 'CHAT_CLOSED', 'RATE_LIMITED', 'FORBIDDEN'] as const;

/** Chat rooms (docs/social.md "Chat"): a match's two rooms, the lobby, tournaments, teams and direct messages; history newest first in cursor pages. */
@ApiTags('chat')
@ApiBearerAuth()
@Controller('v1')
export class ChatController {
  constructor(private readonly chat: ChatService) {}

  @Get('matches/:id/chat')
  @ApiOperation({
    operationId: 'matchChat',
    summary: "A match's chat history: its players' room (default; spectators read it too) or its spectators' room (its players: once it is over)",
  })
  @ApiOkResponse({ type: ChatPageModel })
  @ApiErrors('NOT_FOUND', 'TOURNAMENT_TABLE_HIDDEN', 'CHAT_CLOSED')
  async matchHistory(@Caller() caller: Principal, @Param('id') id: string, @Query() q: MatchChatQuery): Promise<ChatPageModel> {
    return this.chat.history(caller, this.chat.matchRoom(id, q.room), q.first, q.after);
  }

  @RequireScope(MATCH_PLAY)
  @Post('matches/:id/chat')
  @ApiOperation({
    operationId: 'sendMatchChat',
    summary: "Say something in a match's room: players (its players write; every seat and every spectator receives it at once) or spectators",
    description: SEND,
  })
  @ApiCreatedResponse({ type: ChatMessageModel })
  @ApiErrors('NOT_FOUND', 'TOURNAMENT_TABLE_HIDDEN', ...SEND_ERRORS)
  async sendMatch(@Caller() caller: Principal, @Param('id') id: string, @Query() q: MatchRoomQuery, @Body() body: SendChatInput): Promise<ChatMessageModel> {
    return this.chat.send(caller, this.chat.matchRoom(id, q.room), body.text);
  }

  @Get('lobby/chat')
  @ApiOperation({ operationId: 'lobbyChat', summary: "The lobby's chat history" })
  @ApiOkResponse({ type: ChatPageModel })
  async lobbyHistory(@Caller() caller: Principal, @Query() q: ChatPageQuery): Promise<ChatPageModel> {
    return this.chat.history(caller, { kind: 'lobby' }, q.first, q.after);
  }

  @RequireScope(MATCH_PLAY)
  @Post('lobby/chat')
  @ApiOperation({ operationId: 'sendLobbyChat', summary: 'Say something in the lobby', description: SEND })
  @ApiCreatedResponse({ type: ChatMessageModel })
  @ApiErrors(...SEND_ERRORS)
  async sendLobby(@Caller() caller: Principal, @Body() body: SendChatInput): Promise<ChatMessageModel> {
    return this.chat.send(caller, { kind: 'lobby' }, body.text);
  }

  @Get('tournaments/:id/chat')
  @ApiOperation({ operationId: 'tournamentChat', summary: "A tournament's chat history" })
  @ApiOkResponse({ type: ChatPageModel })
  @ApiErrors('NOT_FOUND')
  async tournamentHistory(@Caller() caller: Principal, @Param('id') id: string, @Query() q: ChatPageQuery): Promise<ChatPageModel> {
    return this.chat.history(caller, this.chat.tournamentRoom(id), q.first, q.after);
  }

  @RequireScope(MATCH_PLAY)
  @Post('tournaments/:id/chat')
  @ApiOperation({
    operationId: 'sendTournamentChat',
    summary: "Say something in a tournament's room (CHAT_CLOSED while a round of a duplicate tournament runs)",
    description: SEND,
  })
  @ApiCreatedResponse({ type: ChatMessageModel })
  @ApiErrors('NOT_FOUND', ...SEND_ERRORS)
  async sendTournament(@Caller() caller: Principal, @Param('id') id: string, @Body() body: SendChatInput): Promise<ChatMessageModel> {
    return this.chat.send(caller, this.chat.tournamentRoom(id), body.text);
  }

  @Get('teams/:id/chat')
  @ApiOperation({ operationId: 'teamChat', summary: "A team's chat history (its members only)" })
  @ApiOkResponse({ type: ChatPageModel })
  @ApiErrors('NOT_FOUND', 'FORBIDDEN')
  async teamHistory(@Caller() caller: Principal, @Param('id') id: string, @Query() q: ChatPageQuery): Promise<ChatPageModel> {
    return this.chat.history(caller, this.chat.teamRoom(id), q.first, q.after);
  }

  @RequireScope(MATCH_PLAY)
  @Post('teams/:id/chat')
  @ApiOperation({ operationId: 'sendTeamChat', summary: "Say something in a team's room (its members only)", description: SEND })
  @ApiCreatedResponse({ type: ChatMessageModel })
  @ApiErrors('NOT_FOUND', ...SEND_ERRORS)
  async sendTeam(@Caller() caller: Principal, @Param('id') id: string, @Body() body: SendChatInput): Promise<ChatMessageModel> {
    return this.chat.send(caller, this.chat.teamRoom(id), body.text);
  }

  @Get('messages/:username')
  @ApiOperation({ operationId: 'directMessages', summary: 'My direct conversation with a player' })
  @ApiOkResponse({ type: ChatPageModel })
  @ApiErrors('NOT_FOUND')
  async directHistory(@Caller() caller: Principal, @Param('username') username: string, @Query() q: ChatPageQuery): Promise<ChatPageModel> {
    return this.chat.history(caller, await this.chat.direct(caller, username), q.first, q.after);
  }

  @RequireScope(MATCH_PLAY)
  @Post('messages/:username')
  @ApiOperation({
    operationId: 'sendDirectMessage',
    summary:
      'Send a player a direct message (they receive the player event directMessage): if you follow each other, or share a match or a team, as their setting allows; BLOCKED between a blocked pair; CHAT_CLOSED between partners of a team match in play',
    description: SEND,
  })
  @ApiCreatedResponse({ type: ChatMessageModel })
  @ApiErrors('NOT_FOUND', 'BLOCKED', ...SEND_ERRORS)
  async sendDirect(@Caller() caller: Principal, @Param('username') username: string, @Body() body: SendChatInput): Promise<ChatMessageModel> {
    return this.chat.send(caller, await this.chat.direct(caller, username), body.text);
  }

  @Delete('chat/messages/:id')
  @ApiOperation({ operationId: 'removeChatMessage', summary: 'A moderator removes a chat message (no longer shown; recorded in the moderation log)' })
  @ApiOkResponse({ type: ChatMessageModel, description: 'The message removed.' })
  @ApiErrors('NOT_FOUND', 'FORBIDDEN', 'CONFLICT')
  async remove(@Caller() caller: Principal, @Param('id') id: string, @Query() q: RemoveChatMessageQuery): Promise<ChatMessageModel> {
    return this.chat.remove(caller, id, q.reason);
  }
}
