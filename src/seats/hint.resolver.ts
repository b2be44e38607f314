import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import { Caller } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { BotLevelEnum } from '../matches/match.input';
import { HintService } from './hint.service';
import { HintModel } from './hint.model';

@Resolver()
export class HintResolver {
  constructor(private readonly hints: HintService) {}

  @Query(() => HintModel, { description: 'What the bot of `level` (default greedy) would play for my seat now: my own seat, my turn only.' })
  hint(
    @Caller() caller: Principal,
    @Args('matchId', { type: () => ID }) matchId: string,
    @Args('level', { type: () => BotLevelEnum, nullable: true }) level?: string,
  ): Promise<HintModel> {
    return this.hints.hint(caller.username, matchId, level ?? 'greedy');
  }
}
