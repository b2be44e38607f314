import { Controller, Get, HttpCode, HttpStatus, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, MATCH_PLAY, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { ApiErrors } from '../common/api-errors';
import { AnalysisService } from './analysis.service';
import { AnalysisModel } from './analysis.model';

@ApiTags('matches')
@ApiBearerAuth()
@Controller('v1/matches')
export class AnalysisController {
  constructor(private readonly analyses: AnalysisService) {}

  @RequireScope(MATCH_PLAY)
  @Post(':id/analysis')
  @HttpCode(200)
  @ApiErrors('NOT_FOUND', 'CONFLICT', 'FORBIDDEN', 'TOURNAMENT_TABLE_HIDDEN', 'ANALYSIS_QUEUE_FULL', 'ANALYSIS_TOO_LARGE')
  @ApiOperation({
    operationId: 'requestAnalysis',
    summary:
      'Ask for the post-game analysis of a finished match (public, or one I played): 202 with its job status, 200 with the result once done; asking again returns the same job or result',
  })
  @ApiOkResponse({ type: AnalysisModel, description: 'Done: the result is in `result`.' })
  @ApiAcceptedResponse({ type: AnalysisModel, description: 'Queued, running (`done` of `total` decisions) or failed (asking again queues it anew).' })
  async request(@Caller() caller: Principal, @Param('id') id: string, @Res({ passthrough: true }) res: Response): Promise<AnalysisModel> {
    const analysis = await this.analyses.request(caller, id);
    if (analysis.status !== 'done') res.status(HttpStatus.ACCEPTED);
    return analysis as AnalysisModel;
  }

  @Get(':id/analysis')
  @ApiErrors('NOT_FOUND', 'CONFLICT', 'FORBIDDEN', 'TOURNAMENT_TABLE_HIDDEN')
  @ApiOperation({
    operationId: 'getAnalysis',
    summary: 'The post-game analysis of a finished match: its job status, or its result once done (NOT_FOUND when nobody asked for it)',
  })
  @ApiOkResponse({ type: AnalysisModel })
  async get(@Caller() caller: Principal, @Param('id') id: string): Promise<AnalysisModel> {
    return (await this.analyses.get(caller, id)) as AnalysisModel;
  }
}
