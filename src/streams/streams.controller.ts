import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiOperation, ApiProduces, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Caller } from '../common/principal';
import type { Principal } from '../common/principal';
import { StreamsService } from './streams.service';
import { LobbyStreamQuery, MatchStreamQuery } from './streams.input';
import { EventStreamLineModel, LobbyStreamLineModel, MatchChatLineModel, MatchStreamLineModel, StreamErrorLineModel } from './streams.model';

const KEEP_ALIVE = 'An empty line every STREAM_KEEPALIVE seconds (default 7) keeps the connection open: skip empty lines.';
const END =
  'When the credential is revoked or expires (on any instance) the last line is {"error": {"code": "UNAUTHENTICATED", "message": "credential revoked"}} and the stream ends.';

@ApiTags('streams')
@ApiBearerAuth()
@ApiExtraModels(EventStreamLineModel, MatchStreamLineModel, MatchChatLineModel, LobbyStreamLineModel, StreamErrorLineModel)
@Controller('v1')
export class StreamsController {
  constructor(private readonly streams: StreamsService) {}

  @Get('stream/events')
  @ApiProduces('application/x-ndjson')
  @ApiOperation({
    operationId: 'streamEvents',
    summary: 'My event stream (NDJSON): my matches in play first, then yourTurn, matchStarted, matchEnded and my other events as they happen',
    description: `One JSON value per line, without WebSockets. ${KEEP_ALIVE} ${END} Counts toward the subscriptions an account may hold open (WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT; 429 RATE_LIMITED with reason "subscriptions" beyond).`,
  })
  @ApiOkResponse({
    description: 'application/x-ndjson: one line per event.',
    content: { 'application/x-ndjson': { schema: { oneOf: [{ $ref: getSchemaPath(EventStreamLineModel) }, { $ref: getSchemaPath(StreamErrorLineModel) }] } } },
  })
  async events(@Caller() caller: Principal, @Res() res: Response): Promise<void> {
    await this.streams.events(caller, res);
  }

  @Get('stream/lobby')
  @ApiProduces('application/x-ndjson')
  @ApiOperation({
    operationId: 'streamLobby',
    summary: 'The lobby as I may see it (NDJSON): its current matches first, then additions, updates and removals as they happen',
    description: `The lobby subscription without WebSockets, with the same filters (preset, rated, clock) and the same per-caller filtering (only public matches with a seat I may take; a private match never appears). First one \`added\` line per match GET /v1/lobby lists to me with these filters (every page, newest first), then \`added\`, \`updated\` and \`removed\` lines as the lobby changes, on any instance. A change made while the first lines are read comes after them: keep the entries by matchId. ${KEEP_ALIVE} ${END} Counts toward WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT.`,
  })
  @ApiOkResponse({
    description: 'application/x-ndjson: one line per change.',
    content: { 'application/x-ndjson': { schema: { oneOf: [{ $ref: getSchemaPath(LobbyStreamLineModel) }, { $ref: getSchemaPath(StreamErrorLineModel) }] } } },
  })
  async lobby(@Caller() caller: Principal, @Query() q: LobbyStreamQuery, @Res() res: Response): Promise<void> {
    await this.streams.lobby(caller, { preset: q.preset, rated: q.rated, clock: q.clock }, res);
  }

  @Get('matches/:id/stream')
  @ApiProduces('application/x-ndjson')
  @ApiOperation({
    operationId: 'streamMatch',
    summary: "A match's events from fromSeq (NDJSON): the missed ones first, then live, each with the match as I may see it after it",
    description: `The guarantees of the matchEventsLive subscription, across instances: every event from fromSeq once, in order, no gap, no repeat; after a dropped connection ask again with fromSeq = the last seq received + 1. The stream ends after the event that ends the match (at once for a finished match when fromSeq is past its end). ${KEEP_ALIVE} ${END} Counts toward WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT.`,
  })
  @ApiOkResponse({
    description: 'application/x-ndjson: one line per event.',
    content: {
      'application/x-ndjson': {
        schema: {
          oneOf: [{ $ref: getSchemaPath(MatchStreamLineModel) }, { $ref: getSchemaPath(MatchChatLineModel) }, { $ref: getSchemaPath(StreamErrorLineModel) }],
        },
      },
    },
  })
  async match(@Caller() caller: Principal, @Param('id') id: string, @Query() q: MatchStreamQuery, @Res() res: Response): Promise<void> {
    await this.streams.match(caller, id, q.fromSeq ?? 1, res, q.chat === true);
  }
}
