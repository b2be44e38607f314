/**
 * Seats held by built-in bots play server-side, through the same command path
 * as people (MatchStore.execute, actor = the bot's player id), at most once
 * per seq (expectedSeq, and the system command key `{bot}` `<bot>:seq<n>`,
 * which no client key can reach: src/events/command-key.ts), so that several
 * instances or triggers racing on one turn append one play). A bot sees only
 * its seat's view.
 *
 * Triggers: after each append in this process (the after-append pipeline,
 * src/matches/after-append.ts), and a periodic sweep of matches whose turn is
 * a bot's (so a restart, or an append made by another instance, resumes
 * them). A plain class; BotSeatsService is the Nest provider.
 */
import { botPlay, cardCodes, mulberry32, seatView } from '../engine';
import type { BotLevel, IsmctsOptions, MatchState, Play } from '../engine';
import { DomainError } from '../common/domain-error';
import type { Prisma } from '../database/database';
import type { MatchStore } from '../events/match-store';

export interface BotSeatsOptions {
  /** ismcts budget (default: BOT_ISMCTS_ITERATIONS, BOT_ISMCTS_MS from the env, else the engine's default). */
  ismcts?: IsmctsOptions;
  /** Max bot plays in a row for one match in one drive (a guard). */
  maxPlays?: number;
  onError?: (matchId: string, err: unknown) => void;
}

export function ismctsBudgetFromEnv(env: NodeJS.ProcessEnv = process.env): IsmctsOptions {
  const budget: IsmctsOptions = {};
  if (env.BOT_ISMCTS_ITERATIONS) budget.iterations = Math.max(1, Number(env.BOT_ISMCTS_ITERATIONS));
  if (env.BOT_ISMCTS_MS) {
    budget.ms = Math.max(1, Number(env.BOT_ISMCTS_MS));
    budget.now = () => performance.now();
  }
  return budget;
}

/** The rng of a bot move: a function of the match and the seq only (reproducible, and the same on every instance). */
export function botRng(matchId: string, seq: number): () => number {
  let h = 2166136261;
  for (const ch of `${matchId}:${seq}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return mulberry32(h);
}

/** What the bot of `level` plays for `seat` from that seat's view only. */
export function botMove(level: BotLevel, state: MatchState, seat: number, rng: () => number, budget?: IsmctsOptions): { card: string; capture: string[] } {
  const view = seatView(state, seat);
  const play: Play = botPlay(level, view, rng, level === 'ismcts' ? budget : undefined);
  const codes = cardCodes([play.card, ...play.capture]);
  return { card: codes[0], capture: codes.slice(1) };
}

export class BotSeats {
  private readonly running = new Map<string, { again: boolean; done: Promise<void> }>();
  private readonly budget: IsmctsOptions;
  private readonly maxPlays: number;
  private closed = false;

  constructor(
    private readonly prisma: Prisma,
    private readonly store: MatchStore,
    private readonly options: BotSeatsOptions = {},
  ) {
    this.budget = options.ismcts ?? ismctsBudgetFromEnv();
    this.maxPlays = options.maxPlays ?? 2000;
  }

  /**
   * Plays every bot turn of the match now due, one after another, until a
   * human is to move or the match is over. Concurrent calls for one match
   * share one run (which looks again before it stops).
   */
  drive(matchId: string): Promise<void> {
    const run = this.running.get(matchId);
    if (run) {
      run.again = true;
      return run.done;
    }
    const entry = { again: true, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        while (entry.again && !this.closed) {
          entry.again = false;
          await this.playDue(matchId);
        }
      } catch (err) {
        this.options.onError?.(matchId, err);
      } finally {
        this.running.delete(matchId);
      }
    })();
    this.running.set(matchId, entry);
    return entry.done;
  }

  /** Matches whose turn is a bot's (sweep after a restart, or appends made elsewhere): driven one by one. */
  async sweep(limit = 100): Promise<number> {
    const rows = await this.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text AS id FROM matches WHERE status = 'playing' AND turn_player LIKE 'bot:%' ORDER BY updated_at LIMIT $1::int`,
      limit,
    );
    for (const r of rows) {
      if (this.closed) break;
      await this.drive(r.id);
    }
    return rows.length;
  }

  /** Waits for the runs under way; no new ones start. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  private async playDue(matchId: string): Promise<void> {
    for (let n = 0; n < this.maxPlays && !this.closed; n++) {
      const { seq, state } = await this.store.current(matchId);
      if (state.phase !== 'playing' || state.turn < 0) return;
      const seat = state.seats[state.turn];
      if (!seat?.bot || !seat.player) return;
      const move = botMove(seat.bot, state, state.turn, botRng(matchId, seq), this.budget);
      try {
        const result = await this.store.execute(
          matchId,
          { type: 'play', player: seat.player, card: move.card, capture: move.capture },
          { actor: seat.player, expectedSeq: seq, commandKey: { system: 'bot', key: `${seat.player}:seq${seq}` } },
        );
        // Its notices go out before the next bot plays (the store's reactions to this append).
        await this.store.settled(result);
      } catch (err) {
        if (err instanceof DomainError && err.code === 'VERSION_CONFLICT') continue; // someone else moved it on: look again
        throw err;
      }
    }
  }

}
