import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CHALLENGE_WRITE, Caller, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { CreateSeekInput, LobbyPageModel, LobbyQuery, SeekModel } from './lobby.model';
import { LobbyService } from './lobby.service';
import { SeeksService } from './seeks.service';
import { ApiErrors } from '../common/api-errors';

@ApiTags('lobby')
@ApiBearerAuth()
@Controller('v1')
export class LobbyController {
  constructor(
    private readonly lobby: LobbyService,
    private readonly seeks: SeeksService,
  ) {}

  @Get('lobby')
  @ApiOperation({ operationId: 'lobby', summary: 'Public matches with a seat I may take, newest first (cursor pages)' })
  @ApiOkResponse({ type: LobbyPageModel })
  page(@Caller() caller: Principal, @Query() q: LobbyQuery): Promise<LobbyPageModel> {
    return this.lobby.page(caller.username, q, q.limit ?? 20, q.after);
  }

  @RequireScope(CHALLENGE_WRITE)
  @Post('seeks')
  @ApiOperation({ operationId: 'createSeek', summary: 'Seek a match with whoever fits (201; 200 with the identical open seek I already have)' })
  @ApiCreatedResponse({ type: SeekModel })
  @ApiOkResponse({ type: SeekModel, description: 'The identical open seek I already had.' })
  @ApiErrors('INVALID_RULESET', 'INVALID_COMMAND', 'NOT_FOUND', 'LIMIT_REACHED', 'RATED_PLAY_SUSPENDED')
  async createSeek(@Caller() caller: Principal, @Body() body: CreateSeekInput, @Res({ passthrough: true }) res: Response): Promise<SeekModel> {
    const { seek, created } = await this.seeks.create(caller, body);
    res.status(created ? 201 : 200);
    return seek;
  }

  @Get('seeks')
  @ApiOperation({ operationId: 'mySeeks', summary: 'My open seeks, then those ended in the last 24 hours (paired ones with their match)' })
  @ApiOkResponse({ type: [SeekModel] })
  mySeeks(@Caller() caller: Principal): Promise<SeekModel[]> {
    return this.seeks.mine(caller);
  }

  @RequireScope(CHALLENGE_WRITE)
  @Delete('seeks/:id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'cancelSeek', summary: 'Cancel my seek (409 CONFLICT with matchId once paired)' })
  @ApiNoContentResponse()
  @ApiErrors('CONFLICT')
  async cancelSeek(@Caller() caller: Principal, @Param('id') id: string): Promise<void> {
    await this.seeks.cancel(caller, id);
  }
}
