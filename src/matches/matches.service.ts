/**
 * What the transports call for matches: access first (caller first), then
 * the store. What each caller sees of the folded state (seed, deck, hands)
 * is chosen by the view policy (./match-views.ts); nothing else of it
 * leaves this file. What follows an append (notices, bots, metrics) is the
 * store's pipeline (src/reactions/after-append.ts): a command waits for it, so that its
 * response already shows the bots' replies due now (the rest of a bot chain
 * plays off the request path).
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import { decide, isCorrespondence, legalMovesInView, seatOf, seatView, seatsAwaitingClientSeed, sideOf } from '../engine';
import type { BotLevel, Command, Declaration, MatchState, MatchView, PlayCodes, SeatSpec } from '../engine';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../common/principal';
import { AccountsService } from '../auth/accounts.service';
import { VacationsService } from '../vacations/vacations.service';
import { PendingStarts } from '../clocks/pending-starts';
import type { StoredEvent } from '../match-formats/chain';
import { FEED_RESUMES, PUB_SUB } from '../realtime/realtime.module';
import type { FeedResumes, PubSubEngine } from '../realtime/realtime.module';
import { MatchStore } from '../match-store/match-store';
import type { ListOptions, MatchStatus, MatchSummary } from '../match-store/match-store';
import { MatchArchive } from '../match-store/match-archive';
import type { VerifyReport } from '../match-store/match-archive';
import type { CommandKey } from '../match-store/command-key';
import { RatingsService } from '../ratings/ratings.service';
import type { MatchRatingChange } from '../ratings/rating-store';
import { matchChannel, turnChannel } from '../realtime/channels';
import type { MatchNotice, TurnNotice } from '../realtime/channels';
import { LiveFeed } from './live-feed';
import { MatchMaker } from './match-maker';
import { mayBeTable, TournamentTables } from '../match-store/tournament-tables';
import { RematchesService } from './rematches.service';
import { PresenceService } from '../presence/presence.service';
import type { Presence } from '../presence/presence.service';
import { RelationsService } from '../relations/relations.service';
import { replayViews, stripSecrets, viewsFor } from './match-views';
import type { FullView } from './match-views';

export type SeatRequest = { type: 'creator' } | { type: 'open' } | { type: 'reserved'; username: string } | { type: 'bot'; bot: BotLevel };

export interface CreateRequest {
  preset?: string;
  rulesetId?: string;
  overrides?: Record<string, unknown>;
  seats?: SeatRequest[];
  turnTimeLimit?: string | null;
  onExpiry?: 'autoPlay' | 'forfeit';
  rated?: boolean;
  /** public (default) or private: never listed in the lobby, joinable by id. */
  visibility?: 'public' | 'private';
  /** The players' chat room: players (default) or off (src/chat). */
  chat?: 'players' | 'off';
}

/** What chat reads of a match (chatFacts). */
export interface MatchChatFacts {
  over: boolean;
  /** Each seat's person (null: open, or a bot) and side. */
  seats: { player: string | null; side: number }[];
  chat: 'players' | 'off';
}

export interface CommandMeta {
  expectedSeq?: number;
  idempotencyKey?: string;
}

export type { FullView } from './match-views';

/** A match as one caller may see it at one seq. */
export interface MatchPresentation {
  id: string;
  seq: number;
  status: MatchStatus;
  createdBy: string;
  rulesetId: string | null;
  /** Imported from an export (read-only, never rated), as the archive entry says. */
  imported: boolean;
  /** For an imported match: the id of the match it was exported from; else null. */
  sourceId: string | null;
  view: MatchView;
  /** Present once the match is over (seed, every hand, the deck). */
  reveal: FullView | null;
  /** Set on reading a finished rated match (src/ratings); absent in command responses. */
  ratingChanges?: MatchRatingChange[] | null;
  /** Set with ratingChanges: why a finished rated match did not count (null when it did, or before it is taken). */
  unratedReason?: string | null;
  /**
   * While a start waits for the client seeds (docs/fairness.md "Player-contributed
   * seeds"): when it deals at the latest; else null. Absent in live events
   * (GraphQL resolves it on demand).
   */
  startsAt?: Date | null;
  /** The match this one is a rematch of (null: none); set on reads, resolved on demand by GraphQL. */
  rematchOf?: string | null;
}

export interface EventMessage {
  matchId: string;
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  actor: string | null;
  time: Date;
  hash: string;
}

export interface LiveEvent {
  event: EventMessage;
  match: MatchPresentation;
}

// The notices' channels live with the inbox, whose notifier publishes them after every append.
export type { TurnNotice } from '../realtime/channels';

@Injectable()
export class MatchesService {
  constructor(
    private readonly store: MatchStore,
    private readonly archive: MatchArchive,
    private readonly accounts: AccountsService,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
    private readonly ratings: RatingsService,
    private readonly starts: PendingStarts,
    private readonly maker: MatchMaker,
    private readonly rematches: RematchesService,
    private readonly presence: PresenceService,
    private readonly tables: TournamentTables,
    private readonly relations: RelationsService,
    private readonly vacations: VacationsService,
    /** The subscriber connection back after a loss: every live feed reads what it missed from the log (src/realtime/realtime.ts). */
    @Optional() @Inject(FEED_RESUMES) private readonly resumes: FeedResumes | null = null,
  ) {}

  // ------------------------------------------------------------------ commands

  async create(caller: Principal, req: CreateRequest): Promise<MatchPresentation> {
    if (!req.preset && !req.rulesetId) throw new DomainError('VALIDATION_FAILED', 'give a preset or a rulesetId');
    // A rating pool is one ruleset: a rated match plays a preset or a saved ruleset as it is.
    if (req.rated && req.overrides && Object.keys(req.overrides).length > 0) {
      throw new DomainError('VALIDATION_FAILED', 'a rated match takes no overrides: save them as a ruleset and rate that');
    }
    const seats: SeatSpec[] = [];
    for (const [i, s] of (req.seats ?? [{ type: 'creator' }]).entries()) {
      switch (s.type) {
        case 'creator':
          seats.push({ player: caller.username });
          break;
        case 'open':
          seats.push({});
          break;
        case 'reserved': {
          const username = String(s.username ?? '').toLowerCase();
          if (!username || !(await this.accounts.exists(username)))
            throw new DomainError('VALIDATION_FAILED', `seat ${i}: no account ${JSON.stringify(s.username ?? '')}`);
          seats.push({ reservedFor: username });
          break;
        }
        case 'bot':
          seats.push({ bot: s.bot });
          break;
        default:
          throw new DomainError('VALIDATION_FAILED', `seat ${i}: type is creator, open, reserved or bot`);
      }
    }
    const settings: { turnTimeLimit?: string | null; onExpiry?: 'autoPlay' | 'forfeit'; rated?: boolean; chat?: 'players' | 'off' } = {};
    if (req.turnTimeLimit !== undefined) settings.turnTimeLimit = req.turnTimeLimit;
    if (req.onExpiry !== undefined) settings.onExpiry = req.onExpiry;
    if (req.rated) settings.rated = true;
    if (req.chat === 'off') settings.chat = 'off';
    // A saved ruleset is read once per attempt and locked by the statement that creates the match; a match with no
    // human seat plays itself out here (a few live ones per account): both in the one match maker (./match-maker.ts).
    const result = await this.maker.make({
      rules: { preset: req.preset, overrides: req.overrides, rulesetId: req.rulesetId },
      seats,
      createdBy: caller.username,
      settings,
      visibility: req.visibility ?? 'public',
    });
    return this.present(caller, result.matchId);
  }

  async join(caller: Principal, matchId: string, seat: number | undefined, clientSeed: string | undefined, meta: CommandMeta): Promise<MatchPresentation> {
    // Taking a seat of a rated match is accepting it: not while suspended from rated play (src/ratings/rated-play.ts).
    // `rated` is fixed at creation: any cached snapshot tells it (no read).
    const state = this.store.peek(matchId)?.state ?? (await this.store.current(matchId)).state;
    if (state.settings?.rated === true) await this.maker.assertMayPlayRated([caller.username]);
    // Not at one table with a player blocked either way (docs/social.md "Blocks").
    const seated = (state.seats ?? []).flatMap((s) => (s.player && !s.bot ? [s.player] : []));
    if (seated.length > 0) await this.relations.assertNotBlockedWith(caller.username, seated, 'joining this match');
    return this.command(
      caller,
      matchId,
      {
        type: 'join',
        player: caller.username,
        ...(seat === undefined || seat === null ? {} : { seat }),
        ...(clientSeed === undefined || clientSeed === null ? {} : { clientSeed }),
      },
      meta,
    );
  }

  /** A seated human's client seed, once, before the start; the last one missing starts a pending start at once (src/clocks/pending-starts.ts). */
  setClientSeed(caller: Principal, matchId: string, clientSeed: string, meta: CommandMeta): Promise<MatchPresentation> {
    return this.command(caller, matchId, { type: 'setClientSeed', player: caller.username, clientSeed }, meta);
  }

  /**
   * Starts the match; or, when a human seat of a `scopa-rules/2` match has
   * not given its client seed and CLIENT_SEED_WINDOW is not 0, records a
   * pending start and answers the match still open with `startsAt` (REST:
   * 202). Anything the start command would refuse is refused as before.
   */
  async start(caller: Principal, matchId: string, meta: CommandMeta): Promise<MatchPresentation> {
    const command: Command = { type: 'start', player: caller.username };
    if (this.starts.windowMs > 0) {
      const { seq, state } = await this.store.current(matchId);
      const waits = seatsAwaitingClientSeed(state).length > 0 && decide(command, state).ok && (meta.expectedSeq === undefined || meta.expectedSeq === seq);
      if (waits) {
        await this.starts.request(matchId, seq, caller.username, meta.idempotencyKey ?? null);
        return this.present(caller, matchId);
      }
    }
    return this.command(caller, matchId, command, meta);
  }

  play(caller: Principal, matchId: string, card: string, capture: string[], meta: CommandMeta): Promise<MatchPresentation> {
    return this.command(caller, matchId, { type: 'play', player: caller.username, card, capture }, meta);
  }

  /** A hand declaration (cirulla, `scopa-rules/4`): `mattaValue` (1..10) when the hand holds the matta, else absent or null. */
  declareHand(caller: Principal, matchId: string, mattaValue: number | null | undefined, meta: CommandMeta): Promise<MatchPresentation> {
    return this.command(caller, matchId, { type: 'declareHand', player: caller.username, mattaValue: mattaValue ?? null }, meta);
  }

  resign(caller: Principal, matchId: string, meta: CommandMeta): Promise<MatchPresentation> {
    return this.command(caller, matchId, { type: 'resign', player: caller.username }, meta);
  }

  /**
   * Calls the match off before its first play (any seated player): no result, unrated (`scopa-rules/3`; ABORT_TOO_LATE after).
   * A tournament table once dealt is ABORT_NOT_ALLOWED (docs/tournaments.md): the abort would end it at once, a draw for
   * its players after seeing the deal (and, at a duplicate table, the deal of every table of the round).
   */
  async abort(caller: Principal, matchId: string, meta: CommandMeta): Promise<MatchPresentation> {
    const command: Command = { type: 'abort', player: caller.username };
    // Every table is private and created with both players seated: any other match's abort costs no read.
    if (!this.mayBeTable(matchId) || !(await this.tables.isTable(matchId))) return this.command(caller, matchId, command, meta);
    for (let attempt = 0; ; attempt++) {
      const { seq, state } = await this.store.current(matchId);
      if (state.phase === 'playing') {
        throw new DomainError('ABORT_NOT_ALLOWED', 'a tournament table cannot be aborted once dealt: resign, or withdraw from the tournament', { matchId });
      }
      // Not dealt yet (waiting for client seeds), or over (the engine answers MATCH_OVER): the abort holds only at this seq,
      // so a deal in between makes it a VERSION_CONFLICT, and the next look sees the deal.
      try {
        return await this.command(caller, matchId, command, { ...meta, expectedSeq: meta.expectedSeq ?? seq });
      } catch (err) {
        if (meta.expectedSeq !== undefined || attempt >= 2 || !(err instanceof DomainError) || err.code !== 'VERSION_CONFLICT') throw err;
      }
    }
  }

  private async command(caller: Principal, matchId: string, command: Command, meta: CommandMeta): Promise<MatchPresentation> {
    const commandKey = this.commandKey(caller, meta);
    const result = await this.store.execute(matchId, command, {
      actor: caller.username,
      expectedSeq: meta.expectedSeq ?? undefined,
      commandKey,
    });
    if (result.replayed) return this.present(caller, matchId);
    // Notices out, and the bots' replies due now played (src/reactions/after-append.ts).
    await this.store.settled(result);
    // The snapshot this append (or the bots after it) left in the cache: no read.
    const snap = await this.store.atLeast(matchId, result.seq);
    const presented = this.presentation(
      { id: matchId, createdBy: snap.state.createdBy ?? '', rulesetId: snap.rulesetId },
      snap.seq,
      ...viewsFor(caller.username, snap.state),
    );
    if (snap.state.phase === 'over' && (await this.withheld(matchId))) presented.reveal = null;
    // The append that took the last open seat: no start could be asked before it (a start needs every seat taken).
    const filledNow = snap.seq === result.seq && result.events.some((e) => e.type === 'SeatTaken');
    return this.withStartsAt(this.seen(caller.username, presented), snap.state, filledNow);
  }

  /** The command key is scoped to the caller, so that one player's key never answers another's command (nor a system command). */
  private commandKey(caller: Principal, meta: CommandMeta): CommandKey | undefined {
    return meta.idempotencyKey ? { client: caller.username, key: meta.idempotencyKey } : undefined;
  }

  /**
   * A pending start is asked for only once every seat is taken (seats are never given up) and exists only before the
   * start: no read for a match with a seat still open, in play or over, nor (`filledNow`) right after the append that
   * took its last seat.
   */
  private async withStartsAt(presented: MatchPresentation, state: MatchState, filledNow = false): Promise<MatchPresentation> {
    const mayWait = state.phase === 'open' && !filledNow && state.seats.every((s) => s.player !== null);
    presented.startsAt = mayWait ? await this.starts.startsAt(presented.id) : null;
    return presented;
  }

  /** When the pending start of a match deals at the latest (null: none; GraphQL's Match.startsAt in live events). */
  startsAt(matchId: string): Promise<Date | null> {
    return this.starts.startsAt(matchId);
  }

  // ------------------------------------------------------------------ reading

  /** The match as the caller may see it now, or at `atSeq` (replay). */
  async present(caller: Principal | null, matchId: string, atSeq?: number): Promise<MatchPresentation> {
    const summary = await this.store.get(matchId);
    await this.assertMayRead(caller?.username ?? null, summary);
    if (atSeq !== undefined && atSeq !== null) {
      if (!Number.isSafeInteger(atSeq) || atSeq < 1 || atSeq > summary.currentSeq) {
        throw new DomainError('VALIDATION_FAILED', `atSeq: an integer in 1..${summary.currentSeq}`, { currentSeq: summary.currentSeq });
      }
      const state = await this.store.state(matchId, atSeq);
      // A table whose duplicate round runs replays as a match in play: no hands, no seed (src/match-store/tournament-tables.ts).
      const over = summary.status === 'over' && !(await this.withheld(matchId));
      // A replay shows no pending start: that is a fact of now, not of atSeq.
      const replayed = { ...this.seen(caller?.username ?? null, this.presentation(summary, atSeq, ...replayViews(state, over))), startsAt: null };
      return this.withRatings(replayed, over && state.settings.rated === true);
    }
    const { seq, state } = await this.store.current(matchId);
    const shown = this.presentation(summary, seq, ...viewsFor(caller?.username ?? null, state));
    if (state.phase === 'over' && (await this.withheld(matchId))) shown.reveal = null;
    const presented = await this.withStartsAt(this.seen(caller?.username ?? null, shown), state);
    // A rematch is made with every seat seated: a match created with one open or reserved is none (no read).
    presented.rematchOf = this.store.peek(matchId)?.createdFull === false ? null : await this.rematches.rematchOf(matchId);
    await this.withPresence(presented);
    await this.withVacations(presented, state);
    return this.withRatings(presented, state.phase === 'over' && state.settings.rated === true);
  }

  /**
   * Over, at a table of a duplicate tournament round that still runs: its reveal (seed, hands, deck) waits for the
   * round's end, for its players too (src/match-store/tournament-tables.ts). Every table is private: a public match costs no read.
   */
  private async withheld(matchId: string): Promise<boolean> {
    if (!this.mayBeTable(matchId)) return false;
    return (await this.tables.undisclosed([matchId])).size > 0;
  }

  /** Whether the match may be a tournament table, by this process's snapshot (src/match-store/tournament-tables.ts). */
  private mayBeTable(matchId: string): boolean {
    return mayBeTable(this.store.peek(matchId));
  }

  /** TOURNAMENT_TABLE_HIDDEN when `viewer` may not read this match now (no read for a match that is no table). */
  private async assertTableReadable(viewer: string | null, matchId: string): Promise<void> {
    if (this.mayBeTable(matchId)) await this.tables.assertMayRead(viewer, matchId);
  }

  /** A player of this match reads it always; anyone else is asked about a running duplicate round (one indexed lookup). */
  /**
   * What chat needs of a match the caller may read (src/chat; NOT_FOUND, TOURNAMENT_TABLE_HIDDEN as for its
   * reads): whether it is over, who sits where on which side, and its chat setting. Nothing hidden: no hand, no seed.
   */
  async chatFacts(caller: Principal, matchId: string): Promise<MatchChatFacts> {
    const summary = await this.store.get(matchId);
    await this.assertMayRead(caller.username, summary);
    const { state } = await this.store.current(matchId);
    return {
      over: state.phase === 'over',
      seats: state.seats.map((s, seat) => ({ player: s.bot ? null : s.player, side: state.options ? sideOf(state.options, seat) : seat })),
      chat: state.settings.chat === 'off' ? 'off' : 'players',
    };
  }

  /** The same facts of a match the two players share, without a caller (direct messages between partners); null for no such match. */
  async chatFactsOf(matchId: string): Promise<MatchChatFacts | null> {
    try {
      const { state } = await this.store.current(matchId);
      return {
        over: state.phase === 'over',
        seats: state.seats.map((s, seat) => ({ player: s.bot ? null : s.player, side: state.options ? sideOf(state.options, seat) : seat })),
        chat: state.settings.chat === 'off' ? 'off' : 'players',
      };
    } catch {
      return null;
    }
  }

  private async assertMayRead(reader: string | null, summary: MatchSummary): Promise<void> {
    const seated = reader !== null && Array.isArray(summary.seats) && (summary.seats as { player?: string | null }[]).some((seat) => seat?.player === reader);
    if (!seated) await this.assertTableReadable(reader, summary.id);
  }

  /**
   * Presence is for the players of a match: a caller without a seat in it sees
   * every seat's online and lastSeen as null (GraphQL resolves them only when
   * left undefined, see SeatPresenceResolver).
   */
  private seen(caller: string | null, presented: MatchPresentation): MatchPresentation {
    if (caller !== null && presented.view.seats.some((s) => s.player === caller)) return presented;
    presented.view = { ...presented.view, seats: presented.view.seats.map((s) => ({ ...s, online: null, lastSeen: null })) };
    return presented;
  }

  /** Each person's seat with its player's presence (online, lastSeen), for a seated caller: never from the log. */
  private async withPresence(presented: MatchPresentation): Promise<void> {
    if (presented.view.seats.some((s) => (s as { online?: unknown }).online === null)) return;
    presented.view = {
      ...presented.view,
      seats: await Promise.all(presented.view.seats.map(async (s) => (s.player && !s.bot ? { ...s, ...(await this.presence.presenceOf(s.player)) } : s))),
    };
  }

  /**
   * Each person's seat with when its player's vacation ends (null: not on vacation), for everyone who may read the
   * match: a correspondence match not over reads the vacations of its players (docs/async-play.md "Vacations"); any
   * other match shows null without a read (only a correspondence clock pauses).
   */
  private async withVacations(presented: MatchPresentation, state: MatchState): Promise<void> {
    const asked = state.phase !== 'over' && isCorrespondence(state.settings.turnTimeLimit);
    const players = presented.view.seats.filter((s) => s.player && !s.bot).map((s) => s.player!);
    const away = asked && players.length > 0 ? await this.vacations.onVacationUntil(players) : new Map<string, Date>();
    presented.view = {
      ...presented.view,
      seats: presented.view.seats.map((s) => ({ ...s, onVacationUntil: (s.player && !s.bot ? away.get(s.player) : undefined) ?? null })),
    };
  }

  /** When a player's running vacation ends, or null (GraphQL's SeatPublic.onVacationUntil outside a match read). */
  async onVacationUntil(player: string): Promise<Date | null> {
    return (await this.vacations.onVacationUntil([player])).get(player) ?? null;
  }

  /** A player's presence (GraphQL's SeatPublic.online and lastSeen). */
  presenceOf(player: string): Promise<Presence> {
    return this.presence.presenceOf(player);
  }

  /** A finished rated match's rating changes (null until its end is taken into the ratings). */
  ratingChanges(matchId: string): Promise<MatchRatingChange[] | null> {
    return this.ratings.changesFor(matchId);
  }

  /** Why a finished rated match did not count (null: it counted, is not rated, or is not taken yet). */
  async unratedReason(matchId: string): Promise<string | null> {
    return (await this.ratings.outcomeFor(matchId))?.unratedReason ?? null;
  }

  private async withRatings(presented: MatchPresentation, ratedAndOver: boolean): Promise<MatchPresentation> {
    if (!ratedAndOver) return presented;
    const outcome = await this.ratings.outcomeFor(presented.id);
    presented.ratingChanges = outcome?.changes ?? null;
    presented.unratedReason = outcome?.unratedReason ?? null;
    return presented;
  }

  /** `summary` without imported/sourceId: a command's result (an imported match takes no command). */
  private presentation(
    summary: Pick<MatchSummary, 'id' | 'createdBy' | 'rulesetId'> & Partial<Pick<MatchSummary, 'imported' | 'sourceId'>>,
    seq: number,
    view: MatchView,
    reveal: FullView | null,
  ): MatchPresentation {
    const status: MatchStatus = view.phase === 'over' ? 'over' : view.phase === 'playing' ? 'playing' : 'open';
    const imported = summary.imported ?? false;
    return {
      id: summary.id,
      seq,
      status,
      createdBy: summary.createdBy,
      rulesetId: summary.rulesetId,
      imported,
      sourceId: imported ? (summary.sourceId ?? null) : null,
      view: stripSecrets(view),
      reveal,
    };
  }

  /** My legal plays and the hand declarations open to me now (both empty when it is not my turn). */
  async legalPlays(caller: Principal, matchId: string): Promise<{ seq: number; plays: PlayCodes[]; declarations: Declaration[] }> {
    const { seq, state } = await this.store.current(matchId);
    const seat = seatOf(state, caller.username);
    if (seat < 0) throw new DomainError('NOT_SEATED', 'you hold no seat in this match');
    const moves = legalMovesInView(seatView(state, seat));
    return { seq, plays: moves.plays, declarations: moves.declarations };
  }

  /** `viewer`: who reads (null: anonymous); a table of a running duplicate round is hidden from all but its players (src/match-store/tournament-tables.ts). */
  async events(matchId: string, fromSeq = 1, limit = 100, viewer: string | null = null): Promise<EventMessage[]> {
    await this.assertTableReadable(viewer, matchId);
    const events = (await this.store.eventsFrom(matchId, fromSeq, limit)).map(toMessage);
    return events.some((e) => e.type === 'MatchEnded') && (await this.withheld(matchId)) ? events.map(sealed) : events;
  }

  async verify(matchId: string, viewer: string | null = null): Promise<VerifyReport> {
    await this.assertTableReadable(viewer, matchId);
    return this.archive.verify(matchId);
  }

  /** The JSON Lines export, with the rating changes of a rated match in its header. */
  async exportJsonl(matchId: string, viewer: string | null = null): Promise<string> {
    await this.assertTableReadable(viewer, matchId);
    if (this.mayBeTable(matchId)) await this.tables.assertDisclosed(matchId);
    return this.archive.exportJsonl(matchId, await this.ratings.changesFor(matchId));
  }

  async exportNotation(matchId: string, viewer: string | null = null): Promise<string> {
    await this.assertTableReadable(viewer, matchId);
    if (this.mayBeTable(matchId)) await this.tables.assertDisclosed(matchId);
    return this.archive.exportNotation(matchId);
  }

  async myMatches(caller: Principal, q: ListOptions): Promise<MatchSummary[]> {
    const listed = await this.store.listMatches(caller.username, {
      status: q.status ?? undefined,
      myTurn: q.myTurn ?? undefined,
      limit: q.limit ?? undefined,
      offset: q.offset ?? undefined,
    });
    // A table whose duplicate round runs shows no seed yet (src/match-store/tournament-tables.ts): one lookup for the page's finished matches.
    const waits = await this.tables.undisclosed(listed.filter((m) => m.revealedSeed !== null).map((m) => m.id));
    return waits.size === 0 ? listed : listed.map((m) => (waits.has(m.id) ? { ...m, revealedSeed: null } : m));
  }

  // ------------------------------------------------------------------ live

  /** The events of a match from `fromSeq`, logged then live (./live-feed.ts), each with the match as the caller may see it after it. */
  async follow(caller: Principal, matchId: string, fromSeq: number): Promise<AsyncIterableIterator<LiveEvent>> {
    const summary = await this.store.get(matchId); // NOT_FOUND at subscribe time
    await this.assertMayRead(caller.username, summary);
    // Over, and fromSeq past its last event: nothing will ever come (the feed ends after the last one).
    if (summary.status === 'over' && fromSeq > summary.currentSeq) return ended<LiveEvent>();
    // A table of a duplicate round that runs now: nothing this feed sends reveals its seed or hands, even once it ends
    // (src/match-store/tournament-tables.ts); read the match again after the round's end.
    const waits = await this.withheld(matchId);
    const shown = (p: MatchPresentation): MatchPresentation => (waits ? { ...p, reveal: null } : p);
    // Listen before reading the log: a notice that comes meanwhile is skipped or causes one more read.
    const notices = this.pubsub.asyncIterableIterator<MatchNotice>(matchChannel(matchId));
    const resumes = this.resumes;
    return new LiveFeed(
      this.store,
      matchId,
      fromSeq,
      notices,
      (e, state) => ({
        event: waits ? sealed(toMessage(e)) : toMessage(e),
        match: shown(this.seen(caller.username, this.presentation(summary, e.seq, ...viewsFor(caller.username, state)))),
      }),
      // opponentGone / opponentBack: no log event (hash empty, the seq of the last event), the match as it is at that seq.
      (change, seq, state) => ({
        event: { matchId, seq, type: change.type, payload: { player: change.player, seat: change.seat }, actor: null, time: new Date(change.at), hash: '' },
        match: shown(this.seen(caller.username, this.presentation(summary, seq, ...viewsFor(caller.username, state)))),
      }),
      resumes ? (listener) => resumes.onResume(listener) : undefined,
    );
  }

  /** "My turn" notices across all my matches, from now on. */
  myTurns(caller: Principal): AsyncIterableIterator<TurnNotice> {
    return this.pubsub.asyncIterableIterator<TurnNotice>(turnChannel(caller.username));
  }
}

/** A feed with nothing left to send: it completes at once. */
function ended<T>(): AsyncIterableIterator<T> {
  return (async function* (): AsyncGenerator<T, undefined> {
    return undefined;
  })();
}

/** MatchEnded without its seed (`seed: null`): the reveal of a table whose duplicate round runs waits for the round's end. */
function sealed(e: EventMessage): EventMessage {
  return e.type === 'MatchEnded' ? { ...e, payload: { ...e.payload, seed: null } } : e;
}

function toMessage(e: StoredEvent): EventMessage {
  return { matchId: e.matchId, seq: e.seq, type: e.type, payload: e.payload, actor: e.actor, time: e.time, hash: e.hash };
}
