import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Caller } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { InboxService } from './inbox.service';
import { InboxEntryModel } from './inbox.model';

export class InboxQuery {
  @ApiPropertyOptional({ default: 50 }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(500) limit?: number;
}

@ApiTags('inbox')
@ApiBearerAuth()
@Controller('v1/inbox')
export class InboxController {
  constructor(private readonly inbox: InboxService) {}

  @Get()
  @ApiOperation({ operationId: 'inbox', summary: 'My turn across all my matches, soonest deadline first (untimed last)' })
  @ApiOkResponse({ type: [InboxEntryModel] })
  list(@Caller() caller: Principal, @Query() q: InboxQuery): Promise<InboxEntryModel[]> {
    return this.inbox.myTurn(caller.username, q.limit ?? 50);
  }
}
