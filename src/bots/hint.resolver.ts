import { Args, Query, Resolver } from '@nestjs/graphql';
import { Caller } from '../common/principal';
import type { Principal } from '../common/principal';
import { HintService } from './hint.service';
import { HintArgs, HintModel } from './hint.model';

@Resolver()
export class HintResolver {
  constructor(private readonly hints: HintService) {}

  @Query(() => HintModel, { description: 'What the bot of `level` (default greedy) would play for my seat now: my own seat, my turn only.' })
  hint(@Caller() caller: Principal, @Args() args: HintArgs): Promise<HintModel> {
    return this.hints.hint(caller.username, args.matchId, args.level ?? 'greedy');
  }
}
