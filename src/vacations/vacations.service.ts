/**
 * Vacations for correspondence play (docs/async-play.md "Vacations"): while
 * a player's vacation runs, the turn clocks of their seats in correspondence
 * matches (a turn limit of a day or more) stand still, and resume with the
 * time they had left when it ends (early, DELETE /v1/account/vacation, or at
 * its until). Live matches are not touched: the engine pauses only a
 * correspondence clock.
 *
 * The pause is in each match's log: `pauseClock` / `resumeClock` commands
 * (ClockPaused, ClockResumed, actor null: the system; `scopa-rules/5`), so
 * replay, the audit and every instance's clocks follow it (the append's
 * trigger keeps a paused clock's time left beside its row). A vacation
 * cannot stop a clock that already ran out: such a seat is left to expire.
 *
 * Which clocks are paused follows one rule, applied by follow(): a seat of
 * the player in a correspondence match not over is paused if and only if a
 * vacation of theirs runs now. It is applied at once on the request's path
 * (the fast path), and durably by the 'vacation-clocks' jobs queued in the
 * transaction that records the start (due now, and at its until) and an
 * early end, so a crash between the commit and the appends only delays
 * them. Each run reads each seat's state, so a second run (a retry, another
 * worker, a new vacation meanwhile) appends nothing twice. A match made
 * while its player is away (a seat taken, a start) is followed by
 * matchAppended() (the after-append step `vacations`).
 */
import { Injectable, Logger } from '@nestjs/common';
import type { OnModuleInit } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../common/principal';
import { VacationsConfig } from '../config/slices';
import { JobQueue } from '../jobs/job-queue';
import type { Job } from '../jobs/job-queue';
import { MatchStore } from '../match-store/match-store';
import type { CommandResult } from '../match-store/match-store';
import { isCorrespondence } from '../engine';
import { VacationsStore } from './vacations-store';
import type { VacationClocksJob, VacationRow } from './vacations-store';

const DAY_MS = 86_400_000;

/** My vacation and my allowance. */
export interface VacationStatus {
  /** When my running vacation ends; null when I am not on vacation. */
  onVacationUntil: Date | null;
  /** When it started; null when I am not on vacation. */
  startedAt: Date | null;
  /** VACATION_DAYS_PER_YEAR. */
  allowanceDays: number;
  /** Days of the allowance left: the allowance less the vacations that started in the last 365 days (a running one to its until). */
  daysLeft: number;
}

/** What a seat's append may leave for follow(): the codes meaning "nothing to do here". */
const NOTHING_TO_DO = new Set(['INVALID_COMMAND', 'MATCH_OVER', 'MATCH_NOT_CREATED', 'NOT_FOUND']);

@Injectable()
export class VacationsService implements OnModuleInit {
  private readonly logger = new Logger('Vacations');

  constructor(
    private readonly vacations: VacationsStore,
    private readonly store: MatchStore,
    private readonly jobs: JobQueue,
    private readonly config: VacationsConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.handle<VacationClocksJob>('vacation-clocks', (job) => this.run(job));
  }

  private get allowanceMs(): number {
    return this.config.VACATION_DAYS_PER_YEAR * DAY_MS;
  }

  /** My vacation and what is left of my allowance. */
  async status(caller: Principal): Promise<VacationStatus> {
    const [running, used] = await Promise.all([this.vacations.running(caller.accountId), this.vacations.used(caller.accountId)]);
    return this.statusOf(running, used.usedMs);
  }

  private statusOf(running: VacationRow | null, usedMs: number): VacationStatus {
    return {
      onVacationUntil: running ? new Date(running.until) : null,
      startedAt: running ? new Date(running.started_at) : null,
      allowanceDays: this.config.VACATION_DAYS_PER_YEAR,
      daysLeft: Math.max(0, Math.floor(((this.allowanceMs - usedMs) / DAY_MS) * 1000) / 1000),
    };
  }

  /**
   * Starts my vacation until `until` (in the future, within what is left of my allowance): my correspondence clocks
   * stand still from now. LIMIT_REACHED beyond the allowance (details: allowanceDays, daysLeft, latestUntil);
   * CONFLICT when a vacation of mine already runs (end it first).
   */
  async start(caller: Principal, untilInput: string | Date): Promise<VacationStatus> {
    const until = untilInput instanceof Date ? untilInput : new Date(untilInput);
    if (Number.isNaN(until.getTime())) throw new DomainError('VALIDATION_FAILED', 'until must be an ISO 8601 date-time', { field: 'until' });
    const row = await this.vacations
      .start({ id: caller.accountId, username: caller.username }, until, ({ usedMs, now }, running) => {
        if (running) {
          throw new DomainError('CONFLICT', `already on vacation until ${new Date(running.until).toISOString()}: end it first`, {
            onVacationUntil: new Date(running.until).toISOString(),
          });
        }
        if (until.getTime() <= now.getTime()) throw new DomainError('VALIDATION_FAILED', 'until must be in the future', { field: 'until' });
        const leftMs = Math.max(0, this.allowanceMs - usedMs);
        if (until.getTime() - now.getTime() > leftMs) {
          throw new DomainError(
            'LIMIT_REACHED',
            `a vacation may last what is left of VACATION_DAYS_PER_YEAR (${this.config.VACATION_DAYS_PER_YEAR} days in any 365): ${(leftMs / DAY_MS).toFixed(3)} days`,
            {
              limit: 'VACATION_DAYS_PER_YEAR',
              allowanceDays: this.config.VACATION_DAYS_PER_YEAR,
              daysLeft: Math.floor((leftMs / DAY_MS) * 1000) / 1000,
              latestUntil: new Date(now.getTime() + leftMs).toISOString(),
            },
          );
        }
      })
      .catch((err: unknown) => {
        if (err instanceof DomainError) throw err;
        if (/vacations_one_running|unique/i.test((err as Error)?.message ?? '')) throw new DomainError('CONFLICT', 'already on vacation: end it first');
        throw err;
      });
    await this.follow(caller.username, row.id);
    return this.status(caller);
  }

  /** Ends my vacation now (nothing when none runs): my correspondence clocks run again with the time they had left. */
  async end(caller: Principal): Promise<VacationStatus> {
    const row = await this.vacations.end(caller.accountId);
    if (row) await this.follow(caller.username, row.id);
    return this.status(caller);
  }

  /** The players among `usernames` on vacation now, each with when it ends (the match view's seats, the profile). */
  onVacationUntil(usernames: readonly string[]): Promise<Map<string, Date>> {
    return this.vacations.runningOf(usernames);
  }

  /** A 'vacation-clocks' job: at its until the vacation ends first; then the player's clocks follow. */
  private async run(job: Job<VacationClocksJob>): Promise<void> {
    if (job.data.at === 'until') await this.vacations.endDue(job.data.vacationId);
    await this.follow(job.data.username, job.data.vacationId, true);
  }

  /**
   * The rule, applied to every seat of `username` in a correspondence match not over: paused if and only if a vacation
   * of theirs runs now, except a clock that already ran out (never paused). `strict` (a job): a seat whose append
   * failed for another reason fails the run, so that the queue retries it.
   */
  async follow(username: string, vacationId: string, strict = false): Promise<void> {
    const away = await this.vacations.isAway(username);
    const seats = await this.store.correspondenceSeatsOf(username);
    let failed: Error | null = null;
    for (const seat of seats) {
      try {
        const { state } = await this.store.current(seat.matchId);
        const paused = state.clockPaused[seat.seat] === true;
        if (state.seats[seat.seat]?.player !== username || paused === away) continue;
        if (away && seat.expired) continue; // a vacation cannot stop a clock that ran out
        await this.store.execute(seat.matchId, { type: away ? 'pauseClock' : 'resumeClock', seat: seat.seat }, { actor: null });
      } catch (err) {
        if (err instanceof DomainError && NOTHING_TO_DO.has(err.code)) continue;
        this.logger.warn(`vacation ${vacationId}: ${seat.matchId} seat ${seat.seat} not ${away ? 'paused' : 'resumed'}: ${(err as Error).message}`);
        failed ??= err instanceof Error ? err : new Error(String(err));
      }
    }
    if (failed && strict) throw failed;
  }

  /**
   * The after-append step `vacations`: a correspondence match that takes a seat or starts while one of its players is
   * on vacation gets that seat's clock paused (a turn that comes to a paused seat starts paused). One read of the
   * vacations of the match's players, only for an append that seats someone or starts a correspondence match.
   */
  async matchAppended(result: CommandResult): Promise<void> {
    if (!result.events.some((e) => e.type === 'SeatTaken' || e.type === 'MatchCreated' || e.type === 'MatchStarted')) return;
    const snap = this.store.peek(result.matchId);
    const state = snap?.state ?? (await this.store.current(result.matchId)).state;
    if (!isCorrespondence(state.settings.turnTimeLimit) || state.phase === 'over') return;
    const players = state.seats.map((s) => (s.bot ? null : s.player)).filter((p): p is string => p !== null);
    const away = await this.vacations.runningOf(players);
    for (const player of away.keys()) await this.follow(player, 'a match made while away');
  }
}
