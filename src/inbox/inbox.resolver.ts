import { Args, Int, Query, Resolver } from '@nestjs/graphql';
import { Caller } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { InboxService } from './inbox.service';
import { InboxEntryModel } from './inbox.model';

@Resolver()
export class InboxResolver {
  constructor(private readonly service: InboxService) {}

  @Query(() => [InboxEntryModel], { description: 'My turn across all my matches, soonest deadline first (untimed matches last, oldest turn first).' })
  inbox(@Caller() caller: Principal, @Args('limit', { type: () => Int, nullable: true }) limit?: number): Promise<InboxEntryModel[]> {
    return this.service.myTurn(caller.username, limit ?? 50);
  }
}
