import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiBearerAuth, ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope, MATCH_PLAY } from '../common/principal';
import type { Principal } from '../common/principal';
import { MatchesService } from './matches.service';
import { RematchesService } from './rematches.service';
import { RematchOfferModel } from './rematch.model';
import {
  AtSeqQuery,
  ClientSeedInput,
  CommandInput,
  CreateMatchInput,
  DeclareHandInput,
  EventsQuery,
  JoinInput,
  MatchListQuery,
  PlayInput,
  seatRequests,
} from './match.input';
import { AuditModel, LegalPlaysModel, MatchEventModel, MatchModel, MatchSummaryModel } from './match.model';
import { ApiErrors, MATCH_COMMAND_ERRORS } from '../common/api-errors';
import { ExpectedSeq, SeqETag } from '../common/seq-etag';

@ApiTags('matches')
@ApiBearerAuth()
@Controller('v1/matches')
export class MatchesController {
  constructor(
    private readonly api: MatchesService,
    private readonly rematches: RematchesService,
  ) {}

  @RequireScope(MATCH_PLAY)
  @Post()
  @SeqETag()
  @ApiErrors('INVALID_RULESET', 'INVALID_COMMAND', 'NOT_FOUND', 'CONFLICT', 'LIMIT_REACHED', 'RATED_PLAY_SUSPENDED')
  @ApiOperation({ operationId: 'createMatch', summary: 'Create a match: a preset (or saved ruleset) + overrides + seats' })
  @ApiCreatedResponse({ type: MatchModel })
  create(@Caller() caller: Principal, @Body() body: CreateMatchInput): Promise<MatchModel> {
    return this.api.create(caller, { ...body, seats: seatRequests(body.seats) });
  }

  @Get()
  @ApiOperation({ operationId: 'listMyMatches', summary: 'Matches where I hold or am invited to a seat' })
  @ApiOkResponse({ type: [MatchSummaryModel] })
  mine(@Caller() caller: Principal, @Query() q: MatchListQuery): Promise<MatchSummaryModel[]> {
    return this.api.myMatches(caller, q) as Promise<MatchSummaryModel[]>;
  }

  @Get(':id')
  @SeqETag()
  @ApiOperation({ operationId: 'getMatch', summary: 'A match as I may see it (ETag: its seq); atSeq replays it' })
  @ApiErrors('TOURNAMENT_TABLE_HIDDEN')
  @ApiOkResponse({ type: MatchModel })
  get(@Caller() caller: Principal, @Param('id') id: string, @Query() q: AtSeqQuery): Promise<MatchModel> {
    return this.api.present(caller, id, q.atSeq);
  }

  @RequireScope(MATCH_PLAY)
  @Post(':id/join')
  @HttpCode(200)
  @SeqETag()
  @ApiErrors(
    ...MATCH_COMMAND_ERRORS,
    'MATCH_ALREADY_STARTED',
    'SEAT_UNAVAILABLE',
    'MATCH_FULL',
    'ALREADY_SEATED',
    'INVALID_CLIENT_SEED',
    'RATED_PLAY_SUSPENDED',
    'BLOCKED',
  )
  @ApiOperation({ operationId: 'joinMatch', summary: 'Take a seat (optionally giving my client seed)' })
  @ApiOkResponse({ type: MatchModel })
  join(@Caller() caller: Principal, @Param('id') id: string, @Body() body: JoinInput): Promise<MatchModel> {
    return this.api.join(caller, id, body.seat, body.clientSeed, body);
  }

  @RequireScope(MATCH_PLAY)
  @Post(':id/client-seed')
  @HttpCode(200)
  @SeqETag()
  @ApiErrors(...MATCH_COMMAND_ERRORS, 'MATCH_ALREADY_STARTED', 'NOT_SEATED', 'INVALID_CLIENT_SEED', 'CLIENT_SEED_ALREADY_GIVEN')
  @ApiOperation({
    operationId: 'setClientSeed',
    summary: 'Give my client seed (once, before the start; public at once); the last one missing deals a pending start',
  })
  @ApiOkResponse({ type: MatchModel })
  setClientSeed(
    @Caller() caller: Principal,
    @Param('id') id: string,
    @Body() body: ClientSeedInput,
    @ExpectedSeq() expectedSeq: number | undefined,
  ): Promise<MatchModel> {
    return this.api.setClientSeed(caller, id, body.clientSeed, { ...body, expectedSeq });
  }

  @RequireScope(MATCH_PLAY)
  @Post(':id/start')
  @HttpCode(200)
  @SeqETag()
  @ApiErrors(...MATCH_COMMAND_ERRORS, 'MATCH_ALREADY_STARTED', 'NOT_SEATED', 'SEATS_NOT_FILLED')
  @ApiOperation({
    operationId: 'startMatch',
    summary: 'Start the match (every seat taken); 202 with startsAt while it waits for the client seeds (CLIENT_SEED_WINDOW)',
  })
  @ApiOkResponse({ type: MatchModel, description: 'Started.' })
  @ApiAcceptedResponse({
    type: MatchModel,
    description: 'A human seat has not given its client seed: the match deals once every human seat has, or at startsAt, whichever comes first.',
  })
  async start(
    @Caller() caller: Principal,
    @Param('id') id: string,
    @Body() body: CommandInput,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MatchModel> {
    const m = await this.api.start(caller, id, body);
    if (m.status === 'open' && m.startsAt) res.status(HttpStatus.ACCEPTED);
    return m;
  }

  @RequireScope(MATCH_PLAY)
  @Post(':id/plays')
  @HttpCode(200)
  @SeqETag()
  @ApiErrors(...MATCH_COMMAND_ERRORS, 'MATCH_NOT_STARTED', 'MATCH_OVER', 'NOT_SEATED', 'NOT_YOUR_TURN', 'ILLEGAL_PLAY')
  @ApiOperation({ operationId: 'play', summary: 'Play a card (optimistic concurrency: If-Match or expectedSeq; idempotencyKey)' })
  @ApiOkResponse({ type: MatchModel })
  play(@Caller() caller: Principal, @Param('id') id: string, @Body() body: PlayInput, @ExpectedSeq() expectedSeq: number | undefined): Promise<MatchModel> {
    return this.api.play(caller, id, body.card, body.capture, { ...body, expectedSeq });
  }

  @RequireScope(MATCH_PLAY)
  @Post(':id/declarations')
  @HttpCode(200)
  @SeqETag()
  @ApiErrors(...MATCH_COMMAND_ERRORS, 'MATCH_NOT_STARTED', 'MATCH_OVER', 'NOT_SEATED', 'NOT_YOUR_TURN', 'DECLARATION_NOT_ALLOWED')
  @ApiOperation({
    operationId: 'declareHand',
    summary:
      'Declare my hand (cirulla) before playing from it: mattaValue when it holds the matta (optimistic concurrency: If-Match or expectedSeq; idempotencyKey)',
  })
  @ApiOkResponse({ type: MatchModel })
  declareHand(
    @Caller() caller: Principal,
    @Param('id') id: string,
    @Body() body: DeclareHandInput,
    @ExpectedSeq() expectedSeq: number | undefined,
  ): Promise<MatchModel> {
    return this.api.declareHand(caller, id, body.mattaValue, { ...body, expectedSeq });
  }

  @RequireScope(MATCH_PLAY)
  @Post(':id/resign')
  @HttpCode(200)
  @SeqETag()
  @ApiErrors(...MATCH_COMMAND_ERRORS, 'MATCH_NOT_STARTED', 'MATCH_OVER', 'NOT_SEATED')
  @ApiOperation({ operationId: 'resign', summary: 'Resign: my side loses' })
  @ApiOkResponse({ type: MatchModel })
  resign(
    @Caller() caller: Principal,
    @Param('id') id: string,
    @Body() body: CommandInput,
    @ExpectedSeq() expectedSeq: number | undefined,
  ): Promise<MatchModel> {
    return this.api.resign(caller, id, { ...body, expectedSeq });
  }

  @RequireScope(MATCH_PLAY)
  @Post(':id/abort')
  @HttpCode(200)
  @SeqETag()
  @ApiErrors(...MATCH_COMMAND_ERRORS, 'MATCH_OVER', 'NOT_SEATED', 'ABORT_TOO_LATE', 'ABORT_NOT_ALLOWED')
  @ApiOperation({
    operationId: 'abort',
    summary:
      'Abort: any seated player, before the first play; the match ends with no result and is never rated (409 ABORT_TOO_LATE after; 409 ABORT_NOT_ALLOWED at a tournament table once dealt)',
  })
  @ApiOkResponse({ type: MatchModel })
  abort(@Caller() caller: Principal, @Param('id') id: string, @Body() body: CommandInput, @ExpectedSeq() expectedSeq: number | undefined): Promise<MatchModel> {
    return this.api.abort(caller, id, { ...body, expectedSeq });
  }

  @RequireScope(MATCH_PLAY)
  @Post(':id/rematch')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rematch',
    summary: 'Ask for a rematch of a finished match; when every human player has, the rematch is made and started (newMatchId), seats rotated',
  })
  @ApiOkResponse({ type: RematchOfferModel })
  @ApiErrors('NOT_SEATED', 'CONFLICT', 'BLOCKED', 'RATED_PLAY_SUSPENDED')
  rematch(@Caller() caller: Principal, @Param('id') id: string): Promise<RematchOfferModel> {
    return this.rematches.ask(caller, id);
  }

  @Get(':id/rematch')
  @ApiOperation({ operationId: 'rematchOffer', summary: 'The rematch offer of a finished match, as it stands' })
  @ApiOkResponse({ type: RematchOfferModel })
  @ApiErrors('CONFLICT')
  rematchOffer(@Param('id') id: string): Promise<RematchOfferModel> {
    return this.rematches.offer(id);
  }

  @RequireScope(MATCH_PLAY)
  @Post(':id/rematch/decline')
  @HttpCode(200)
  @ApiOperation({ operationId: 'declineRematch', summary: 'Decline the open rematch offer: it lapses' })
  @ApiOkResponse({ type: RematchOfferModel })
  @ApiErrors('NOT_SEATED', 'CONFLICT')
  declineRematch(@Caller() caller: Principal, @Param('id') id: string): Promise<RematchOfferModel> {
    return this.rematches.decline(caller, id);
  }

  @Get(':id/legal-plays')
  @ApiOperation({ operationId: 'legalPlays', summary: 'My legal plays and the hand declarations open to me now' })
  @ApiOkResponse({ type: LegalPlaysModel })
  @ApiErrors('NOT_SEATED')
  legal(@Caller() caller: Principal, @Param('id') id: string): Promise<LegalPlaysModel> {
    return this.api.legalPlays(caller, id);
  }

  @Get(':id/events')
  @ApiOperation({ operationId: 'matchEvents', summary: 'The event log from a seq (public)' })
  @ApiOkResponse({ type: [MatchEventModel] })
  @ApiErrors('TOURNAMENT_TABLE_HIDDEN')
  events(@Caller() caller: Principal, @Param('id') id: string, @Query() q: EventsQuery): Promise<MatchEventModel[]> {
    return this.api.events(id, q.fromSeq ?? 1, q.limit ?? 100, caller.username);
  }

  @Get(':id/audit')
  @ApiOperation({ operationId: 'auditMatch', summary: 'The audit verdict of the log' })
  @ApiOkResponse({ type: AuditModel })
  @ApiErrors('TOURNAMENT_TABLE_HIDDEN')
  audit(@Caller() caller: Principal, @Param('id') id: string): Promise<AuditModel> {
    return this.api.verify(id, caller.username);
  }

  @Get(':id/export')
  @ApiProduces('application/x-ndjson', 'text/plain')
  @ApiErrors('FORBIDDEN', 'TOURNAMENT_TABLE_HIDDEN')
  @ApiOperation({
    operationId: 'exportMatch',
    summary: 'The whole log as JSON Lines, seed included (once the match is over); Accept: text/plain gives the match notation',
  })
  @ApiOkResponse({
    description:
      'application/x-ndjson (default): a header line, then one event per line. text/plain: the match notation, headers then the plays round by round (docs/rules.md, "Match notation"). `npm run audit` checks either offline.',
    schema: { type: 'string' },
  })
  async exportMatch(@Caller() caller: Principal, @Param('id') id: string, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<string> {
    // The notation only when asked for by name: a client sending */* (or nothing) keeps getting JSON Lines.
    if (req.accepts(['application/x-ndjson', 'text/plain']) === 'text/plain') {
      const notation = await this.api.exportNotation(id, caller.username);
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      return notation;
    }
    const jsonl = await this.api.exportJsonl(id, caller.username);
    res.setHeader('content-type', 'application/x-ndjson');
    return jsonl;
  }
}
