/**
 * The one job queue of the service: pg-boss (a PostgreSQL job queue) in schema
 * `pgboss` of the service's own database, embedded or PostgreSQL
 * (./job-database.ts). Every kind of background work with a lasting effect is
 * a job of one of the kinds of ./job-kinds.ts: durable (a row, often inserted
 * by the very transaction that causes it, see ./enqueue.ts), fetched by one
 * worker at a time (`FOR UPDATE SKIP LOCKED`), retried with back-off when its
 * handler fails or when it stays active past its expiry (a worker killed
 * mid-job: pg-boss's maintenance, run by whichever process gets to it first,
 * fails it by timeout and the retry runs elsewhere), and kept with its error
 * once it fails for good.
 *
 * Features register a handler per kind (handle()); a process with job workers
 * (JOB_WORKERS > 0: the service by default, `npm run worker`) works every
 * registered kind once started. A process without only sends.
 */
import PgBoss from 'pg-boss';
import type { JobDatabase } from './job-database';
import { JOB_KIND_NAMES, JOB_KINDS } from './job-kinds';
import type { JobKind, JobPolicy } from './job-kinds';

export interface JobQueueOptions {
  /** Whether this process runs the registered handlers (JOB_WORKERS > 0). */
  workers: boolean;
  /** How often an idle worker looks for a due job (JOB_POLL_SECONDS, at least 0.5). */
  pollingSeconds: number;
  /** How often expired jobs are failed back to their queue (JOB_MAINTENANCE_SECONDS). */
  maintenanceSeconds: number;
  /** Whether this process takes its turn at pg-boss's maintenance (default true; false: a queue that only runs jobs when asked, no timers). */
  supervise?: boolean;
}

export interface Job<T = Record<string, unknown>> {
  id: string;
  name: JobKind;
  data: T;
  retryCount: number;
  retryLimit: number;
  /** When the job was queued: for a job queued by an append's transaction, that transaction's now(). */
  createdOn: Date;
}

export type JobHandler<T = Record<string, unknown>> = (job: Job<T>) => Promise<void>;

export interface HandleOptions {
  /** Jobs of this kind run at once in this process (default 1). */
  concurrency?: number;
  /** Overrides the kind's policy of ./job-kinds.ts (analysis: from ANALYSIS_* variables). */
  policy?: JobPolicy;
  /** How often an idle worker of this kind polls, seconds (default: the queue's). */
  pollingSeconds?: number;
  /**
   * False: this process works the kind only through runDue() (e.g. WEBHOOK_POLL_MS=0), whatever JOB_WORKERS says.
   * True: it works the kind whatever JOB_WORKERS says (analyses: ANALYSIS_WORKERS decides). Default: JOB_WORKERS.
   */
  workers?: boolean;
}

export interface SendOptions {
  /** The job's id (./job-ids.ts): the same id again is a no-op while that job is kept. */
  id?: string;
  /** Not before this time (a deadline). */
  startAfter?: Date;
}

/** A job that failed for good (or is waiting for its next retry), as an operator sees it. */
export interface FailedJob {
  id: string;
  kind: string;
  state: string;
  data: unknown;
  error: unknown;
  retryCount: number;
  retryLimit: number;
  createdOn: Date;
  completedOn: Date | null;
}

/** One kind's queue: jobs waiting (created or retry), running, failed for good, and how long the oldest has waited. */
export interface QueueStats {
  kind: string;
  waiting: number;
  active: number;
  failed: number;
  /** Seconds since the oldest due waiting job became due (0: none). */
  oldestWaitingSeconds: number;
}

/** The outcome of a job run through runDue(). */
export type RunOutcome = 'completed' | 'failed';

/** Days a job that failed for good stays in the job table (then in pgboss.archive, read by failed() too). */
const FAILED_KEPT_DAYS = 30;

const FAILED_SQL = `
SELECT id::text, name AS kind, state::text, data, output AS error, retry_count, retry_limit, created_on, completed_on
FROM (SELECT id, name, state, data, output, retry_count, retry_limit, created_on, completed_on FROM pgboss.job WHERE state = 'failed'
      UNION ALL
      SELECT id, name, state, data, output, retry_count, retry_limit, created_on, completed_on FROM pgboss.archive WHERE state = 'failed') f
WHERE ($1::text IS NULL OR name = $1::text)
ORDER BY completed_on DESC NULLS LAST, id
LIMIT $2::int OFFSET $3::int`;

const STATS_SQL = `
SELECT name AS kind,
  count(*) FILTER (WHERE state IN ('created', 'retry'))::int AS waiting,
  count(*) FILTER (WHERE state = 'active')::int AS active,
  count(*) FILTER (WHERE state = 'failed')::int AS failed,
  COALESCE(EXTRACT(EPOCH FROM now() - min(start_after) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())), 0)::float8 AS oldest
FROM pgboss.job GROUP BY name`;

// Jobs of a kind not yet finished (waiting, retrying or running).
const UNFINISHED_SQL = `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1::text AND state < 'completed'`;

// Whether any of these jobs (by kind and id: the primary key) is not finished.
const ANY_UNFINISHED_SQL = `SELECT EXISTS (SELECT 1 FROM pgboss.job WHERE name = ANY($1::text[]) AND id = ANY($2::uuid[]) AND state < 'completed') AS pending`;

// Jobs of a kind made before the job $2, still waiting (or waiting for a retry), in order of (creation time, the uuid in
// data field $3): the job's own row gives its creation time to the microsecond (a JS Date has milliseconds: two ends
// within one would be taken either way), and the uuid breaks a tie (two matches ended by one batched append) as the
// ratings rebuild does, not the job id (a hash).
const WAITING_BEFORE_SQL = `
SELECT j.id::text, j.data FROM pgboss.job j, (SELECT created_on, (data->>$3::text)::uuid AS tie FROM pgboss.job WHERE name = $1::text AND id = $2::uuid) me
WHERE j.name = $1::text AND j.state < 'active' AND j.id <> $2::uuid AND (j.created_on, (j.data->>$3::text)::uuid) < (me.created_on, me.tie)
ORDER BY j.created_on, (j.data->>$3::text)::uuid`;

// Whether a transaction of another session on this database, begun no later than the job $1 was made (compared in
// SQL, to the microsecond), is still open: what it writes could be dated before the job.
const OPEN_WRITE_BEFORE_SQL = `
SELECT EXISTS (
  SELECT 1 FROM pg_stat_activity a, (SELECT created_on FROM pgboss.job WHERE id = $1::uuid) me
  WHERE a.pid <> pg_backend_pid() AND a.datname = current_database() AND a.xact_start IS NOT NULL AND a.xact_start <= me.created_on
    AND a.state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')
) AS open`;

/** A wake-up at a job's due time comes this much after it: the fetch compares start_after < now() on the database's clock. */
const WAKE_SLACK_MS = 5;
/** How far ahead a wake-up is kept in memory (a deadline's is seconds ahead). */
const MAX_WAKE_AHEAD_MS = 3_600_000;

/** How often the second and further workers of a kind poll when idle (a worker that ran a job wakes them). */
const SPARE_WORKER_POLL_SECONDS = 5;

interface Registered {
  kind: JobKind;
  handler: JobHandler<never>;
  options: HandleOptions;
  workerIds: string[];
}

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly db: JobDatabase;
  private readonly handlers = new Map<JobKind, Registered>();
  private readonly policies = new Map<JobKind, JobPolicy>();
  private readonly failureListeners: ((kind: JobKind, willRetry: boolean) => void)[] = [];
  /** Per kind, the times this process's workers are to be woken at (wakeAt), earliest first, and the one timer set for the earliest. */
  private readonly wakeTimes = new Map<JobKind, number[]>();
  private readonly wakeTimers = new Map<JobKind, { at: number; timer: ReturnType<typeof setTimeout> }>();
  private starting: Promise<void> | null = null;
  private started = false;
  private stopped = false;

  constructor(
    db: JobDatabase,
    private readonly options: JobQueueOptions,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    // pg-boss completes or fails a job without awaiting it: a handler that ends after the stop (its job already given
    // back by the stop) would write to a database that may be closed by then, an unhandled rejection. After the stop
    // those late writes are dropped.
    this.db = { executeSql: (text, values) => (this.stopped ? Promise.resolve({ rows: [] }) : db.executeSql(text, values)) };
    // No cron (schedule: false: the periodic tasks are ./scheduler.ts's); maintenance (supervise) on every process unless
    // told otherwise: pg-boss lets one run it per interval.
    this.boss = new PgBoss({
      db: this.db,
      schedule: false,
      supervise: options.supervise ?? true,
      maintenanceIntervalSeconds: options.maintenanceSeconds,
      archiveFailedAfterSeconds: FAILED_KEPT_DAYS * 24 * 3600,
    } as PgBoss.ConstructorOptions);
    this.boss.on('error', onError);
  }

  /** Registers the handler of a kind; it is worked from start() on (at once if already started), in a process with workers. */
  async handle<T>(kind: JobKind, handler: JobHandler<T>, options: HandleOptions = {}): Promise<void> {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} already has a handler`);
    const registered: Registered = { kind, handler: handler as JobHandler<never>, options, workerIds: [] };
    this.handlers.set(kind, registered);
    if (options.policy) this.policies.set(kind, options.policy);
    if (this.started) {
      if (options.policy) await this.applyPolicy(kind);
      await this.startWorkers(registered);
    }
  }

  /** Starts pg-boss, sets each queue's policy, then works the registered kinds (when this process has workers). Idempotent. */
  start(): Promise<void> {
    this.starting ??= this.doStart();
    return this.starting;
  }

  private async doStart(): Promise<void> {
    await this.boss.start();
    for (const kind of JOB_KIND_NAMES) await this.applyPolicy(kind);
    this.started = true;
    for (const registered of this.handlers.values()) await this.startWorkers(registered);
  }

  private async applyPolicy(kind: JobKind): Promise<void> {
    const p: JobPolicy = this.policies.get(kind) ?? JOB_KINDS[kind];
    await this.boss.updateQueue(kind, {
      name: kind,
      policy: p.queuePolicy ?? 'standard',
      retryLimit: p.retryLimit,
      retryDelay: p.retryDelaySeconds,
      retryBackoff: p.retryBackoff,
      expireInSeconds: p.expireInSeconds,
    } as PgBoss.Queue);
  }

  private async startWorkers(registered: Registered): Promise<void> {
    if (!(registered.options.workers ?? this.options.workers) || this.stopped) return;
    const concurrency = registered.options.concurrency ?? 1;
    const kind: JobPolicy = JOB_KINDS[registered.kind];
    const polling = registered.options.pollingSeconds ?? kind.idlePollSeconds ?? this.options.pollingSeconds;
    for (let i = 0; i < concurrency; i++) {
      // Each poll is a statement on the database, every interval, on every process, busy or not: of a kind that drains
      // (./job-kinds.ts), the first worker polls at the kind's interval, the others at SPARE_WORKER_POLL_SECONDS, and a
      // worker that ran a job wakes them all (runHandler), so that while jobs are there every worker fetches at once.
      const id = await this.boss.work<never>(
        registered.kind,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: i === 0 || !kind.drain ? polling : Math.max(polling, SPARE_WORKER_POLL_SECONDS) },
        async ([job]) => this.runHandler(registered, job as unknown as Job<never>),
      );
      registered.workerIds.push(id);
    }
  }

  /** The kinds this process works with workers of its own (for the worker process's first line). */
  working(): JobKind[] {
    return [...this.handlers.values()].filter((r) => (r.options.workers ?? this.options.workers) && (r.options.concurrency ?? 1) > 0).map((r) => r.kind);
  }

  /** Called on every failed run of a job in this process: whether it will be retried, or is failed for good. */
  onJobFailed(listener: (kind: JobKind, willRetry: boolean) => void): void {
    this.failureListeners.push(listener);
  }

  private async runHandler(registered: Registered, job: Job<never>): Promise<void> {
    try {
      await registered.handler(job);
    } catch (err) {
      for (const listener of this.failureListeners) listener(registered.kind, job.retryCount < job.retryLimit);
      throw err;
    } finally {
      // There may be more: fetch again at once (pg-boss's worker waits its interval after a job unless woken).
      if ((JOB_KINDS[registered.kind] as JobPolicy).drain) this.notify(registered.kind);
    }
  }

  /** Queues a job (after start()); with an id already kept, nothing. Wakes this process's workers of the kind, now and at its startAfter. */
  async send(kind: JobKind, data: object, options: SendOptions = {}): Promise<void> {
    await this.start();
    await this.boss.send(kind, data, { id: options.id, startAfter: options.startAfter } as PgBoss.SendOptions);
    this.notify(kind);
    if (options.startAfter) this.wakeAt(kind, options.startAfter);
  }

  /** Wakes this process's idle workers of a kind (a job was just committed for them, e.g. by an append's transaction). */
  notify(kind: JobKind): void {
    if (!this.started) return;
    for (const id of this.handlers.get(kind)?.workerIds ?? []) this.boss.notifyWorker(id);
  }

  /**
   * Wakes this process's workers of a kind at `at`: a job queued here that falls due then (a deadline), so that its
   * workers need not poll for it. Without workers of the kind here, nothing. Deduplicated by time; one timer per kind.
   */
  wakeAt(kind: JobKind, at: Date): void {
    if (!this.started || this.stopped || !this.handlers.get(kind)?.workerIds.length) return;
    // Further ahead, the workers' poll finds it (a timer's delay also overflows past about 24.8 days).
    if (at.getTime() - Date.now() > MAX_WAKE_AHEAD_MS) return;
    const time = at.getTime() + WAKE_SLACK_MS;
    const times = this.wakeTimes.get(kind) ?? [];
    if (times.includes(time)) return;
    times.push(time);
    times.sort((a, b) => a - b);
    this.wakeTimes.set(kind, times);
    this.armWake(kind);
  }

  private armWake(kind: JobKind): void {
    const next = this.wakeTimes.get(kind)?.[0];
    const armed = this.wakeTimers.get(kind);
    if (next === undefined || this.stopped || (armed && armed.at <= next)) return;
    if (armed) clearTimeout(armed.timer);
    const timer = setTimeout(
      () => {
        this.wakeTimers.delete(kind);
        const now = Date.now();
        this.wakeTimes.set(
          kind,
          (this.wakeTimes.get(kind) ?? []).filter((t) => t > now),
        );
        this.notify(kind);
        this.armWake(kind);
      },
      Math.max(0, next - Date.now()),
    );
    // A wake-up never keeps the process alive on its own.
    timer.unref?.();
    this.wakeTimers.set(kind, { at: next, timer });
  }

  /**
   * Runs, here and now, up to `limit` due jobs of a kind with its registered handler, as a worker would: for the
   * facades tests drive (a clock's tick) and for a process that wants a kind done before it answers. Jobs another
   * worker holds are not touched (pg-boss's fetch skips them).
   */
  async runDue(kind: JobKind, limit = 20): Promise<RunOutcome[]> {
    await this.start();
    const registered = this.handlers.get(kind);
    if (!registered) throw new Error(`job kind ${kind} has no handler`);
    const jobs = (await this.boss.fetch<never>(kind, { batchSize: limit, includeMetadata: true })) as unknown as Job<never>[];
    const outcomes: RunOutcome[] = [];
    for (const job of jobs) {
      try {
        await this.runHandler(registered, job);
        await this.boss.complete(kind, job.id);
        outcomes.push('completed');
      } catch (err) {
        await this.boss.fail(kind, job.id, { message: (err as Error)?.message ?? String(err) });
        outcomes.push('failed');
      }
    }
    return outcomes;
  }

  /** The job's state (created, retry, active, completed, cancelled, failed), or null when pg-boss no longer has it. */
  async state(kind: JobKind, id: string): Promise<string | null> {
    await this.start();
    const job = await this.boss.getJobById(kind, id);
    return job?.state ?? null;
  }

  /** How many jobs of a kind are not finished (waiting, retrying or running). */
  async unfinished(kind: JobKind): Promise<number> {
    const { rows } = await this.db.executeSql(UNFINISHED_SQL, [kind]);
    return Number((rows as { n: number }[])[0]?.n ?? 0);
  }

  /** Whether any of these jobs (ids of ./job-ids.ts) is waiting, retrying or running: a read barrier's question. */
  async anyUnfinished(jobs: readonly { kind: JobKind; id: string }[]): Promise<boolean> {
    if (jobs.length === 0) return false;
    const kinds = [...new Set(jobs.map((j) => j.kind))];
    const { rows } = await this.db.executeSql(ANY_UNFINISHED_SQL, [kinds, jobs.map((j) => j.id)]);
    return (rows as { pending: boolean }[])[0]?.pending === true;
  }

  /**
   * The data of the jobs of a kind made before `job` and still waiting (a retry, or a transaction that committed late),
   * in order of creation, ties broken by the uuid in `data[tieField]`.
   */
  async waitingBefore<T>(job: Job<T>, tieField: string): Promise<{ id: string; data: T }[]> {
    const { rows } = await this.db.executeSql(WAITING_BEFORE_SQL, [job.name, job.id, tieField]);
    return rows as { id: string; data: T }[];
  }

  /**
   * Resolves once no transaction of another session that began before `job` was made is still open (bounded by
   * `timeoutMs`): after it, every job such a transaction would queue with an earlier creation time is visible. PGlite
   * has one session, so it resolves at once there.
   */
  async writesSettledBefore(job: Job<unknown>, timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await this.db.executeSql(OPEN_WRITE_BEFORE_SQL, [job.id]);
      if ((rows as { open: boolean }[])[0]?.open !== true || Date.now() > until) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The jobs that failed for good, newest first (also those already archived). */
  async failed(options: { kind?: JobKind; limit: number; offset?: number }): Promise<FailedJob[]> {
    const { rows } = await this.db.executeSql(FAILED_SQL, [options.kind ?? null, options.limit, options.offset ?? 0]);
    return (
      rows as {
        id: string;
        kind: string;
        state: string;
        data: unknown;
        error: unknown;
        retry_count: number;
        retry_limit: number;
        created_on: Date;
        completed_on: Date | null;
      }[]
    ).map((r) => ({
      id: r.id,
      kind: r.kind,
      state: r.state,
      data: r.data,
      error: r.error,
      retryCount: r.retry_count,
      retryLimit: r.retry_limit,
      createdOn: new Date(r.created_on),
      completedOn: r.completed_on ? new Date(r.completed_on) : null,
    }));
  }

  /** Depth and age per kind (every kind, zero when it has no job). */
  async stats(): Promise<QueueStats[]> {
    const { rows } = await this.db.executeSql(STATS_SQL, []);
    const byKind = new Map((rows as { kind: string; waiting: number; active: number; failed: number; oldest: number }[]).map((r) => [r.kind, r]));
    return JOB_KIND_NAMES.map((kind) => {
      const r = byKind.get(kind);
      return {
        kind,
        waiting: Number(r?.waiting ?? 0),
        active: Number(r?.active ?? 0),
        failed: Number(r?.failed ?? 0),
        oldestWaitingSeconds: Number(r?.oldest ?? 0),
      };
    });
  }

  async stop(): Promise<void> {
    if (!this.started || this.stopped) return;
    for (const { timer } of this.wakeTimers.values()) clearTimeout(timer);
    this.wakeTimers.clear();
    // Not graceful: a running job is abandoned and retried after its expiry (every handler is idempotent by its own key).
    await this.boss.stop({ graceful: false, close: false, wait: true, timeout: 5000 } as PgBoss.StopOptions);
    this.stopped = true;
  }
}
