/**
 * What the transports call for matches: access first (caller first), then
 * the store; views are chosen here and nowhere else. A seated caller sees
 * its seat, anyone else the spectator view, everybody everything once the
 * match is over. The folded state (seed, deck, hands) never leaves this file
 * except through those views.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  BOT_LEVELS,
  cardCodes,
  evolve,
  legalPlayCodesInView,
  revealView,
  seatOf,
  seatView,
  spectatorView,
  toHex,
} from '../engine';
import type { BotLevel, Command, MatchState, MatchView, PlayCodes, SeatSpec } from '../engine';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../auth/principal';
import { AccountsService } from '../auth/accounts.service';
import { joinEvent } from '../events/chain';
import type { StoredEvent } from '../events/chain';
import { PUB_SUB } from '../graphql/pubsub';
import type { PubSubEngine } from '../graphql/pubsub';
import { MatchesService } from '../matches/matches.service';
import type { CommandResult, MatchStatus, MatchSummary, VerifyReport } from '../matches/match-store';
import { CustomRulesetsService } from '../rulesets/custom-rulesets.service';
import { matchChannel, turnChannel } from '../inbox/channels';
import type { MatchNotice, TurnNotice } from '../inbox/channels';
import { TurnNotifier } from '../inbox/turn-notifier';
import { BotSeatsService } from '../seats/bot-seats.service';
import { RatingsService } from '../ratings/ratings.service';
import type { MatchRatingChange } from '../ratings/rating-store';

export type SeatRequest = { type: 'creator' } | { type: 'open' } | { type: 'reserved'; username: string } | { type: 'bot'; bot: BotLevel };

export interface CreateRequest {
  preset?: string;
  rulesetId?: string;
  overrides?: Record<string, unknown>;
  seats?: SeatRequest[];
  turnTimeLimit?: string | null;
  onExpiry?: 'autoPlay' | 'forfeit';
  rated?: boolean;
}

export interface CommandMeta {
  expectedSeq?: number;
  idempotencyKey?: string;
}

/** The whole state, seed included: only for a match that is over. */
export interface FullView extends MatchView {
  seed: string;
  hands: string[][];
  deck: string[];
  captured: string[][];
}

/** A match as one caller may see it at one seq. */
export interface MatchPresentation {
  id: string;
  seq: number;
  status: MatchStatus;
  createdBy: string;
  rulesetId: string | null;
  view: MatchView;
  /** Present once the match is over (seed, every hand, the deck). */
  reveal: FullView | null;
  /** Set on reading a finished rated match (src/ratings). */
  ratingChanges?: MatchRatingChange[] | null;
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

// Channels and notices live with the inbox (the clock and the bot seats publish them too).
export { matchChannel, turnChannel } from '../inbox/channels';
export type { MatchNotice, TurnNotice } from '../inbox/channels';

const KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,100}$/;

@Injectable()
export class MatchesApi {
  private readonly logger = new Logger('Matches');

  constructor(
    private readonly store: MatchesService,
    private readonly accounts: AccountsService,
    private readonly rulesets: CustomRulesetsService,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
    private readonly notifier: TurnNotifier,
    private readonly botSeats: BotSeatsService,
    private readonly ratings: RatingsService,
  ) {}

  // ------------------------------------------------------------------ commands

  async create(caller: Principal, req: CreateRequest): Promise<MatchPresentation> {
    if (!req.preset && !req.rulesetId) throw new DomainError('VALIDATION_FAILED', 'give a preset or a rulesetId');
    // A rating pool is one ruleset: a rated match plays a preset or a saved ruleset as it is.
    if (req.rated && req.overrides && Object.keys(req.overrides).length > 0) {
      throw new DomainError('VALIDATION_FAILED', 'a rated match takes no overrides: save them as a ruleset and rate that');
    }
    let overrides = req.overrides;
    let preset = req.preset;
    if (req.rulesetId) {
      const r = await this.rulesets.resolveForMatch(req.rulesetId);
      if (preset && preset !== r.preset) throw new DomainError('VALIDATION_FAILED', `the ruleset is based on ${r.preset}, not ${preset}`);
      preset = r.preset;
      overrides = { ...r.overrides, ...(req.overrides ?? {}) };
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
          if (!username || !(await this.accounts.exists(username))) throw new DomainError('VALIDATION_FAILED', `seat ${i}: no account ${JSON.stringify(s.username ?? '')}`);
          seats.push({ reservedFor: username });
          break;
        }
        case 'bot':
          if (!(BOT_LEVELS as readonly string[]).includes(s.bot)) throw new DomainError('VALIDATION_FAILED', `seat ${i}: bot is one of ${BOT_LEVELS.join(', ')}`);
          seats.push({ bot: s.bot });
          break;
        default:
          throw new DomainError('VALIDATION_FAILED', `seat ${i}: type is creator, open, reserved or bot`);
      }
    }
    const settings: { turnTimeLimit?: string | null; onExpiry?: 'autoPlay' | 'forfeit'; rated?: boolean } = {};
    if (req.turnTimeLimit !== undefined) settings.turnTimeLimit = req.turnTimeLimit;
    if (req.onExpiry !== undefined) settings.onExpiry = req.onExpiry;
    if (req.rated) settings.rated = true;
    const result = await this.store.create({ preset, overrides, seats, createdBy: caller.username, settings, rulesetId: req.rulesetId ?? null });
    if (req.rulesetId) await this.rulesets.lock(req.rulesetId);
    await this.published(result);
    return this.present(caller, result.matchId);
  }

  join(caller: Principal, matchId: string, seat: number | undefined, meta: CommandMeta): Promise<MatchPresentation> {
    return this.command(caller, matchId, { type: 'join', player: caller.username, ...(seat === undefined || seat === null ? {} : { seat }) }, meta);
  }

  start(caller: Principal, matchId: string, meta: CommandMeta): Promise<MatchPresentation> {
    return this.command(caller, matchId, { type: 'start', player: caller.username }, meta);
  }

  play(caller: Principal, matchId: string, card: string, capture: string[], meta: CommandMeta): Promise<MatchPresentation> {
    return this.command(caller, matchId, { type: 'play', player: caller.username, card, capture }, meta);
  }

  resign(caller: Principal, matchId: string, meta: CommandMeta): Promise<MatchPresentation> {
    return this.command(caller, matchId, { type: 'resign', player: caller.username }, meta);
  }

  private async command(caller: Principal, matchId: string, command: Command, meta: CommandMeta): Promise<MatchPresentation> {
    if (meta.idempotencyKey !== undefined && meta.idempotencyKey !== null && !KEY_PATTERN.test(meta.idempotencyKey)) {
      throw new DomainError('VALIDATION_FAILED', 'idempotencyKey: 1 to 100 of A-Z a-z 0-9 _ . : -');
    }
    if (meta.expectedSeq !== undefined && meta.expectedSeq !== null && (!Number.isSafeInteger(meta.expectedSeq) || meta.expectedSeq < 0)) {
      throw new DomainError('VALIDATION_FAILED', 'expectedSeq: a non-negative integer');
    }
    // The command key is scoped to the caller, so that one player's key never answers another's command.
    const commandKey = meta.idempotencyKey ? `${caller.username}:${meta.idempotencyKey}` : undefined;
    const result = await this.store.execute(matchId, command, {
      actor: caller.username,
      expectedSeq: meta.expectedSeq ?? undefined,
      commandKey,
    });
    if (result.replayed) return this.present(caller, matchId);
    await this.published(result);
    await this.runBots(result);
    // The snapshot this append (or the bots after it) left in the cache: no read.
    const snap = await this.store.atLeast(matchId, result.seq);
    return this.presentation({ id: matchId, createdBy: snap.state.createdBy ?? '', rulesetId: snap.rulesetId }, snap.seq, ...viewsFor(caller, snap.state));
  }

  /**
   * Seats held by built-in bots play at once, through the same command path
   * as people (src/seats: each from its seat view, once per seq); awaited, so
   * the response already shows the bots' plays.
   */
  private runBots(result: CommandResult): Promise<void> {
    return this.botSeats.driveAfter(result);
  }

  /** Live notices (match moved; your turn, with the deadline): see src/inbox/turn-notifier.ts. */
  private published(result: CommandResult): Promise<void> {
    return this.notifier.published(result);
  }

  // ------------------------------------------------------------------ reading


  /** The match as the caller may see it now, or at `atSeq` (replay). */
  async present(caller: Principal | null, matchId: string, atSeq?: number): Promise<MatchPresentation> {
    const summary = await this.store.get(matchId);
    if (atSeq !== undefined && atSeq !== null) {
      if (!Number.isSafeInteger(atSeq) || atSeq < 1 || atSeq > summary.currentSeq) {
        throw new DomainError('VALIDATION_FAILED', `atSeq: an integer in 1..${summary.currentSeq}`, { currentSeq: summary.currentSeq });
      }
      const state = await this.store.state(matchId, atSeq);
      // Replay: everything once the match is over; before, only what a spectator saw at that seq.
      const over = summary.status === 'over';
      const replayed = this.presentation(summary, atSeq, over ? fullView(state, true) : spectatorView(state), over ? fullView(state, true) : null);
      if (over && state.settings.rated) replayed.ratingChanges = await this.ratings.changesFor(matchId);
      return replayed;
    }
    const { seq, state } = await this.store.current(matchId);
    const presented = this.presentation(summary, seq, ...viewsFor(caller, state));
    if (state.phase === 'over' && state.settings.rated) presented.ratingChanges = await this.ratings.changesFor(matchId);
    return presented;
  }

  private presentation(summary: Pick<MatchSummary, 'id' | 'createdBy' | 'rulesetId'>, seq: number, view: MatchView, reveal: FullView | null): MatchPresentation {
    const status: MatchStatus = view.phase === 'over' ? 'over' : view.phase === 'playing' ? 'playing' : 'open';
    return { id: summary.id, seq, status, createdBy: summary.createdBy, rulesetId: summary.rulesetId, view: stripSecrets(view), reveal };
  }

  /** My legal plays now (empty when it is not my turn). */
  async legalPlays(caller: Principal, matchId: string): Promise<{ seq: number; plays: PlayCodes[] }> {
    const { seq, state } = await this.store.current(matchId);
    const seat = seatOf(state, caller.username);
    if (seat < 0) throw new DomainError('NOT_SEATED', 'you hold no seat in this match');
    return { seq, plays: legalPlayCodesInView(seatView(state, seat)) };
  }

  async events(matchId: string, fromSeq = 1, limit = 100): Promise<EventMessage[]> {
    if (!Number.isSafeInteger(fromSeq) || fromSeq < 1) throw new DomainError('VALIDATION_FAILED', 'fromSeq: an integer >= 1');
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new DomainError('VALIDATION_FAILED', 'limit: an integer in 1..1000');
    return (await this.store.eventsFrom(matchId, fromSeq, limit)).map(toMessage);
  }

  verify(matchId: string): Promise<VerifyReport> {
    return this.store.verify(matchId);
  }

  async exportJsonl(matchId: string): Promise<string> {
    return this.store.exportJsonl(matchId);
  }

  async myMatches(caller: Principal, status?: MatchStatus, myTurn?: boolean, limit?: number, offset?: number): Promise<MatchSummary[]> {
    if (status && !['open', 'playing', 'over'].includes(status)) throw new DomainError('VALIDATION_FAILED', 'status: open, playing or over');
    return this.store.listMatches(caller.username, { status, myTurn, limit, offset });
  }

  // ------------------------------------------------------------------ live

  /**
   * The events of a match from `fromSeq`: first those already logged, then
   * live ones, with no gap and no duplicate. A notice carries the events of
   * its append: taken as they are when they follow the last one delivered,
   * else (a gap: notices from two instances may cross) the log is read from
   * there. Each comes with the subscriber's view after it.
   */
  async follow(caller: Principal, matchId: string, fromSeq: number): Promise<AsyncIterableIterator<LiveEvent>> {
    if (!Number.isSafeInteger(fromSeq) || fromSeq < 1) throw new DomainError('VALIDATION_FAILED', 'fromSeq: an integer >= 1');
    const summary = await this.store.get(matchId); // NOT_FOUND at subscribe time
    // Listen before reading the log: a notice that comes meanwhile is skipped or causes one more read.
    const notices = this.pubsub.asyncIterableIterator<MatchNotice>(matchChannel(matchId));
    const gen = this.followLog(caller, summary, fromSeq, notices);
    const it: AsyncIterableIterator<LiveEvent> = {
      next: () => gen.next(),
      return: async () => {
        await notices.return?.(); // wakes the generator if it waits for a notice
        return gen.return(undefined);
      },
      throw: (err?: unknown) => gen.throw(err),
      [Symbol.asyncIterator]: () => it,
    };
    return it;
  }

  private async *followLog(caller: Principal, summary: MatchSummary, fromSeq: number, notices: AsyncIterableIterator<MatchNotice>): AsyncGenerator<LiveEvent, undefined> {
    const matchId = summary.id;
    const signal: { wake: (() => void) | null } = { wake: null };
    const inbox: MatchNotice[] = [];
    let readLog = true; // read the log once before the first notice
    let closed = false;
    const pump = (async () => {
      try {
        for await (const notice of notices as AsyncIterable<MatchNotice>) {
          inbox.push(notice);
          signal.wake?.();
        }
      } finally {
        closed = true;
        signal.wake?.();
      }
    })();
    let last = fromSeq - 1;
    let state: MatchState | null = null;
    const next = async (e: StoredEvent): Promise<LiveEvent> => {
      // The state follows the events one by one, from the log folded up to the first one.
      state = state ? evolve(state, joinEvent(e)) : await this.store.state(matchId, e.seq);
      last = e.seq;
      const [view, reveal] = viewsFor(caller, state);
      return { event: toMessage(e), match: this.presentation(summary, e.seq, view, reveal) };
    };
    try {
      while (!closed) {
        if (!readLog && inbox.length === 0) await new Promise<void>((resolve) => (signal.wake = resolve));
        signal.wake = null;
        if (closed) break;
        for (const notice of inbox.splice(0)) {
          if (readLog || notice.seq <= last) continue;
          const events = notice.events ?? [];
          if (events.length === 0 || events[0].seq > last + 1 || events[events.length - 1].seq !== notice.seq) {
            readLog = true;
            continue;
          }
          const stored = events.map((e) => ({ ...e, time: new Date(e.time) }));
          // The same events keep this instance's snapshot current (plays of a match may arrive on any instance).
          this.store.absorb(matchId, stored);
          for (const e of stored) {
            if (e.seq <= last) continue;
            yield await next(e);
          }
        }
        if (!readLog) continue;
        readLog = false;
        for (;;) {
          const batch = await this.store.eventsFrom(matchId, last + 1, 200);
          if (batch.length === 0) break;
          for (const e of batch) {
            if (e.seq !== last + 1) throw new Error(`event log gap at ${last + 1}`);
            yield await next(e);
          }
        }
      }
    } finally {
      await notices.return?.();
      await pump.catch(() => undefined);
    }
    return undefined;
  }

  /** "My turn" notices across all my matches, from now on. */
  myTurns(caller: Principal): AsyncIterableIterator<TurnNotice> {
    return this.pubsub.asyncIterableIterator<TurnNotice>(turnChannel(caller.username));
  }
}

/** The views one caller may see of a state: [view, reveal]. */
function viewsFor(caller: Principal | null, state: MatchState): [MatchView, FullView | null] {
  if (state.phase === 'over') {
    const full = fullView(state, false);
    return [full, full];
  }
  const seat = caller ? seatOf(state, caller.username) : -1;
  return [seat >= 0 ? seatView(state, seat) : spectatorView(state), null];
}

/** Everything: for a finished match only (the caller checks). At an earlier seq of a finished match, the hands at that seq. */
function fullView(state: MatchState, replaying: boolean): FullView {
  const revealed = state.phase === 'over' ? revealView(state) : null;
  if (revealed && !replaying) return revealed;
  return {
    ...spectatorView(state),
    seed: state.seed ? toHex(state.seed) : '',
    hands: state.hands.map((h) => cardCodes(h)),
    deck: state.deck ? cardCodes(Array.from(state.deck.subarray(state.deckPos))) : [],
    captured: state.captured.map((pile) => cardCodes(pile)),
  };
}

/** A view is copied field by field: whatever the engine adds to its types, only these leave. */
function stripSecrets(view: MatchView): MatchView {
  return {
    viewer: view.viewer,
    phase: view.phase,
    rulesVersion: view.rulesVersion,
    preset: view.preset,
    options: view.options,
    settings: view.settings,
    seedCommitment: view.seedCommitment,
    round: view.round,
    dealer: view.dealer,
    turn: view.turn,
    lastCapturer: view.lastCapturer,
    hand: view.hand,
    table: view.table,
    deckSize: view.deckSize,
    seats: view.seats,
    sides: view.sides,
    rounds: view.rounds,
    result: view.result,
  };
}

function toMessage(e: StoredEvent): EventMessage {
  return { matchId: e.matchId, seq: e.seq, type: e.type, payload: e.payload, actor: e.actor, time: e.time, hash: e.hash };
}

