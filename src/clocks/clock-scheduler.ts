/**
 * Turn clocks. The deadline of the seat to move lives in match_clocks (one
 * row per timed match), written by the async-play trigger on matches in the
 * very statement that appends (so it can never disagree with the log).
 *
 * A tick claims due rows in one statement (SELECT ... FOR UPDATE SKIP LOCKED,
 * then a lease: claimed_until), so that instances polling the same database
 * take different rows; then executes `clockExpired {seat}` through the match
 * store with the row's seq as expectedSeq: only one append can ever succeed
 * at that seq, so each expiry is handled exactly once, whichever instance,
 * and after a crash (the lease runs out and another tick takes the row). A
 * stale row (the turn moved meanwhile) is dropped. The outcome (greedy
 * auto-play, or forfeit) follows the match's settings and is in the log.
 *
 * Before the start, the row of a match may instead be a pending start (kind
 * 'start', written by ./pending-starts.ts): at its deadline the same claim
 * issues `start` in the name of the player who asked for it, with their
 * command key; the decider lets a match start only once, so a second claim
 * (or the last client seed starting it first) finds MATCH_ALREADY_STARTED
 * and drops the row.
 */
import { DomainError } from '../common/domain-error';
import type { Prisma } from '../database/database';
import type { CommandResult, MatchStore } from '../match-store/match-store';
import { MatchClockRows } from '../match-store/match-clocks';
import type { ClockRow } from '../match-store/match-clocks';

export interface ClaimedClock {
  matchId: string;
  /** turn: a turn clock; start: a pending start (./pending-starts.ts). */
  kind: 'turn' | 'start';
  seat: number;
  seq: number;
  onExpiry: string;
  attempts: number;
  /** For a start: who asked for it, and the idempotency key they asked with (the start runs under it, as theirs). */
  startBy: string | null;
  commandKey: string | null;
}

/** expired: this call appended the expiry; stale: the deadline no longer applied (or was already handled); error: retried after the lease. */
export type ExpiryOutcome = 'expired' | 'stale' | 'error';

export interface ClockSchedulerOptions {
  /** Rows claimed per tick (default 20). */
  batch?: number;
  /** How long a claim keeps other instances off a row, in ms (default 30,000). */
  leaseMs?: number;
  onExpired?: (clock: ClaimedClock, result: CommandResult) => void | Promise<void>;
  onError?: (clock: ClaimedClock, err: unknown) => void;
}

/** Codes meaning "this deadline no longer applies": the turn moved, or the match ended. */
const STALE = new Set(['VERSION_CONFLICT', 'NOT_YOUR_TURN', 'MATCH_OVER', 'MATCH_NOT_STARTED', 'IDEMPOTENCY_KEY_REUSED']);
/** ... and for a pending start: the match started meanwhile (or cannot start in this name any more). */
const STALE_START = new Set(['MATCH_ALREADY_STARTED', 'MATCH_OVER', 'NOT_SEATED', 'SEATS_NOT_FILLED']);

const claimed = (r: ClockRow): ClaimedClock => ({
  matchId: r.match_id,
  kind: r.kind === 'start' ? 'start' : 'turn',
  seat: r.seat,
  seq: r.seq,
  onExpiry: r.on_expiry,
  attempts: r.attempts,
  startBy: r.start_by,
  commandKey: r.command_key,
});

export class ClockScheduler {
  private readonly rows: MatchClockRows;

  constructor(
    prisma: Prisma,
    private readonly store: MatchStore,
    private readonly options: ClockSchedulerOptions = {},
  ) {
    this.rows = new MatchClockRows(prisma, options.leaseMs ?? 30_000, options.batch ?? 20);
  }

  /** Claims the due deadlines (rows locked by another transaction are skipped). */
  async claim(): Promise<ClaimedClock[]> {
    return (await this.rows.claimDue()).map(claimed);
  }

  /** Claims the pending start of one match now (none, or held by another claim: null). */
  async claimStart(matchId: string): Promise<ClaimedClock | null> {
    const row = await this.rows.claimStart(matchId);
    return row ? claimed(row) : null;
  }

  /** Handles one claimed expiry. */
  async expire(clock: ClaimedClock): Promise<ExpiryOutcome> {
    const stale = clock.kind === 'start' ? STALE_START : STALE;
    try {
      const result =
        clock.kind === 'start'
          ? await this.start(clock)
          : await this.store.execute(
              clock.matchId,
              { type: 'clockExpired', seat: clock.seat },
              { actor: null, expectedSeq: clock.seq, commandKey: { system: 'clock', key: `seq${clock.seq}:seat${clock.seat}` } },
            );
      if (result.replayed) {
        // Another claim of the same deadline appended it first (same command key): nothing appended here.
        await this.drop(clock);
        return 'stale';
      }
      // The append itself replaced (next turn) or removed (match over) the row.
      await this.options.onExpired?.(clock, result);
      return 'expired';
    } catch (err) {
      if (err instanceof DomainError && stale.has(err.code)) {
        await this.drop(clock);
        return 'stale';
      }
      this.options.onError?.(clock, err);
      return 'error'; // the lease runs out and a later tick tries again
    }
  }

  /** A pending start: seeds may have come in since it was asked for, so no expected seq (the decider starts a match once). */
  private async start(clock: ClaimedClock): Promise<CommandResult> {
    const command = { type: 'start', player: clock.startBy ?? '' } as const;
    try {
      return await this.store.execute(clock.matchId, command, {
        actor: clock.startBy,
        commandKey: clock.commandKey && clock.startBy ? { client: clock.startBy, key: clock.commandKey } : undefined,
      });
    } catch (err) {
      // The asker's key had already answered another command of theirs: start without it rather than never.
      if (clock.commandKey && err instanceof DomainError && err.code === 'IDEMPOTENCY_KEY_REUSED')
        return this.store.execute(clock.matchId, command, { actor: clock.startBy });
      throw err;
    }
  }

  /** One poll: claim, then handle each claimed expiry. Returns the outcomes. */
  async tick(): Promise<ExpiryOutcome[]> {
    const claimed = await this.claim();
    const outcomes: ExpiryOutcome[] = [];
    for (const clock of claimed) outcomes.push(await this.expire(clock));
    return outcomes;
  }

  /** Removes the row if it still is the one claimed (same seq). */
  private async drop(clock: ClaimedClock): Promise<void> {
    await this.rows.drop(clock.matchId, clock.seq, clock.kind);
  }
}
