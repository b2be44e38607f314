import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver, Subscription } from '@nestjs/graphql';
import { RequireScope, Caller, MATCH_PLAY } from '../common/principal';
import type { Principal } from '../common/principal';
import { MatchChatEnum } from '../common/match-fields';
import { MatchesService } from './matches.service';
import { RematchesService } from './rematches.service';
import { RematchOfferModel } from './rematch.model';
import type { LiveEvent, TurnNotice } from './matches.service';
import {
  ClientSeedInput,
  CommandInput,
  CreateMatchInput,
  DeclareHandInput,
  JoinInput,
  LiveEventsArgs,
  MatchArgs,
  MatchEventsArgs,
  MatchListQuery,
  PlayInput,
  seatRequests,
} from './match.input';
import {
  AuditModel,
  LegalPlaysModel,
  LiveEventModel,
  MatchEventModel,
  MatchModel,
  MatchSettingsModel,
  MatchSummaryModel,
  RatingChangeModel,
  SeatPublicModel,
  TurnNoticeKindEnum,
  TurnNoticeModel,
} from './match.model';

@Resolver()
export class MatchesResolver {
  constructor(
    private readonly api: MatchesService,
    private readonly rematches: RematchesService,
  ) {}

  @RequireScope(MATCH_PLAY)
  @Mutation(() => RematchOfferModel, {
    description:
      'Ask for a rematch of a finished match; when every human player has (bots count as accepting), the rematch is made and started (newMatchId), seats rotated. The offer lapses after REMATCH_TTL or a decline. BLOCKED when a block stands between two of its players.',
  })
  rematch(@Caller() caller: Principal, @Args('matchId', { type: () => ID }) matchId: string): Promise<RematchOfferModel> {
    return this.rematches.ask(caller, matchId);
  }

  @RequireScope(MATCH_PLAY)
  @Mutation(() => RematchOfferModel, { description: 'Decline the open rematch offer of a finished match: it lapses.' })
  declineRematch(@Caller() caller: Principal, @Args('matchId', { type: () => ID }) matchId: string): Promise<RematchOfferModel> {
    return this.rematches.decline(caller, matchId);
  }

  @Query(() => RematchOfferModel, { description: 'The rematch offer of a finished match, as it stands.' })
  rematchOffer(@Args('matchId', { type: () => ID }) matchId: string): Promise<RematchOfferModel> {
    return this.rematches.offer(matchId);
  }

  @Query(() => MatchModel, {
    description: 'A match as I may see it: my seat, a spectator view, or everything once over. atSeq: replay (spectator view before the end).',
  })
  match(@Caller() caller: Principal, @Args() args: MatchArgs): Promise<MatchModel> {
    return this.api.present(caller, args.id, args.atSeq ?? undefined);
  }

  @Query(() => [MatchSummaryModel], { description: 'Matches where I hold or am invited to a seat.' })
  myMatches(@Caller() caller: Principal, @Args() q: MatchListQuery): Promise<MatchSummaryModel[]> {
    return this.api.myMatches(caller, q) as Promise<MatchSummaryModel[]>;
  }

  @Query(() => LegalPlaysModel, { description: 'My legal plays and the hand declarations open to me now (empty when it is not my turn).' })
  legalPlays(@Caller() caller: Principal, @Args('matchId', { type: () => ID }) matchId: string): Promise<LegalPlaysModel> {
    return this.api.legalPlays(caller, matchId);
  }

  @Query(() => [MatchEventModel], { description: 'The event log from a seq (public).' })
  matchEvents(@Caller() caller: Principal, @Args() args: MatchEventsArgs): Promise<MatchEventModel[]> {
    return this.api.events(args.matchId, args.fromSeq ?? 1, args.limit ?? 100, caller.username);
  }

  @Query(() => AuditModel, { description: 'The audit verdict (hash chain; once over, every command re-decided from the revealed seed).' })
  audit(@Caller() caller: Principal, @Args('matchId', { type: () => ID }) matchId: string): Promise<AuditModel> {
    return this.api.verify(matchId, caller.username);
  }

  @RequireScope(MATCH_PLAY)
  @Mutation(() => MatchModel)
  createMatch(@Caller() caller: Principal, @Args('input') input: CreateMatchInput): Promise<MatchModel> {
    return this.api.create(caller, { ...input, seats: seatRequests(input.seats) });
  }

  @RequireScope(MATCH_PLAY)
  @Mutation(() => MatchModel)
  joinMatch(
    @Caller() caller: Principal,
    @Args('matchId', { type: () => ID }) matchId: string,
    @Args('input', { type: () => JoinInput, nullable: true }) input?: JoinInput,
  ): Promise<MatchModel> {
    return this.api.join(caller, matchId, input?.seat ?? undefined, input?.clientSeed ?? undefined, input ?? {});
  }

  @RequireScope(MATCH_PLAY)
  @Mutation(() => MatchModel, {
    description: 'Give my client seed (once, before the start; public at once). The last human seed missing deals a pending start at once.',
  })
  setClientSeed(@Caller() caller: Principal, @Args('matchId', { type: () => ID }) matchId: string, @Args('input') input: ClientSeedInput): Promise<MatchModel> {
    return this.api.setClientSeed(caller, matchId, input.clientSeed, input);
  }

  @RequireScope(MATCH_PLAY)
  @Mutation(() => MatchModel, {
    description:
      'Start the match; while a human seat has not given its client seed, the match stays open with startsAt (it deals once every human seat has, or then).',
  })
  startMatch(
    @Caller() caller: Principal,
    @Args('matchId', { type: () => ID }) matchId: string,
    @Args('input', { type: () => CommandInput, nullable: true }) input?: CommandInput,
  ): Promise<MatchModel> {
    return this.api.start(caller, matchId, input ?? {});
  }

  @RequireScope(MATCH_PLAY)
  @Mutation(() => MatchModel, { description: 'Play a card, capturing the cards named (or none).' })
  play(@Caller() caller: Principal, @Args('matchId', { type: () => ID }) matchId: string, @Args('input') input: PlayInput): Promise<MatchModel> {
    return this.api.play(caller, matchId, input.card, input.capture, input);
  }

  @RequireScope(MATCH_PLAY)
  @Mutation(() => MatchModel, {
    description:
      'Declare my hand (cirulla) before playing from it, naming the matta value when it holds the matta; DECLARATION_NOT_ALLOWED with the reason otherwise.',
  })
  declareHand(@Caller() caller: Principal, @Args('matchId', { type: () => ID }) matchId: string, @Args('input') input: DeclareHandInput): Promise<MatchModel> {
    return this.api.declareHand(caller, matchId, input.mattaValue, input);
  }

  @RequireScope(MATCH_PLAY)
  @Mutation(() => MatchModel)
  resign(
    @Caller() caller: Principal,
    @Args('matchId', { type: () => ID }) matchId: string,
    @Args('input', { type: () => CommandInput, nullable: true }) input?: CommandInput,
  ): Promise<MatchModel> {
    return this.api.resign(caller, matchId, input ?? {});
  }

  @RequireScope(MATCH_PLAY)
  @Mutation(() => MatchModel, {
    description:
      'Abort the match: any seated player, before the first play. It ends with no result (reason aborted) and is never rated; ABORT_TOO_LATE after the first play; ABORT_NOT_ALLOWED at a tournament table once dealt.',
  })
  abort(
    @Caller() caller: Principal,
    @Args('matchId', { type: () => ID }) matchId: string,
    @Args('input', { type: () => CommandInput, nullable: true }) input?: CommandInput,
  ): Promise<MatchModel> {
    return this.api.abort(caller, matchId, input ?? {});
  }

  @Subscription(() => LiveEventModel, {
    description: 'The events of a match from fromSeq: the missed ones, then live; each with the match as I may see it after it.',
    resolve: (value: LiveEvent) => value,
  })
  matchEventsLive(@Caller() caller: Principal, @Args() args: LiveEventsArgs): Promise<AsyncIterableIterator<LiveEvent>> {
    return this.api.follow(caller, args.matchId, args.fromSeq ?? 1);
  }

  @Subscription(() => TurnNoticeModel, {
    description: 'A notice each time it becomes my turn in any of my matches (kind yourTurn), and once per turn when my clock runs low (kind clockLow).',
    resolve: (value: TurnNotice) => value,
  })
  myTurn(@Caller() caller: Principal): AsyncIterableIterator<TurnNotice> {
    return this.api.myTurns(caller);
  }
}

/** Match.ratingChanges: asked for only when a client selects it. */
@Resolver(() => MatchModel)
export class MatchFieldsResolver {
  constructor(
    private readonly api: MatchesService,
    private readonly rematches: RematchesService,
  ) {}

  @ResolveField(() => ID, { nullable: true, description: 'The match this one is a rematch of (null: none).' })
  async rematchOf(@Parent() match: MatchModel): Promise<string | null> {
    if (match.rematchOf !== undefined) return match.rematchOf;
    return this.rematches.rematchOf(match.id);
  }

  @ResolveField(() => [RatingChangeModel], {
    nullable: true,
    description:
      "Once a rated match is over: each rated player's rating before and after, with RD and volatility; null until its end is taken into the ratings, and for unrated matches.",
  })
  async ratingChanges(@Parent() match: MatchModel): Promise<RatingChangeModel[] | null> {
    if (match.ratingChanges !== undefined) return match.ratingChanges;
    if (match.status !== 'over' || !match.view?.settings?.rated) return null;
    return this.api.ratingChanges(match.id);
  }

  @ResolveField(() => String, {
    nullable: true,
    description:
      'A rated match that is over and taken into the ratings but did not count: why (e.g. a side left before every side had played a card: an abort for the ratings); null when it counted, for unrated matches and before the ratings take it.',
  })
  async unratedReason(@Parent() match: MatchModel): Promise<string | null> {
    if (match.unratedReason !== undefined) return match.unratedReason;
    if (match.status !== 'over' || !match.view?.settings?.rated) return null;
    return this.api.unratedReason(match.id);
  }

  @ResolveField(() => Date, {
    nullable: true,
    description: 'While a start waits for the client seeds: when it deals at the latest (docs/fairness.md, "Player-contributed seeds"); null otherwise.',
  })
  async startsAt(@Parent() match: MatchModel): Promise<Date | null> {
    if (match.startsAt !== undefined) return match.startsAt;
    if (match.status !== 'open') return null;
    return this.api.startsAt(match.id);
  }
}

/** SeatPublic.online and lastSeen: presence, asked for only when selected (never from the log). */
@Resolver(() => SeatPublicModel)
export class SeatPresenceResolver {
  constructor(private readonly api: MatchesService) {}

  @ResolveField(() => Boolean, {
    nullable: true,
    description:
      "Whether the seat's player holds an open live connection (graphql-ws or a stream) on any instance; null for an open or bot seat, and to a caller without a seat in the match.",
  })
  async online(@Parent() seat: SeatPublicModel): Promise<boolean | null> {
    if (seat.online !== undefined) return seat.online;
    if (!seat.player || seat.bot) return null;
    return (await this.api.presenceOf(seat.player)).online;
  }

  @ResolveField(() => Date, {
    nullable: true,
    description: 'When the player was last online (null: online now, an open or bot seat, or not seen since the service started).',
  })
  async lastSeen(@Parent() seat: SeatPublicModel): Promise<Date | null> {
    if (seat.lastSeen !== undefined) return seat.lastSeen;
    if (!seat.player || seat.bot) return null;
    return (await this.api.presenceOf(seat.player)).lastSeen;
  }

  @ResolveField(() => Date, {
    nullable: true,
    description:
      'When the seat\'s player\'s vacation ends: their turn clocks in correspondence matches stand still until then (docs/async-play.md "Vacations"); null when not on vacation, for an open or bot seat, and in a match that is over.',
  })
  async onVacationUntil(@Parent() seat: SeatPublicModel): Promise<Date | null> {
    if (seat.onVacationUntil !== undefined) return seat.onVacationUntil;
    if (!seat.player || seat.bot) return null;
    return this.api.onVacationUntil(seat.player);
  }
}

@Resolver(() => TurnNoticeModel)
export class TurnNoticeResolver {
  @ResolveField(() => TurnNoticeKindEnum, { description: 'Why the notice was sent.' })
  kind(@Parent() notice: TurnNoticeModel): string {
    return notice.kind ?? 'yourTurn';
  }
}

@Resolver(() => MatchSettingsModel)
export class MatchSettingsResolver {
  @ResolveField(() => Boolean, { description: 'A rated match (docs/ratings.md, "Creating a rated match").' })
  rated(@Parent() settings: MatchSettingsModel): boolean {
    return settings.rated === true;
  }

  @ResolveField(() => MatchChatEnum, { description: "The players' chat room: players (the default) or off (closed)." })
  chat(@Parent() settings: MatchSettingsModel): string {
    return settings.chat === 'off' ? 'off' : 'players';
  }
}
