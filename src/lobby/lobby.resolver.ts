import { Args, ID, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { CHALLENGE_WRITE, Caller, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { CreateSeekInput, LobbyChangeModel, LobbyFilterArgs, LobbyPageModel, LobbyQuery, SeekModel } from './lobby.model';
import { LobbyService } from './lobby.service';
import { SeeksService } from './seeks.service';

@Resolver()
export class LobbyResolver {
  constructor(
    private readonly lobby: LobbyService,
    private readonly seeks: SeeksService,
  ) {}

  @Query(() => LobbyPageModel, {
    name: 'lobby',
    description: 'Public matches with a seat I may take, newest first; `next` is the cursor of the following page.',
  })
  page(@Caller() caller: Principal, @Args() q: LobbyQuery): Promise<LobbyPageModel> {
    return this.lobby.page(caller.username, q, q.limit ?? 20, q.after);
  }

  @Subscription(() => LobbyChangeModel, {
    name: 'lobby',
    description: 'The lobby as I may see it, from now on: matches added, updated (a seat taken) and removed (full, started, ended).',
    resolve: (value: LobbyChangeModel) => value,
  })
  changes(@Caller() caller: Principal, @Args() f: LobbyFilterArgs): AsyncIterableIterator<unknown> {
    return this.lobby.changes(caller.username, f);
  }

  @RequireScope(CHALLENGE_WRITE)
  @Mutation(() => SeekModel, {
    description:
      'Seek a match with whoever fits; an identical open seek of mine is returned as it is. Paired into a new match when enough compatible seeks exist (seekPaired on my event stream, match_started webhook).',
  })
  async createSeek(@Caller() caller: Principal, @Args('input') input: CreateSeekInput): Promise<SeekModel> {
    return (await this.seeks.create(caller, input)).seek;
  }

  @RequireScope(CHALLENGE_WRITE)
  @Mutation(() => SeekModel, { description: 'Cancel my seek (CONFLICT, with matchId, once paired).' })
  cancelSeek(@Caller() caller: Principal, @Args('id', { type: () => ID }) id: string): Promise<SeekModel> {
    return this.seeks.cancel(caller, id);
  }

  @Query(() => [SeekModel], { description: 'My open seeks, then those ended in the last 24 hours (paired ones with their match), newest first.' })
  mySeeks(@Caller() caller: Principal): Promise<SeekModel[]> {
    return this.seeks.mine(caller);
  }
}
