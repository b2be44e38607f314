/**
 * The match_clocks rows: the deadline of a match, a projection of its log
 * like match_players (the async-play trigger writes the running turn clock
 * in the very statement that appends; the store's turn reads join it), or
 * before the start a pending start waiting for the client seeds. The clocks
 * (src/clocks) turn them into 'match-deadline' jobs (the scan below), drop
 * and record them through these statements; the clocks' own notices read
 * the running turn clocks through RUNNING_TURN_CLOCKS in their one statement.
 *
 * The columns claimed_until and attempts are no longer read nor written here
 * (the lease they held is the job queue's now); they stay because the append
 * trigger (scopa_async_play_after_append) still names them in its INSERT.
 */
import type { SqlRunner } from './event-store';
import { prepared, sqlNumber } from '../database/prepared-statements';

/** A deadline handed to the job queue: the data of its 'match-deadline' job. */
export interface DeadlineRow {
  match_id: string;
  /** turn: a turn clock; start: a pending start (at its deadline, or `seeded`: as soon as its seeds are complete). */
  kind: 'turn' | 'start';
  seat: number;
  /** The row's seq (a turn: the seq the clockExpired command is decided at). */
  seq: number;
  on_expiry: string;
  start_by: string | null;
  command_key: string | null;
  /** A pending start whose match has had appends (joins, seeds) since it was asked for: start it if the seeds are in. */
  seeded: boolean;
  deadline: Date;
  /** The job's key (its id is jobId('match-deadline', key)). */
  job_key: string;
  /** The job was inserted by this scan (false: it already existed, inserted concurrently by another scan). */
  queued: boolean;
}

/**
 * The scan, one statement with its batch and lookahead written in (see sqlNumber): the deadlines due within the
 * lookahead that have no job yet, each queued as a 'match-deadline' job that starts at its deadline
 * (scopa_enqueue_job, the SQL twin of pg-boss's send), and the pending starts of open matches that had appends since
 * they were asked for (a client seed may have completed them: the appender's own start may have died with it), queued
 * due now, one job per (match, current seq). A plain read of match_clocks: no lock, no lease; two instances scanning
 * at once compute the same job ids and pg-boss keeps one. The key carries the deadline: a (match, seq, kind) has one
 * deadline, but a deadline moved by hand (an operator, a test) gets a job of its own.
 */
const scanSql = (batch: number, lookaheadMs: number): string =>
  prepared(`
WITH candidates AS (
  SELECT c.match_id, c.kind, c.seat, c.seq, c.on_expiry, c.start_by, c.command_key, false AS seeded, c.deadline,
         c.match_id::text || ':' || c.seq || ':' || c.kind || '@' || (extract(epoch FROM c.deadline) * 1000)::bigint AS job_key
  FROM match_clocks c
  WHERE c.deadline <= now() + make_interval(secs => ${sqlNumber(lookaheadMs / 1000)}::double precision)
  UNION ALL
  SELECT c.match_id, c.kind, c.seat, c.seq, c.on_expiry, c.start_by, c.command_key, true, now(),
         c.match_id::text || ':' || m.current_seq || ':seeded'
  FROM matches m JOIN match_clocks c ON c.match_id = m.id AND c.kind = 'start'
  WHERE m.status = 'open' AND m.current_seq > c.seq
), due AS MATERIALIZED (
  SELECT * FROM candidates d
  WHERE NOT EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = 'match-deadline' AND j.id = scopa_job_id('match-deadline', d.job_key))
  ORDER BY d.deadline
  LIMIT ${sqlNumber(batch)}::int
)
SELECT d.match_id::text AS match_id, d.kind, d.seat, d.seq, d.on_expiry, d.start_by, d.command_key, d.seeded, d.deadline, d.job_key,
       scopa_enqueue_job('match-deadline', d.job_key,
         jsonb_build_object('matchId', d.match_id::text, 'kind', d.kind, 'seat', d.seat, 'seq', d.seq, 'onExpiry', d.on_expiry,
                            'startBy', d.start_by, 'commandKey', d.command_key, 'seeded', d.seeded),
         d.deadline) AS queued
FROM due d
ORDER BY d.deadline`);

const PENDING_START_ROW_SQL = `SELECT c.match_id::text AS match_id, c.kind, c.seat, c.seq, c.on_expiry, c.start_by, c.command_key, false AS seeded,
  c.deadline, '' AS job_key, false AS queued FROM match_clocks c WHERE c.match_id = $1::uuid AND c.kind = 'start'`;

const DROP_SQL = 'DELETE FROM match_clocks WHERE match_id = $1::uuid AND seq = $2::int AND kind = $3';

// Read with every open match a client reads (its startsAt).
const STARTS_AT_SQL = prepared(`SELECT deadline FROM match_clocks WHERE match_id = $1::uuid AND kind = 'start'`);

/** The pending start of an open match ($1 id, $2 seq, $3 window ms, $4 asker, $5 key); the first asker's row stays. */
export const PENDING_START_SQL = `INSERT INTO match_clocks (match_id, kind, seat, seq, deadline, on_expiry, start_by, command_key)
  SELECT m.id, 'start', -1, $2::int, now() + make_interval(secs => $3::double precision / 1000), 'start', $4, $5
  FROM matches m WHERE m.id = $1::uuid AND m.status = 'open'
  ON CONFLICT (match_id) DO NOTHING`;

/**
 * The running turn clocks (the seat to move of a playing timed match, a person or a bot), as a relation
 * for another statement to select from: match_id, seq, seat, deadline, player, turn_time_limit. The
 * planner pulls the subquery up, so the statement reads the tables as it would by name.
 */
export const RUNNING_TURN_CLOCKS = `(
  SELECT c.match_id, c.seq, c.seat, c.deadline, m.turn_player AS player, m.turn_time_limit
  FROM match_clocks c JOIN matches m ON m.id = c.match_id
  WHERE c.kind = 'turn' AND m.status = 'playing' AND m.current_seq = c.seq AND m.turn_time_limit IS NOT NULL
    AND m.turn_player IS NOT NULL
)`;

export class MatchClockRows {
  private readonly scanSql: string;

  constructor(
    private readonly db: SqlRunner,
    lookaheadMs: number,
    batch: number,
  ) {
    this.scanSql = scanSql(batch, lookaheadMs);
  }

  /** Queues a 'match-deadline' job for each deadline due within the lookahead that has none yet; returns them. */
  async scan(): Promise<DeadlineRow[]> {
    return this.db.$queryRawUnsafe<DeadlineRow[]>(this.scanSql);
  }

  /** The pending start of one match as a due deadline (its last seed came in), or null when none is pending. */
  async pendingStart(matchId: string): Promise<DeadlineRow | null> {
    const rows = await this.db.$queryRawUnsafe<DeadlineRow[]>(PENDING_START_ROW_SQL, matchId);
    return rows[0] ?? null;
  }

  /** Removes the row if it still is the one the job was for (same seq and kind). */
  async drop(matchId: string, seq: number, kind: string): Promise<void> {
    await this.db.$executeRawUnsafe(DROP_SQL, matchId, seq, kind);
  }
}

/** The pending starts' rows (src/clocks/pending-starts.ts). */
export class PendingStartRows {
  constructor(private readonly db: SqlRunner) {}

  /** Records a pending start of the open match (nothing when it is no longer open, or one is recorded). */
  async record(matchId: string, seq: number, windowMs: number, player: string, commandKey: string | null, db: SqlRunner = this.db): Promise<void> {
    await db.$executeRawUnsafe(PENDING_START_SQL, matchId, seq, windowMs, player, commandKey);
  }

  /** The deadline of the match's pending start; null when none is pending. */
  async deadline(matchId: string): Promise<Date | null> {
    const rows = await this.db.$queryRawUnsafe<{ deadline: Date }[]>(STARTS_AT_SQL, matchId);
    return rows.length > 0 ? new Date(rows[0].deadline) : null;
  }
}
