/**
 * A start that waits for the client seeds (docs/fairness.md "In the
 * service: giving seeds, and a start that waits for them"). When a player asks to start a `scopa-rules/2` match while a human
 * seat has not given its client seed, no event is appended: a pending start
 * is recorded instead, as a match_clocks row of kind 'start' with the
 * deadline now + CLIENT_SEED_WINDOW, and the clock scheduler
 * (./clock-scheduler.ts) issues the `start` command at that deadline, in the
 * asker's name and with their command key, through MatchStore.execute like
 * any command. When the last human seat gives its seed first, the start is
 * issued at once in process (afterAppend, from the after-append pipeline, so
 * that the answer to that seed shows the match dealt). That in-process start
 * is only the fast path: the row and the seed are committed, and the clocks'
 * scan queues a due-now 'match-deadline' job for any pending start whose
 * match had appends since it was asked for, which starts it if the seeds are
 * complete (within CLOCK_POLL_MS, on any instance, should this one die before
 * its own start). The decider starts a match once, so the start happens once
 * whichever gets there first; the append that starts the match removes the
 * row (the async-play trigger).
 */
import { Injectable } from '@nestjs/common';
import { seatsAwaitingClientSeed } from '../engine';
import { PrismaService } from '../database/prisma.service';
import { MatchStore } from '../match-store/match-store';
import type { CommandResult, StoreTransaction } from '../match-store/match-store';
import { ClockSchedulerService } from './clock-scheduler.service';
import { ClocksConfig } from '../config/slices';
import { PendingStartRows } from '../match-store/match-clocks';

// The rows are the match store's (match_clocks, src/match-store/match-clocks.ts); match creation records one in its transaction.
export { PENDING_START_SQL } from '../match-store/match-clocks';

@Injectable()
export class PendingStarts {
  /** CLIENT_SEED_WINDOW in ms (0: a start never waits). */
  private readonly rows: PendingStartRows;
  get windowMs(): number {
    return this.settings.CLIENT_SEED_WINDOW;
  }

  constructor(
    prisma: PrismaService,
    private readonly store: MatchStore,
    private readonly clocks: ClockSchedulerService,
    private readonly settings: ClocksConfig,
  ) {
    this.rows = new PendingStartRows(prisma);
  }

  /**
   * Records that `player` asked to start the open match at `seq` (the first
   * asker's deadline and key stay), then starts it at once if the seeds came
   * in meanwhile. Returns the deadline, or null when the match started (or
   * is no longer open).
   */
  async request(matchId: string, seq: number, player: string, idempotencyKey: string | null): Promise<Date | null> {
    await this.rows.record(matchId, seq, this.windowMs, player, idempotencyKey);
    // A last seed appended before this row existed found nothing to start: look again (row first, then the log).
    const { state } = await this.store.current(matchId);
    if (state.phase === 'open' && seatsAwaitingClientSeed(state).length === 0) await this.startNow(matchId);
    return this.startsAt(matchId);
  }

  /**
   * Records the pending start of a match created in `tx` (the transaction of
   * its create: the match maker's), in the name of `player`, with no command key.
   */
  async recordInTransaction(tx: StoreTransaction, matchId: string, seq: number, player: string): Promise<void> {
    await this.rows.record(matchId, seq, this.windowMs, player, null, tx);
  }

  /** When the pending start of a match deals at the latest; null when none is pending. */
  async startsAt(matchId: string): Promise<Date | null> {
    return this.rows.deadline(matchId);
  }

  /** Issues the pending start of a match now, if there is one (a start issued meanwhile elsewhere makes this one stale); waits for its reactions. */
  async startNow(matchId: string): Promise<void> {
    const clock = await this.clocks.scheduler.pendingStart(matchId);
    if (clock) await this.clocks.scheduler.expire(clock);
  }

  /** After-append reaction: the last human seed of an open match with a pending start starts it. */
  async afterAppend(result: CommandResult): Promise<void> {
    const gaveSeed = result.events.some((e) => e.type === 'ClientSeedGiven' || (e.type === 'SeatTaken' && typeof e.payload.clientSeed === 'string'));
    // Not skipped when the window is 0: a pending start recorded under another setting (before a restart) still deals on its last seed.
    if (!gaveSeed) return;
    // A seat taken now was open before this append, and a start is asked for only once every seat is taken: none waits.
    if (result.events[0]?.type !== 'MatchCreated' && result.events.some((e) => e.type === 'SeatTaken')) return;
    const { state } = await this.store.atLeast(result.matchId, result.seq);
    if (state.phase !== 'open' || seatsAwaitingClientSeed(state).length > 0) return;
    await this.startNow(result.matchId);
  }
}
