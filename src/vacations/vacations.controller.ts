import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, MATCH_PLAY, PROFILE_READ, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { ApiErrors } from '../common/api-errors';
import { VacationsService } from './vacations.service';
import { StartVacationInput } from './vacation.input';
import { VacationModel } from './vacation.model';

/** My vacation for correspondence play (docs/async-play.md "Vacations"). */
@ApiTags('async play')
@ApiBearerAuth()
@Controller('v1/account')
export class VacationsController {
  constructor(private readonly vacations: VacationsService) {}

  @RequireScope(PROFILE_READ)
  @Get('vacation')
  @ApiOperation({ operationId: 'vacation', summary: 'My vacation (when it ends, or null) and the days of my allowance left' })
  @ApiOkResponse({ type: VacationModel })
  status(@Caller() caller: Principal): Promise<VacationModel> {
    return this.vacations.status(caller);
  }

  @RequireScope(MATCH_PLAY)
  @Post('vacation')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'startVacation',
    summary:
      'Go on vacation until a time within my allowance (VACATION_DAYS_PER_YEAR in any 365 days): my turn clocks in correspondence matches stand still until then; LIMIT_REACHED beyond the allowance, CONFLICT when already on vacation',
  })
  @ApiOkResponse({ type: VacationModel })
  @ApiErrors('LIMIT_REACHED', 'CONFLICT')
  start(@Caller() caller: Principal, @Body() body: StartVacationInput): Promise<VacationModel> {
    return this.vacations.start(caller, body.until);
  }

  @RequireScope(MATCH_PLAY)
  @Delete('vacation')
  @ApiOperation({
    operationId: 'endVacation',
    summary: 'End my vacation now (nothing when none runs): my correspondence clocks run again with the time they had left',
  })
  @ApiOkResponse({ type: VacationModel })
  end(@Caller() caller: Principal): Promise<VacationModel> {
    return this.vacations.end(caller);
  }
}
