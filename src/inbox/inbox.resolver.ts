import { Args, Query, Resolver } from '@nestjs/graphql';
import { Caller } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { InboxService } from './inbox.service';
import { InboxEntryModel, InboxQuery } from './inbox.model';

@Resolver()
export class InboxResolver {
  constructor(private readonly service: InboxService) {}

  @Query(() => [InboxEntryModel], { description: 'My turn across all my matches, soonest deadline first (untimed matches last, oldest turn first).' })
  inbox(@Caller() caller: Principal, @Args() q: InboxQuery): Promise<InboxEntryModel[]> {
    return this.service.myTurn(caller.username, q.limit ?? 50);
  }
}
