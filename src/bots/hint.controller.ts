import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller } from '../common/principal';
import type { Principal } from '../common/principal';
import { HintService } from './hint.service';
import { HintModel, HintQuery } from './hint.model';
import { ApiErrors } from '../common/api-errors';

@ApiTags('matches')
@ApiBearerAuth()
@Controller('v1/matches')
export class HintController {
  constructor(private readonly hints: HintService) {}

  @Get(':id/hint')
  @ApiErrors('NOT_SEATED', 'NOT_YOUR_TURN', 'MATCH_NOT_STARTED', 'MATCH_OVER', 'HINT_NOT_ALLOWED')
  @ApiOperation({ operationId: 'hint', summary: 'What the bot of a level would play for my seat now (my turn only)' })
  @ApiOkResponse({ type: HintModel })
  hint(@Caller() caller: Principal, @Param('id') id: string, @Query() q: HintQuery): Promise<HintModel> {
    return this.hints.hint(caller.username, id, q.level ?? 'greedy');
  }
}
