import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CHALLENGE_WRITE, Caller, PROFILE_READ, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { ChallengesService } from './challenges.service';
import { AccountSettingsInput, ChallengeInput, DeclineChallengeInput } from './challenge.input';
import { AccountSettingsModel, ChallengeModel, MyChallengesModel } from './challenge.model';
import { ApiErrors } from '../common/api-errors';

@ApiTags('challenges')
@ApiBearerAuth()
@Controller('v1')
export class ChallengesController {
  constructor(private readonly challenges: ChallengesService) {}

  @RequireScope(CHALLENGE_WRITE)
  @Post('challenges')
  @ApiOperation({ operationId: 'challenge', summary: 'Challenge an account to a two-player match (it learns of it on its event stream, inbox and webhooks)' })
  @ApiCreatedResponse({ type: ChallengeModel })
  @ApiErrors('INVALID_RULESET', 'INVALID_COMMAND', 'NOT_FOUND', 'CHALLENGE_REFUSED', 'BLOCKED', 'LIMIT_REACHED', 'RATED_PLAY_SUSPENDED')
  create(@Caller() caller: Principal, @Body() body: ChallengeInput): Promise<ChallengeModel> {
    return this.challenges.challenge(caller, body);
  }

  @Get('challenges')
  @ApiOperation({ operationId: 'myChallenges', summary: 'My pending challenges, received (in) and sent (out)' })
  @ApiOkResponse({ type: MyChallengesModel })
  mine(@Caller() caller: Principal): Promise<MyChallengesModel> {
    return this.challenges.mine(caller);
  }

  @Get('challenges/:id')
  @ApiOperation({ operationId: 'getChallenge', summary: 'One of my challenges (sent or received)' })
  @ApiOkResponse({ type: ChallengeModel })
  get(@Caller() caller: Principal, @Param('id') id: string): Promise<ChallengeModel> {
    return this.challenges.get(caller, id);
  }

  @RequireScope(CHALLENGE_WRITE)
  @Post('challenges/:id/accept')
  @HttpCode(200)
  @ApiOperation({ operationId: 'acceptChallenge', summary: 'Accept a challenge made to me: the match is created and started at once (matchId)' })
  @ApiOkResponse({ type: ChallengeModel })
  @ApiErrors('CONFLICT', 'BLOCKED', 'RATED_PLAY_SUSPENDED')
  accept(@Caller() caller: Principal, @Param('id') id: string): Promise<ChallengeModel> {
    return this.challenges.accept(caller, id);
  }

  @RequireScope(CHALLENGE_WRITE)
  @Post('challenges/:id/decline')
  @HttpCode(200)
  @ApiOperation({ operationId: 'declineChallenge', summary: 'Decline a challenge made to me, with a reason' })
  @ApiOkResponse({ type: ChallengeModel })
  @ApiErrors('CONFLICT')
  decline(@Caller() caller: Principal, @Param('id') id: string, @Body() body: DeclineChallengeInput): Promise<ChallengeModel> {
    return this.challenges.decline(caller, id, body.reason);
  }

  @RequireScope(CHALLENGE_WRITE)
  @Post('challenges/:id/cancel')
  @HttpCode(200)
  @ApiOperation({ operationId: 'cancelChallenge', summary: 'Cancel a challenge I made' })
  @ApiOkResponse({ type: ChallengeModel })
  @ApiErrors('CONFLICT')
  cancel(@Caller() caller: Principal, @Param('id') id: string): Promise<ChallengeModel> {
    return this.challenges.cancel(caller, id);
  }

  @RequireScope(PROFILE_READ)
  @Get('account')
  @ApiOperation({ operationId: 'accountSettings', summary: 'My account settings (acceptChallenges, language)' })
  @ApiOkResponse({ type: AccountSettingsModel })
  settings(@Caller() caller: Principal): Promise<AccountSettingsModel> {
    return this.challenges.settings(caller.username);
  }

  @RequireScope(CHALLENGE_WRITE)
  @Patch('account')
  @ApiOperation({
    operationId: 'updateAccount',
    summary: 'Change my account settings: acceptChallenges none | known | everyone; language en | it | fr | es | ar, or null (none chosen)',
  })
  @ApiOkResponse({ type: AccountSettingsModel })
  update(@Caller() caller: Principal, @Body() body: AccountSettingsInput): Promise<AccountSettingsModel> {
    return this.challenges.updateSettings(caller, body);
  }
}
