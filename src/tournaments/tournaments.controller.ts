import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope, TOURNAMENT_WRITE } from '../common/principal';
import type { Principal } from '../common/principal';
import { ApiErrors } from '../common/api-errors';
import { sendNdjson } from '../common/ndjson';
import { Public } from '../common/public.decorator';
import { TournamentsService } from './tournaments.service';
import { CreateTournamentInput, JoinTournamentInput, TournamentListQuery } from './tournament.input';
import { RoundModel, StandingModel, TournamentMatchLineModel, TournamentModel, TournamentPageModel } from './tournament.model';

@ApiTags('tournaments')
@ApiBearerAuth()
@Controller('v1/tournaments')
export class TournamentsController {
  constructor(private readonly tournaments: TournamentsService) {}

  @RequireScope(TOURNAMENT_WRITE)
  @Post()
  @ApiOperation({
    operationId: 'createTournament',
    summary: 'Create a tournament (Swiss or round robin; duplicate deals optional): players join until it starts',
  })
  @ApiCreatedResponse({ type: TournamentModel })
  @ApiErrors('INVALID_RULESET', 'NOT_FOUND', 'FORBIDDEN', 'RATED_PLAY_SUSPENDED', 'LIMIT_REACHED')
  create(@Caller() caller: Principal, @Body() body: CreateTournamentInput): Promise<TournamentModel> {
    return this.tournaments.create(caller, body);
  }

  @Public()
  @Get()
  @ApiOperation({ operationId: 'listTournaments', summary: 'Tournaments, newest first, in cursor pages (public ones, and private ones I created or joined)' })
  @ApiOkResponse({ type: TournamentPageModel })
  list(@Query() q: TournamentListQuery, @Req() req: Request & { user?: Principal }): Promise<TournamentPageModel> {
    return this.tournaments.list({ status: q.status, format: q.format }, q.first ?? 20, q.after ?? null, req.user?.username ?? null);
  }

  @Public()
  @Get(':id')
  @ApiOperation({ operationId: 'getTournament', summary: 'A tournament: its settings, status, players and current round' })
  @ApiOkResponse({ type: TournamentModel })
  @ApiErrors('NOT_FOUND')
  get(@Param('id') id: string): Promise<TournamentModel> {
    return this.tournaments.get(id);
  }

  @RequireScope(TOURNAMENT_WRITE)
  @Post(':id/join')
  @HttpCode(200)
  @ApiOperation({ operationId: 'joinTournament', summary: 'Join a tournament before it starts (optionally with my client seed)' })
  @ApiOkResponse({ type: TournamentModel })
  @ApiErrors(
    'NOT_FOUND',
    'TOURNAMENT_FULL',
    'TOURNAMENT_STARTED',
    'TOURNAMENT_OVER',
    'ALREADY_IN_TOURNAMENT',
    'NOT_INVITED',
    'FORBIDDEN',
    'INVALID_CLIENT_SEED',
    'RATED_PLAY_SUSPENDED',
    'LIMIT_REACHED',
  )
  join(@Caller() caller: Principal, @Param('id') id: string, @Body() body: JoinTournamentInput): Promise<TournamentModel> {
    return this.tournaments.join(caller, id, body?.clientSeed ?? null);
  }

  @RequireScope(TOURNAMENT_WRITE)
  @Post(':id/withdraw')
  @HttpCode(200)
  @ApiOperation({ operationId: 'withdrawFromTournament', summary: 'Withdraw: before the start I leave the field; after it my remaining games are forfeited' })
  @ApiOkResponse({ type: TournamentModel })
  @ApiErrors('NOT_FOUND', 'NOT_IN_TOURNAMENT', 'TOURNAMENT_OVER')
  withdraw(@Caller() caller: Principal, @Param('id') id: string): Promise<TournamentModel> {
    return this.tournaments.withdraw(caller, id);
  }

  @RequireScope(TOURNAMENT_WRITE)
  @Post(':id/start')
  @HttpCode(200)
  @ApiOperation({ operationId: 'startTournament', summary: 'Start my tournament now: the first round is paired and its matches made' })
  @ApiOkResponse({ type: TournamentModel })
  @ApiErrors('NOT_FOUND', 'FORBIDDEN', 'TOURNAMENT_STARTED', 'TOURNAMENT_OVER', 'NOT_ENOUGH_PLAYERS')
  start(@Caller() caller: Principal, @Param('id') id: string): Promise<TournamentModel> {
    return this.tournaments.start(caller, id);
  }

  @RequireScope(TOURNAMENT_WRITE)
  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({ operationId: 'cancelTournament', summary: 'Cancel my tournament before it starts' })
  @ApiOkResponse({ type: TournamentModel })
  @ApiErrors('NOT_FOUND', 'FORBIDDEN', 'TOURNAMENT_STARTED', 'TOURNAMENT_OVER')
  cancel(@Caller() caller: Principal, @Param('id') id: string): Promise<TournamentModel> {
    return this.tournaments.cancel(caller, id);
  }

  @Public()
  @Get(':id/standings')
  @ApiOperation({ operationId: 'tournamentStandings', summary: 'The standings after every recorded game: match points, then the tie-breaks' })
  @ApiOkResponse({ type: [StandingModel] })
  @ApiErrors('NOT_FOUND')
  standings(@Param('id') id: string): Promise<StandingModel[]> {
    return this.tournaments.standings(id);
  }

  @Public()
  @Get(':id/rounds/:n')
  @ApiOperation({ operationId: 'tournamentRound', summary: 'A round: its pairings (tables, bye) and results' })
  @ApiOkResponse({ type: RoundModel })
  @ApiErrors('NOT_FOUND')
  round(@Param('id') id: string, @Param('n', ParseIntPipe) n: number): Promise<RoundModel> {
    return this.tournaments.round(id, n);
  }

  @Public()
  @Get(':id/matches')
  @ApiProduces('application/x-ndjson')
  @ApiOperation({ operationId: 'tournamentMatches', summary: 'Every table of every round so far, one JSON line each (round, table, players, matchId, result)' })
  @ApiOkResponse({ type: TournamentMatchLineModel, description: 'application/x-ndjson: one TournamentMatchLine per line.' })
  @ApiErrors('NOT_FOUND')
  async matches(@Param('id') id: string, @Res() res: Response): Promise<void> {
    await sendNdjson(res, await this.tournaments.tables(id));
  }

  @Public()
  @Get(':id/export')
  @ApiProduces('application/x-ndjson')
  @ApiOperation({
    operationId: 'exportTournament',
    summary:
      'The tournament log as JSON Lines, hash-chained and signed (`npm run audit` recomputes its pairings, standings and seeds; `--keys` checks the signature)',
  })
  @ApiOkResponse({
    description:
      'A signed header {format: "scopa-tournament/2", tournamentId, createdBy, status, players, events, lastHash, issuer, keyId, signature} (the keys at /.well-known/scopa-keys.json), then one event per line: {tournamentId, seq, type, payload, actor, time, prevHash, hash}.',
    schema: { type: 'string' },
  })
  @ApiErrors('NOT_FOUND')
  async export(@Param('id') id: string, @Res({ passthrough: true }) res: Response): Promise<string> {
    const text = await this.tournaments.exportJsonl(id);
    res.setHeader('content-type', 'application/x-ndjson');
    return text;
  }
}
