import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver, Subscription } from '@nestjs/graphql';
import { Caller, RequireScope, TOURNAMENT_WRITE } from '../common/principal';
import type { Principal } from '../common/principal';
import { Public } from '../common/public.decorator';
import { TournamentsService } from './tournaments.service';
import type { TournamentUpdate } from './tournaments.service';
import { CreateTournamentInput, JoinTournamentInput, TournamentListQuery } from './tournament.input';
import { RoundModel, StandingModel, TournamentModel, TournamentPageModel, TournamentUpdateModel } from './tournament.model';

@Resolver()
export class TournamentsResolver {
  constructor(private readonly service: TournamentsService) {}

  @Public()
  @Query(() => TournamentModel, { description: 'A tournament (docs/tournaments.md).' })
  tournament(@Args('id', { type: () => ID, description: 'The tournament.' }) id: string): Promise<TournamentModel> {
    return this.service.get(id);
  }

  @Public()
  @Query(() => TournamentPageModel, { description: 'Tournaments, newest first, in cursor pages (public ones, and private ones I created or joined).' })
  tournaments(@Args() q: TournamentListQuery, @Context('req') req?: { user?: Principal }): Promise<TournamentPageModel> {
    return this.service.list({ status: q.status, format: q.format }, q.first ?? 20, q.after ?? null, req?.user?.username ?? null);
  }

  @RequireScope(TOURNAMENT_WRITE)
  @Mutation(() => TournamentModel, { description: 'Create a tournament: players join until it starts (at startsAt, or when I start it).' })
  createTournament(@Caller() caller: Principal, @Args('input', { description: 'Its settings.' }) input: CreateTournamentInput): Promise<TournamentModel> {
    return this.service.create(caller, input);
  }

  @RequireScope(TOURNAMENT_WRITE)
  @Mutation(() => TournamentModel, { description: 'Join a tournament before it starts (optionally with my client seed).' })
  joinTournament(
    @Caller() caller: Principal,
    @Args('id', { type: () => ID, description: 'The tournament.' }) id: string,
    @Args('input', { nullable: true, description: 'My client seed, if I give one.' }) input?: JoinTournamentInput,
  ): Promise<TournamentModel> {
    return this.service.join(caller, id, input?.clientSeed ?? null);
  }

  @RequireScope(TOURNAMENT_WRITE)
  @Mutation(() => TournamentModel, { description: 'Withdraw: before the start I leave the field; after it my remaining games are forfeited.' })
  withdrawFromTournament(@Caller() caller: Principal, @Args('id', { type: () => ID, description: 'The tournament.' }) id: string): Promise<TournamentModel> {
    return this.service.withdraw(caller, id);
  }

  @RequireScope(TOURNAMENT_WRITE)
  @Mutation(() => TournamentModel, { description: 'Start my tournament now: the first round is paired and its matches made.' })
  startTournament(@Caller() caller: Principal, @Args('id', { type: () => ID, description: 'The tournament.' }) id: string): Promise<TournamentModel> {
    return this.service.start(caller, id);
  }

  @RequireScope(TOURNAMENT_WRITE)
  @Mutation(() => TournamentModel, { description: 'Cancel my tournament before it starts.' })
  cancelTournament(@Caller() caller: Principal, @Args('id', { type: () => ID, description: 'The tournament.' }) id: string): Promise<TournamentModel> {
    return this.service.cancel(caller, id);
  }

  @Subscription(() => TournamentUpdateModel, {
    description: 'What happens in a tournament from now on: joined, withdrew, started, paired, result, roundEnded, ended, cancelled.',
    resolve: (value: TournamentUpdate) => value,
  })
  tournamentUpdated(@Args('id', { type: () => ID, description: 'The tournament.' }) id: string): Promise<AsyncIterableIterator<TournamentUpdate>> {
    return this.service.follow(id);
  }
}

/** Tournament.standings and Tournament.rounds: computed only when a client selects them. */
@Resolver(() => TournamentModel)
export class TournamentFieldsResolver {
  constructor(private readonly tournaments: TournamentsService) {}

  @ResolveField(() => [StandingModel], { description: 'The standings now (docs/tournaments.md "Standings").' })
  standings(@Parent() t: TournamentModel): Promise<StandingModel[]> {
    return this.tournaments.standings(t.id);
  }

  @ResolveField(() => RoundModel, { nullable: true, description: 'A round by number (from 1): pairings and results; null before it is paired.' })
  async round(@Parent() t: TournamentModel, @Args('n', { type: () => Int, description: 'The round, from 1.' }) n: number): Promise<RoundModel | null> {
    return n >= 1 && n <= t.currentRound ? this.tournaments.round(t.id, n) : null;
  }
}
