import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { sendNdjson } from '../common/ndjson';
import { Public } from '../common/public.decorator';
import { Caller, RequireScope, MATCH_PLAY } from '../common/principal';
import type { Principal } from '../common/principal';
import { ArchivesService } from './archives.service';
import { BatchExportInput, ImportInput, UserMatchesRestQuery } from './archives.input';
import { ImportResultModel, UserMatchesPageModel } from './archives.model';

@ApiTags('archives')
@Controller('v1')
export class ArchivesController {
  constructor(private readonly archives: ArchivesService) {}

  @Public()
  @Get('users/:username/matches')
  @ApiProduces('application/json', 'application/x-ndjson')
  @ApiOperation({
    operationId: 'userMatches',
    summary: "A user's finished matches, newest first: JSON pages, or with Accept: application/x-ndjson one match per line (withEvents=true: with its export)",
    description:
      'A private match is listed only to its players (with their credentials); an unverified import only in its importer’s own archive, to them. A trusted issuer’s player is listed under username@host.',
  })
  @ApiOkResponse({
    type: UserMatchesPageModel,
    description: 'application/x-ndjson: one ArchivedMatch per line, or {"match": ArchivedMatch, "export": "<JSON Lines>"} with withEvents=true.',
  })
  async userMatches(
    @Param('username') username: string,
    @Query() q: UserMatchesRestQuery,
    @Req() req: Request & { user?: Principal },
    @Res() res: Response,
  ): Promise<void> {
    const viewer = req.user?.username ?? null;
    if (req.accepts(['application/json', 'application/x-ndjson']) === 'application/x-ndjson') {
      await sendNdjson(res, await this.archives.stream(username, q, q.withEvents === true, viewer));
      return;
    }
    res.json(await this.archives.page(username, q, viewer));
  }

  @ApiBearerAuth()
  @Post('matches/export')
  @HttpCode(200)
  @ApiProduces('application/x-ndjson')
  @ApiOperation({
    operationId: 'exportMatches',
    summary: 'Several finished matches as NDJSON: {"id", "export": "<JSON Lines>"} per line, or {"id", "error": {"code", "message"}}',
  })
  @ApiOkResponse({ description: 'One line per id, in the order given.', schema: { type: 'string' } })
  async exportBatch(@Body() body: BatchExportInput, @Req() req: Request & { user?: Principal }, @Res() res: Response): Promise<void> {
    await sendNdjson(res, await this.archives.exportBatch(body.ids, req.user?.username ?? null));
  }

  @ApiBearerAuth()
  @RequireScope(MATCH_PLAY)
  @Post('matches/import')
  @HttpCode(200)
  @ApiConsumes('application/json', 'text/plain', 'application/x-ndjson')
  @ApiBody({ type: ImportInput, description: 'JSON {"export": "<JSON Lines>"}, or the JSON Lines text itself as text/plain or application/x-ndjson.' })
  @ApiOperation({
    operationId: 'importMatch',
    summary: 'Import the export of a finished match (sound by the offline audit): a read-only imported match, never rated',
    description:
      "Signed by this service: answers with the match itself. Signed by a trusted issuer (IMPORT_TRUSTED_ISSUERS): stored with its seats as username@host. A signature that does not verify: 400. Unsigned or untrusted: stored unverified, listed only in the importer's own archive.",
  })
  @ApiOkResponse({ type: ImportResultModel, description: 'Already imported: the first import.' })
  @ApiCreatedResponse({ type: ImportResultModel, description: 'Imported.' })
  async importMatch(@Caller() caller: Principal, @Body() body: ImportInput | string, @Res({ passthrough: true }) res: Response): Promise<ImportResultModel> {
    const result = await this.archives.importExport(typeof body === 'string' ? body : body?.export, caller.username);
    res.status(result.created ? 201 : 200);
    return result;
  }
}
