import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, PROFILE_READ, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { ApiErrors } from '../common/api-errors';
import { AdminJobModel, AdminJobsQuery } from './admin.model';
import { AdminService } from './admin.service';

@ApiTags('admin')
@ApiBearerAuth()
@Controller('v1/admin')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @RequireScope(PROFILE_READ)
  @Get('jobs')
  @ApiErrors('FORBIDDEN')
  @ApiOperation({
    operationId: 'listFailedJobs',
    summary: 'The jobs that failed for good (dead letters), newest first, with their error: for the admin role (ADMIN_USERS)',
  })
  @ApiOkResponse({ type: [AdminJobModel] })
  jobs(@Caller() caller: Principal, @Query() q: AdminJobsQuery): Promise<AdminJobModel[]> {
    return this.admin.failedJobs(caller, q);
  }
}
