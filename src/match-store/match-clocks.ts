/**
 * The match_clocks rows: the deadline of a match, a projection of its log
 * like match_players (the async-play trigger writes the running turn clock
 * in the very statement that appends; the store's turn reads join it), or
 * before the start a pending start waiting for the client seeds. The clocks
 * (src/clocks) claim, drop and record them through these statements; the
 * clocks' own notices read the running turn clocks through
 * RUNNING_TURN_CLOCKS in their one statement.
 */
import type { SqlRunner } from './event-store';
import { prepared, sqlNumber } from '../database/prepared-statements';

const RETURNED = `c.match_id::text AS match_id, c.kind, c.seat, c.seq, c.on_expiry, c.attempts, c.start_by, c.command_key`;

export interface ClockRow {
  match_id: string;
  kind: string;
  seat: number;
  seq: number;
  on_expiry: string;
  attempts: number;
  start_by: string | null;
  command_key: string | null;
}

/**
 * The poll's claim, its batch and lease written in (see sqlNumber): planned once per connection. One
 * statement, so atomic without a transaction around it.
 */
const claimSql = (batch: number, leaseMs: number): string =>
  prepared(`
UPDATE match_clocks c SET claimed_until = now() + make_interval(secs => ${sqlNumber(leaseMs / 1000)}::double precision), attempts = c.attempts + 1
FROM (
  SELECT match_id FROM match_clocks
  WHERE deadline <= now() AND (claimed_until IS NULL OR claimed_until < now())
  ORDER BY deadline
  LIMIT ${sqlNumber(batch)}::int
  FOR UPDATE SKIP LOCKED
) due
WHERE c.match_id = due.match_id
RETURNING ${RETURNED}`);

/** Claims one match's pending start now, whatever its deadline (the last client seed came in). */
const CLAIM_START_SQL = `
UPDATE match_clocks c SET claimed_until = now() + make_interval(secs => $2::double precision / 1000), attempts = c.attempts + 1
FROM (
  SELECT match_id FROM match_clocks
  WHERE match_id = $1::uuid AND kind = 'start' AND (claimed_until IS NULL OR claimed_until < now())
  FOR UPDATE SKIP LOCKED
) due
WHERE c.match_id = due.match_id
RETURNING ${RETURNED}`;

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
  private readonly claimSql: string;

  constructor(
    private readonly db: SqlRunner,
    private readonly leaseMs: number,
    batch: number,
  ) {
    this.claimSql = claimSql(batch, leaseMs);
  }

  /** Claims the due deadlines for the lease (rows locked by another transaction are skipped). */
  async claimDue(): Promise<ClockRow[]> {
    return this.db.$queryRawUnsafe<ClockRow[]>(this.claimSql);
  }

  /** Claims the pending start of one match now (none, or held by another claim: nothing). */
  async claimStart(matchId: string): Promise<ClockRow | null> {
    const rows = await this.db.$queryRawUnsafe<ClockRow[]>(CLAIM_START_SQL, matchId, this.leaseMs);
    return rows[0] ?? null;
  }

  /** Removes the row if it still is the one claimed (same seq and kind). */
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
