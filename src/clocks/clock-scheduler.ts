/**
 * Turn clocks. The deadline of the seat to move lives in match_clocks (one
 * row per timed match), written by the async-play trigger on matches in the
 * very statement that appends (so it can never disagree with the log).
 *
 * The deadlines run on the job queue (src/jobs): a scan (scan(), every
 * CLOCK_POLL_MS on the scheduler's periodic task) reads the rows due within a
 * short lookahead, with no lock and no lease, and queues one 'match-deadline'
 * job per row, starting at its deadline (pg-boss's start_after), keyed by
 * (match, seq, kind, deadline) so that every scan of every instance queues
 * the same job once. A worker (this process's, or `npm run worker`'s) fetches
 * it at the deadline, one worker per job, and executes `clockExpired {seat}`
 * through the match store with the row's seq as expectedSeq and a command
 * key of the clock's: only one append can ever succeed at that seq, so each
 * expiry is handled exactly once, whichever worker, even when a worker killed
 * mid-job (its job expires and is retried elsewhere) had already appended. A
 * stale deadline (the turn moved meanwhile) completes its job and drops the
 * row. The outcome (greedy auto-play, or forfeit) follows the match's
 * settings and is in the log.
 *
 * Before the start, the row of a match may instead be a pending start (kind
 * 'start', written by ./pending-starts.ts): at its deadline the job issues
 * `start` in the name of the player who asked for it, with their command
 * key; the decider lets a match start only once, so a second run (or the
 * last client seed starting it first) finds MATCH_ALREADY_STARTED and drops
 * the row. A pending start whose match had appends since it was asked for
 * (a client seed) also gets a job due at once (`seeded`), which starts the
 * match if its seeds are complete: the durable twin of the last seed's own
 * start (./pending-starts.ts), should the instance that appended it die first.
 */
import { DomainError } from '../common/domain-error';
import type { Prisma } from '../database/database';
import type { PreparedDatabase } from '../database/database';
import { seatsAwaitingClientSeed } from '../engine';
import type { CommandResult, MatchStore } from '../match-store/match-store';
import { MatchClockRows } from '../match-store/match-clocks';
import type { DeadlineRow } from '../match-store/match-clocks';
import { jobDatabase } from '../jobs/job-database';
import { JobQueue } from '../jobs/job-queue';
import type { Job } from '../jobs/job-queue';
import { JOB_KINDS } from '../jobs/job-kinds';

/** A deadline as its job carries it. */
export interface DueClock {
  matchId: string;
  /** turn: a turn clock; start: a pending start (./pending-starts.ts). */
  kind: 'turn' | 'start';
  seat: number;
  seq: number;
  onExpiry: string;
  /** For a start: who asked for it, and the idempotency key they asked with (the start runs under it, as theirs). */
  startBy: string | null;
  commandKey: string | null;
  /** A start due because the match had appends since it was asked for: it starts only if the client seeds are complete. */
  seeded?: boolean;
}

/** expired: this run appended the expiry; stale: the deadline no longer applied (or was already handled); error: its job is retried. */
export type ExpiryOutcome = 'expired' | 'stale' | 'error';

export interface ClockSchedulerOptions {
  /** The job queue the deadlines go through; without one, a queue of this scheduler's own on the same database (a second instance in a test). */
  jobs?: JobQueue;
  /** Deadlines queued per scan (default 20). */
  batch?: number;
  /** How far ahead of its deadline a row is queued, in ms (default 2000: more than a scan period, so a job is waiting at its deadline). */
  lookaheadMs?: number;
  /** Workers of 'match-deadline' jobs in this process (default 1; 0: only tick() runs them). */
  workers?: number;
  /** How often an idle worker looks for a due deadline another process queued, seconds (default: the queue's JOB_POLL_SECONDS). */
  pollingSeconds?: number;
  /** How long a run may hold its job before it is deemed lost (its worker died) and retried elsewhere, ms (CLOCK_LEASE_MS; default the kind's, 60 s). */
  expireMs?: number;
  onExpired?: (clock: DueClock, result: CommandResult) => void | Promise<void>;
  onError?: (clock: DueClock, err: unknown) => void;
}

/** Codes meaning "this deadline no longer applies": the turn moved, or the match ended. */
const STALE = new Set(['VERSION_CONFLICT', 'NOT_YOUR_TURN', 'MATCH_OVER', 'MATCH_NOT_STARTED', 'IDEMPOTENCY_KEY_REUSED']);
/** ... and for a pending start: the match started meanwhile (or cannot start in this name any more). */
const STALE_START = new Set(['MATCH_ALREADY_STARTED', 'MATCH_OVER', 'NOT_SEATED', 'SEATS_NOT_FILLED']);

export const DEADLINE_JOB = 'match-deadline' as const;

export function dueClock(r: DeadlineRow): DueClock {
  return {
    matchId: r.match_id,
    kind: r.kind === 'start' ? 'start' : 'turn',
    seat: r.seat,
    seq: r.seq,
    onExpiry: r.on_expiry,
    startBy: r.start_by,
    commandKey: r.command_key,
    seeded: r.seeded,
  };
}

/** A queue over the scheduler's own database, for a scheduler built without one: runs jobs only when asked (tick()), no maintenance timers. */
function ownQueue(prisma: Prisma): JobQueue {
  const database = (prisma as Partial<{ database: PreparedDatabase }>).database;
  if (!database) throw new Error('a ClockScheduler over a bare client needs options.jobs');
  return new JobQueue(jobDatabase(database), { workers: false, pollingSeconds: 0.5, maintenanceSeconds: 30, supervise: false });
}

export class ClockScheduler {
  private readonly rows: MatchClockRows;
  private readonly batch: number;
  private jobs: JobQueue | null;
  private registered: Promise<void> | null = null;
  /** The runs of this process's handler, collected by each tick() under way (a worker may take a job a tick just queued). */
  private readonly collecting = new Set<Promise<ExpiryOutcome>[]>();

  constructor(
    private readonly prisma: Prisma,
    private readonly store: MatchStore,
    private readonly options: ClockSchedulerOptions = {},
  ) {
    this.batch = options.batch ?? 20;
    this.rows = new MatchClockRows(prisma, options.lookaheadMs ?? 2000, this.batch);
    this.jobs = options.jobs ?? null;
    // A failed registration (a second handler of the kind on one queue) is thrown again by tick().
    if (this.jobs) this.register(this.jobs).catch(() => undefined);
  }

  private register(jobs: JobQueue): Promise<void> {
    this.registered ??= jobs.handle<DueClock>(DEADLINE_JOB, (job) => this.run(job), {
      concurrency: this.options.workers ?? 1,
      pollingSeconds: this.options.pollingSeconds,
      policy:
        this.options.expireMs === undefined
          ? undefined
          : { ...JOB_KINDS[DEADLINE_JOB], expireInSeconds: Math.max(1, Math.round(this.options.expireMs / 1000)) },
    });
    return this.registered;
  }

  private async queue(): Promise<JobQueue> {
    this.jobs ??= ownQueue(this.prisma);
    await this.register(this.jobs);
    return this.jobs;
  }

  /** Queues a job for each deadline due within the lookahead that has none yet (a plain read: no lock, no lease); returns them. */
  async scan(): Promise<DueClock[]> {
    return (await this.rows.scan()).map(dueClock);
  }

  /**
   * The periodic tick of a process with deadline workers: the scan, then this process's workers woken at once for the
   * jobs due already and at its deadline for each of the others (JobQueue.wakeAt), so that no worker polls for them.
   * Without workers here (CLOCK_POLL_MS=0, JOB_WORKERS=0, a scheduler over its own queue), it is tick(): the due jobs
   * run here and now.
   */
  async sweep(): Promise<unknown> {
    const jobs = await this.queue();
    if (!jobs.working().includes(DEADLINE_JOB)) return this.tick();
    const now = Date.now();
    for (const row of await this.rows.scan()) {
      const deadline = new Date(row.deadline);
      if (deadline.getTime() <= now) jobs.notify(DEADLINE_JOB);
      else jobs.wakeAt(DEADLINE_JOB, deadline);
    }
    return undefined;
  }

  /** The handler of a 'match-deadline' job: an error is thrown so that pg-boss retries it with the kind's back-off. */
  private async run(job: Job<DueClock>): Promise<void> {
    const outcome = this.expire(job.data);
    for (const runs of this.collecting) runs.push(outcome);
    if ((await outcome) === 'error') throw new Error(`deadline of ${job.data.matchId}@${job.data.seq} not handled; retried`);
  }

  /** Handles one due deadline. */
  async expire(clock: DueClock): Promise<ExpiryOutcome> {
    const stale = clock.kind === 'start' ? STALE_START : STALE;
    try {
      if (clock.seeded && !(await this.seedsComplete(clock.matchId))) return 'stale'; // not yet: its deadline still stands
      const result =
        clock.kind === 'start'
          ? await this.start(clock)
          : await this.store.execute(
              clock.matchId,
              { type: 'clockExpired', seat: clock.seat },
              { actor: null, expectedSeq: clock.seq, commandKey: { system: 'clock', key: `seq${clock.seq}:seat${clock.seat}` } },
            );
      if (result.replayed) {
        // Another run of the same deadline appended it first (same command key): nothing appended here.
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
      return 'error';
    }
  }

  private async seedsComplete(matchId: string): Promise<boolean> {
    const { state } = await this.store.current(matchId);
    return state.phase === 'open' && seatsAwaitingClientSeed(state).length === 0;
  }

  /** A pending start: seeds may have come in since it was asked for, so no expected seq (the decider starts a match once). */
  private async start(clock: DueClock): Promise<CommandResult> {
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

  /**
   * One tick here and now: the scan, then the due 'match-deadline' jobs run in this process (those another worker
   * holds are left to it). Returns the outcomes of the runs of this process's handler during the tick.
   */
  async tick(): Promise<ExpiryOutcome[]> {
    const runs: Promise<ExpiryOutcome>[] = [];
    this.collecting.add(runs);
    try {
      const jobs = await this.queue();
      await this.rows.scan();
      await jobs.runDue(DEADLINE_JOB, this.batch);
      return await Promise.all(runs);
    } finally {
      this.collecting.delete(runs);
    }
  }

  /** The pending start of one match as a due deadline (its last seed came in), or null when none is pending. */
  async pendingStart(matchId: string): Promise<DueClock | null> {
    const row = await this.rows.pendingStart(matchId);
    return row ? dueClock(row) : null;
  }

  /** Removes the row if it still is the one the job was for (same seq). */
  private async drop(clock: DueClock): Promise<void> {
    await this.rows.drop(clock.matchId, clock.seq, clock.kind);
  }
}
