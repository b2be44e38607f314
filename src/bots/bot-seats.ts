/**
 * Seats held by built-in bots play server-side, through the same command path
 * as people (MatchStore.execute, actor = the bot's player id), at most once
 * per seq (expectedSeq, and the system command key `{bot}` `<bot>:seq<n>`,
 * which no client key can reach: src/match-store/command-key.ts), so that several
 * instances or triggers racing on one turn append one play. A bot sees only
 * its seat's view.
 *
 * A match's bot turns are played by one chain per match in this process,
 * off the request path, in slices: a move is two (decide, within the ismcts
 * budget for that level; then append, with its notices), and the chain
 * yields to the event loop (setImmediate) before each, so requests and
 * /health are served between them. A request that made bot turns due waits only for
 * the replies it should show (`replies`): up to the next human turn, at most
 * one per other seat, and none in a match without a human seat.
 *
 * Triggers: after each append in this process (the after-append pipeline,
 * src/reactions/after-append.ts), and a periodic sweep of matches whose turn is
 * a bot's and that nobody moved for a while (so a restart, or an instance
 * that died mid-chain, resumes them). A plain class; BotSeatsService is the
 * Nest provider.
 */
import { botMove as engineBotMove, cardCodes, mulberry32, seatView } from '../engine';
import type { BotLevel, Command, IsmctsOptions, MatchState } from '../engine';
import { DomainError } from '../common/domain-error';
import type { MatchStore } from '../match-store/match-store';
import type { AppConfig } from '../config/config';

export interface BotSeatsOptions {
  /** ismcts budget (ismctsBudgetFromEnv of the configuration). */
  ismcts: IsmctsOptions;
  /** Max bot plays of one chain (a guard against a loop; a scopa match to 100 takes a few hundred). */
  maxPlays?: number;
  /** The sweep leaves a match alone while its last append is younger than this (ms, default 2000): its chain is alive somewhere. */
  sweepIdleMs?: number;
  onError?: (matchId: string, err: unknown) => void;
}

/** The most an ismcts move may think on the event loop (ms): everything else waits meanwhile. */
export const ISMCTS_MAX_MS = 80;
export const ISMCTS_DEFAULT_MS = 40;

/**
 * The ismcts budget of bot seats and hints: BOT_ISMCTS_ITERATIONS (default
 * the engine's) and BOT_ISMCTS_MS (default 40, at most 80), whichever runs
 * out first. The search runs on the event loop, so it always has a time
 * budget; the engine reads no clock, so the clock is passed in.
 */
export function ismctsBudgetFromEnv(config: Pick<AppConfig, 'BOT_ISMCTS_ITERATIONS' | 'BOT_ISMCTS_MS'>): IsmctsOptions {
  return {
    iterations: config.BOT_ISMCTS_ITERATIONS,
    ms: Math.min(config.BOT_ISMCTS_MS, ISMCTS_MAX_MS),
    now: () => performance.now(),
  };
}

/** The rng of a bot move: a function of the match and the seq only (reproducible, and the same on every instance). */
export function botRng(matchId: string, seq: number): () => number {
  let h = 2166136261;
  for (const ch of `${matchId}:${seq}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return mulberry32(h);
}

/** A bot's move as codes: a play, or a hand declaration (cirulla; the same seat is asked again for its play after it). */
export type BotMoveCodes = { type: 'play'; card: string; capture: string[] } | { type: 'declare'; mattaValue: number | null };

/** What the bot of `level` does for `seat` from that seat's view only: play, or declare its hand. */
export function botMove(level: BotLevel, state: MatchState, seat: number, rng: () => number, budget?: IsmctsOptions): BotMoveCodes {
  const move = engineBotMove(level, seatView(state, seat), rng, level === 'ismcts' ? budget : undefined);
  if (move.type === 'declare') return { type: 'declare', mattaValue: move.mattaValue };
  const codes = cardCodes([move.play.card, ...move.play.capture]);
  return { type: 'play', card: codes[0], capture: codes.slice(1) };
}

/** The command of a bot's move for the seat held by `player`. */
export function botCommand(player: string, move: BotMoveCodes): Command {
  return move.type === 'declare'
    ? { type: 'declareHand', player, mattaValue: move.mattaValue }
    : { type: 'play', player, card: move.card, capture: move.capture };
}

/** Lets the event loop serve what is waiting (I/O, timers) before going on: promise continuations alone never do. */
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Someone waiting for the replies due now: released after one play per other seat since `from`, or when the chain stops (or the match has no human seat). */
interface Waiter {
  from: number;
  resolve: () => void;
}

/** The one chain of bot turns of a match in this process. */
interface Chain {
  /** Look again before stopping (another append made turns due meanwhile). */
  again: boolean;
  plays: number;
  /** The seq of the chain's last look or append: the next look needs a snapshot at least this recent. */
  seq: number;
  /** Seats of the match and whether one is a person's, from the last look. */
  seats: number;
  humans: boolean | null;
  waiters: Set<Waiter>;
  done: Promise<void>;
}

export class BotSeats {
  private readonly chains = new Map<string, Chain>();
  private readonly budget: IsmctsOptions;
  private readonly maxPlays: number;
  private readonly sweepIdleMs: number;
  private closed = false;

  constructor(
    private readonly store: MatchStore,
    private readonly options: BotSeatsOptions,
  ) {
    this.budget = options.ismcts;
    this.maxPlays = options.maxPlays ?? 2000;
    this.sweepIdleMs = options.sweepIdleMs ?? 2000;
  }

  /**
   * Starts the match's chain (or tells the running one to look again) and
   * returns at once; the promise is the end of the chain (tests, shutdown).
   */
  drive(matchId: string): Promise<void> {
    return this.chain(matchId).done;
  }

  /**
   * The bot replies due now, for a response that should show them: resolves
   * once the bots have played up to the next human turn, at most one play
   * per other seat (the rest of the chain goes on in the background), and at
   * once when the match has no human seat. Never rejects.
   */
  replies(matchId: string): Promise<void> {
    const chain = this.chain(matchId);
    if (this.closed || chain.humans === false) return Promise.resolve();
    return new Promise((resolve) => {
      chain.waiters.add({ from: chain.plays, resolve });
      this.release(chain);
    });
  }

  /**
   * Matches whose turn is a bot's and whose last append is older than the
   * idle time (a restart, or an instance that died mid-chain): each gets a
   * chain here. Returns how many were found.
   */
  async sweep(limit = 100): Promise<number> {
    const ids = await this.store.idleBotTurns(limit, this.sweepIdleMs);
    for (const id of ids) {
      if (this.closed) break;
      void this.drive(id);
    }
    return ids.length;
  }

  /** Stops every chain after the move under way; no new ones start. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.chains.values()].map((c) => c.done));
  }

  private chain(matchId: string): Chain {
    const running = this.chains.get(matchId);
    if (running) {
      running.again = true;
      return running;
    }
    const chain: Chain = { again: true, plays: 0, seq: 0, seats: 0, humans: null, waiters: new Set(), done: Promise.resolve() };
    if (this.closed) return chain;
    this.chains.set(matchId, chain);
    chain.done = this.run(matchId, chain);
    return chain;
  }

  private async run(matchId: string, chain: Chain): Promise<void> {
    try {
      for (let n = 0; chain.again && n < this.maxPlays && !this.closed; n++) {
        // Off the request path: whoever started the chain goes on first (its response), then each slice waits its turn.
        await yieldToLoop();
        if (this.closed) break;
        chain.again = false;
        if (await this.playDue(matchId, chain)) chain.again = true;
        this.release(chain);
      }
    } catch (err) {
      this.options.onError?.(matchId, err);
    } finally {
      this.chains.delete(matchId);
      for (const w of chain.waiters) w.resolve();
      chain.waiters.clear();
    }
  }

  private release(chain: Chain): void {
    for (const w of chain.waiters) {
      if (chain.humans === false || (chain.seats > 0 && chain.plays - w.from >= chain.seats - 1)) {
        chain.waiters.delete(w);
        w.resolve();
      }
    }
  }

  /** Plays the bot turn due now, if any. True when the match moved on (played here or elsewhere): look again. */
  private async playDue(matchId: string, chain: Chain): Promise<boolean> {
    // The first look reads the log (the sweep may start a chain on a cache that another instance left behind);
    // later ones take the snapshot this chain's last append left in the cache (no read): a stale one loses its
    // append to the seq guard and is read again.
    const { seq, state } = chain.seq > 0 ? await this.store.atLeast(matchId, chain.seq) : await this.store.current(matchId);
    chain.seats = state.seats.length;
    chain.humans = state.seats.some((s) => !s.bot);
    if (state.phase !== 'playing' || state.turn < 0) return false;
    const seat = state.seats[state.turn];
    if (!seat?.bot || !seat.player) return false;
    const move = botMove(seat.bot, state, state.turn, botRng(matchId, seq), this.budget);
    // Thinking and appending are two slices: the event loop serves what waits in between.
    await yieldToLoop();
    try {
      const result = await this.store.execute(matchId, botCommand(seat.player, move), {
        actor: seat.player,
        expectedSeq: seq,
        commandKey: { system: 'bot', key: `${seat.player}:seq${seq}` },
      });
      chain.seq = result.seq;
      // Its notices go out before the next bot plays (the store's reactions to this append).
      await this.store.settled(result);
      // A declaration is not a turn played: the same seat plays next, and a waiter waits for that play.
      if (move.type === 'play') chain.plays++;
      return true;
    } catch (err) {
      if (err instanceof DomainError && err.code === 'VERSION_CONFLICT') {
        chain.seq = seq + 1; // someone else moved it on: look again, from the log
        return true;
      }
      throw err;
    }
  }
}
