import { Args, ID, Int, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { RequireScope, Caller } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { MatchesService } from './matches.service';
import type { LiveEvent, TurnNotice } from './matches.service';
import { CommandInput, CreateMatchInput, JoinInput, MatchStatusEnum, PlayInput } from './match.input';
import type { SeatInput } from './match.input';
import { AuditModel, LegalPlaysModel, LiveEventModel, MatchEventModel, MatchModel, MatchSummaryModel, TurnNoticeModel } from './match.model';
import type { SeatRequest } from './matches.service';

export function seatRequests(seats: SeatInput[] | undefined): SeatRequest[] | undefined {
  return seats?.map((s) => ({ type: s.type, username: s.username ?? '', bot: s.bot }) as SeatRequest);
}

@Resolver()
export class MatchesResolver {
  constructor(private readonly api: MatchesService) {}

  @Query(() => MatchModel, { description: 'A match as I may see it: my seat, a spectator view, or everything once over. atSeq: replay (spectator view before the end).' })
  match(
    @Caller() caller: Principal,
    @Args('id', { type: () => ID }) id: string,
    @Args('atSeq', { type: () => Int, nullable: true }) atSeq?: number,
  ): Promise<MatchModel> {
    return this.api.present(caller, id, atSeq ?? undefined) as Promise<MatchModel>;
  }

  @Query(() => [MatchSummaryModel], { description: 'Matches where I hold or am invited to a seat.' })
  myMatches(
    @Caller() caller: Principal,
    // Typed `${MatchStatusEnum}`, not the enum: under swc the enum object becomes the parameter's
    // metatype and the global ValidationPipe refuses every call ("an unknown value was passed").
    @Args('status', { type: () => MatchStatusEnum, nullable: true }) status?: `${MatchStatusEnum}`,
    @Args('myTurn', { type: () => Boolean, nullable: true }) myTurn?: boolean,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
    @Args('offset', { type: () => Int, nullable: true }) offset?: number,
  ): Promise<MatchSummaryModel[]> {
    return this.api.myMatches(caller, status, myTurn ?? undefined, limit ?? undefined, offset ?? undefined) as Promise<MatchSummaryModel[]>;
  }

  @Query(() => LegalPlaysModel, { description: 'My legal plays now (empty when it is not my turn).' })
  legalPlays(@Caller() caller: Principal, @Args('matchId', { type: () => ID }) matchId: string): Promise<LegalPlaysModel> {
    return this.api.legalPlays(caller, matchId);
  }

  @Query(() => [MatchEventModel], { description: 'The event log from a seq (public).' })
  matchEvents(
    @Args('matchId', { type: () => ID }) matchId: string,
    @Args('fromSeq', { type: () => Int, nullable: true }) fromSeq?: number,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
  ): Promise<MatchEventModel[]> {
    return this.api.events(matchId, fromSeq ?? 1, limit ?? 100);
  }

  @Query(() => AuditModel, { description: 'The audit verdict (hash chain; once over, every command re-decided from the revealed seed).' })
  audit(@Args('matchId', { type: () => ID }) matchId: string): Promise<AuditModel> {
    return this.api.verify(matchId);
  }

  @RequireScope('play')
  @Mutation(() => MatchModel)
  createMatch(@Caller() caller: Principal, @Args('input') input: CreateMatchInput): Promise<MatchModel> {
    return this.api.create(caller, { ...input, seats: seatRequests(input.seats) }) as Promise<MatchModel>;
  }

  @RequireScope('play')
  @Mutation(() => MatchModel)
  joinMatch(
    @Caller() caller: Principal,
    @Args('matchId', { type: () => ID }) matchId: string,
    @Args('input', { type: () => JoinInput, nullable: true }) input?: JoinInput,
  ): Promise<MatchModel> {
    return this.api.join(caller, matchId, input?.seat ?? undefined, input ?? {}) as Promise<MatchModel>;
  }

  @RequireScope('play')
  @Mutation(() => MatchModel)
  startMatch(
    @Caller() caller: Principal,
    @Args('matchId', { type: () => ID }) matchId: string,
    @Args('input', { type: () => CommandInput, nullable: true }) input?: CommandInput,
  ): Promise<MatchModel> {
    return this.api.start(caller, matchId, input ?? {}) as Promise<MatchModel>;
  }

  @RequireScope('play')
  @Mutation(() => MatchModel, { description: 'Play a card, capturing the cards named (or none).' })
  play(@Caller() caller: Principal, @Args('matchId', { type: () => ID }) matchId: string, @Args('input') input: PlayInput): Promise<MatchModel> {
    return this.api.play(caller, matchId, input.card, input.capture, input) as Promise<MatchModel>;
  }

  @RequireScope('play')
  @Mutation(() => MatchModel)
  resign(
    @Caller() caller: Principal,
    @Args('matchId', { type: () => ID }) matchId: string,
    @Args('input', { type: () => CommandInput, nullable: true }) input?: CommandInput,
  ): Promise<MatchModel> {
    return this.api.resign(caller, matchId, input ?? {}) as Promise<MatchModel>;
  }

  @Subscription(() => LiveEventModel, {
    description: 'The events of a match from fromSeq: the missed ones, then live; each with the match as I may see it after it.',
    resolve: (value: LiveEvent) => value,
  })
  matchEventsLive(
    @Caller() caller: Principal,
    @Args('matchId', { type: () => ID }) matchId: string,
    @Args('fromSeq', { type: () => Int, nullable: true }) fromSeq?: number,
  ): Promise<AsyncIterableIterator<LiveEvent>> {
    return this.api.follow(caller, matchId, fromSeq ?? 1);
  }

  @Subscription(() => TurnNoticeModel, { description: 'A notice each time it becomes my turn in any of my matches.', resolve: (value: TurnNotice) => value })
  myTurn(@Caller() caller: Principal): AsyncIterableIterator<TurnNotice> {
    return this.api.myTurns(caller);
  }
}
