import { Args, Query, Resolver, Subscription } from '@nestjs/graphql';
import { Caller } from '../common/principal';
import type { Principal } from '../common/principal';
import { InboxService } from './inbox.service';
import { InboxEntryModel, InboxQuery, PlayerEventModel } from './inbox.model';
import type { PlayerEvent } from './inbox.service';

@Resolver()
export class InboxResolver {
  constructor(private readonly service: InboxService) {}

  @Query(() => [InboxEntryModel], { description: 'My turn across all my matches, soonest deadline first (untimed matches last, oldest turn first).' })
  inbox(@Caller() caller: Principal, @Args() q: InboxQuery): Promise<InboxEntryModel[]> {
    return this.service.myTurn(caller.username, q.limit ?? 50);
  }

  @Subscription(() => PlayerEventModel, {
    description:
      'My events from now on (challenges, seek pairings, my matches started and ended, clock low, rematch offers): every PlayerEventType, as the NDJSON event stream sends them.',
    resolve: (value: PlayerEvent) => value,
  })
  myEvents(@Caller() caller: Principal): AsyncIterableIterator<PlayerEvent> {
    return this.service.myEvents(caller.username);
  }
}
