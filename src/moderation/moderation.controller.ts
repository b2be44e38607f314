import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors';
import { Caller, PROFILE_READ, RequireScope, SessionOnly } from '../common/principal';
import type { Principal } from '../common/principal';
import { BanInput, MuteInput, ReportInput, ReportsQuery, ResolveReportInput, UnmuteInput } from './moderation.input';
import { BanModel, MuteModel, ReportModel, ReportPageModel } from './moderation.model';
import { ModerationService } from './moderation.service';

const MODERATORS_ONLY = 'for moderators (docs/social.md "Reports and moderation"; anyone else: FORBIDDEN)';

@ApiTags('moderation')
@ApiBearerAuth()
@Controller('v1')
export class ModerationController {
  constructor(private readonly moderation: ModerationService) {}

  @Post('reports')
  @ApiOperation({ operationId: 'report', summary: 'Report a user, a chat message or a match to the moderators (exactly one target), with a reason' })
  @ApiCreatedResponse({ type: ReportModel })
  @ApiErrors('NOT_FOUND')
  report(@Caller() caller: Principal, @Body() body: ReportInput): Promise<ReportModel> {
    return this.moderation.report(caller, body.target, body.reason);
  }

  @RequireScope(PROFILE_READ)
  @Get('admin/reports')
  @ApiOperation({
    operationId: 'listReports',
    summary: `The reports of a status (open by default, or resolved), oldest first, in cursor pages: ${MODERATORS_ONLY}`,
  })
  @ApiOkResponse({ type: ReportPageModel })
  reports(@Caller() caller: Principal, @Query() q: ReportsQuery): Promise<ReportPageModel> {
    return this.moderation.reports(caller, q.status, q.first, q.after);
  }

  @SessionOnly()
  @Post('admin/reports/:id/resolve')
  @HttpCode(200)
  @ApiOperation({ operationId: 'resolveReport', summary: `Resolve an open report, saying what was done (logged): ${MODERATORS_ONLY}; a password session` })
  @ApiOkResponse({ type: ReportModel })
  @ApiErrors('CONFLICT')
  resolve(@Caller() caller: Principal, @Param('id') id: string, @Body() body: ResolveReportInput): Promise<ReportModel> {
    return this.moderation.resolveReport(caller, id, body.resolution);
  }

  @SessionOnly()
  @Post('admin/users/:username/mute')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'muteUser',
    summary: `Mute a user until a time in the future: their chat messages are refused (CHAT_MUTED) until then; muting again replaces the end (logged): ${MODERATORS_ONLY}; a password session`,
  })
  @ApiOkResponse({ type: MuteModel })
  mute(@Caller() caller: Principal, @Param('username') username: string, @Body() body: MuteInput): Promise<MuteModel> {
    return this.moderation.mute(caller, username, body.until, body.reason);
  }

  @SessionOnly()
  @Delete('admin/users/:username/mute')
  @HttpCode(204)
  @ApiOperation({ operationId: 'unmuteUser', summary: `Lift a running mute (NOT_FOUND when none runs; logged): ${MODERATORS_ONLY}; a password session` })
  @ApiNoContentResponse({ description: 'Lifted.' })
  async unmute(@Caller() caller: Principal, @Param('username') username: string, @Query() q: UnmuteInput): Promise<void> {
    await this.moderation.unmute(caller, username, q.reason);
  }

  @SessionOnly()
  @Post('admin/users/:username/ban')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'banUser',
    summary: `Ban an account: its sessions, tokens and sockets end on every instance and its login is refused (ACCOUNT_BANNED); logged: ${MODERATORS_ONLY}; a password session`,
  })
  @ApiOkResponse({ type: BanModel })
  @ApiErrors('CONFLICT')
  ban(@Caller() caller: Principal, @Param('username') username: string, @Body() body: BanInput): Promise<BanModel> {
    return this.moderation.ban(caller, username, body.reason);
  }

  @SessionOnly()
  @Delete('admin/users/:username/ban')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'unbanUser',
    summary: `Lift a ban: the account logs in again (what the ban revoked stays revoked); NOT_FOUND when it is not banned; logged: ${MODERATORS_ONLY}; a password session`,
  })
  @ApiNoContentResponse({ description: 'Lifted.' })
  async unban(@Caller() caller: Principal, @Param('username') username: string, @Query() q: UnmuteInput): Promise<void> {
    await this.moderation.unban(caller, username, q.reason);
  }

  @RequireScope(PROFILE_READ)
  @Get('admin/moderation-log')
  @ApiProduces('application/x-ndjson')
  @ApiOperation({
    operationId: 'exportModerationLog',
    summary: `The moderation log as JSON Lines, hash-chained and signed (\`npm run audit\` verifies it; \`--keys\` checks the signature): ${MODERATORS_ONLY}`,
  })
  @ApiOkResponse({
    description:
      'A signed header {format: "scopa-moderation-log/1", logId, events, lastHash, issuer, keyId, signature} (the keys at /.well-known/scopa-keys.json), then one action per line: {logId, seq, type, payload: {target, reason, ...}, actor, time, prevHash, hash}.',
    schema: { type: 'string' },
  })
  async log(@Caller() caller: Principal, @Res({ passthrough: true }) res: Response): Promise<string> {
    const text = await this.moderation.exportLog(caller);
    res.setHeader('content-type', 'application/x-ndjson');
    return text;
  }
}
