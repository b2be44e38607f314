import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller } from '../common/principal';
import type { Principal } from '../common/principal';
import { InboxService } from './inbox.service';
import { InboxEntryModel, InboxQuery } from './inbox.model';

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
