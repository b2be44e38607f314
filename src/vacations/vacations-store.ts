/**
 * The `vacations` table (docs/async-play.md "Vacations"), read and written
 * here only (src/table-ownership.spec.ts): one row per vacation of an
 * account, from its start to its `until`, or to `ended_at` when the player
 * ended it early (or its job ended it at `until`). At most one runs per
 * account (a partial unique index). The allowance counts, in any 365 days,
 * the length of every vacation that started in them: a vacation counts in
 * full for the 365 days after its start, and one ended early counts to its
 * end.
 */
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { enqueueInTransaction } from '../jobs/enqueue';
import { lockForTransaction } from '../database/advisory-lock';
import type { RawRunner } from '../database/advisory-lock';

export interface VacationRow {
  id: string;
  username: string;
  started_at: Date;
  until: Date;
  ended_at: Date | null;
}

const COLUMNS = 'id::text AS id, username, started_at, until, ended_at';

// The running vacation of an account: not ended, and its until not passed (a row past its until waits for its job).
const RUNNING_SQL = `SELECT ${COLUMNS} FROM vacations WHERE account_id = $1::uuid AND ended_at IS NULL AND until > now()`;
const RUNNING_OF_SQL = `SELECT username, until FROM vacations WHERE username = ANY($1::text[]) AND ended_at IS NULL AND until > now()`;
// Milliseconds of vacation taken in the last 365 days (a vacation counts from its start to its end, or its until).
const USED_SQL = `SELECT COALESCE(sum(extract(epoch FROM COALESCE(ended_at, until) - started_at) * 1000), 0)::double precision AS used
  FROM vacations WHERE account_id = $1::uuid AND started_at > now() - interval '365 days'`;
const INSERT_SQL = `INSERT INTO vacations (id, account_id, username, until) VALUES ($1::uuid, $2::uuid, $3, $4::timestamptz) RETURNING ${COLUMNS}`;
const END_SQL = `UPDATE vacations SET ended_at = LEAST(now(), until) WHERE account_id = $1::uuid AND ended_at IS NULL RETURNING ${COLUMNS}`;
// A vacation past its until is ended at its until (the job that resumes its clocks).
const END_DUE_SQL = `UPDATE vacations SET ended_at = until WHERE id = $1::uuid AND ended_at IS NULL AND until <= now() RETURNING ${COLUMNS}`;
const NOW_SQL = `SELECT now() AS now`;

/** The clocks job of a vacation: its player's clocks made to follow whether they are on vacation now. */
export interface VacationClocksJob {
  vacationId: string;
  username: string;
  /** start: queued with the vacation, due now; until: due at its until (it ends the row first); end: an early end. */
  at: 'start' | 'until' | 'end';
}

@Injectable()
export class VacationsStore {
  constructor(private readonly prisma: PrismaService) {}

  async running(accountId: string, db: RawRunner = this.prisma): Promise<VacationRow | null> {
    const rows = (await db.$queryRawUnsafe(RUNNING_SQL, accountId)) as VacationRow[];
    return rows[0] ?? null;
  }

  /** The players among `usernames` on vacation now, with the end of each one's vacation. */
  async runningOf(usernames: readonly string[]): Promise<Map<string, Date>> {
    if (usernames.length === 0) return new Map();
    const rows = await this.prisma.$queryRawUnsafe<{ username: string; until: Date }[]>(RUNNING_OF_SQL, [...new Set(usernames)]);
    return new Map(rows.map((r) => [r.username, new Date(r.until)]));
  }

  /** Milliseconds of vacation the account took in the last 365 days (a running one counted to its until), and the database's now. */
  async used(accountId: string, db: RawRunner = this.prisma): Promise<{ usedMs: number; now: Date }> {
    const [{ used }] = (await db.$queryRawUnsafe(USED_SQL, accountId)) as { used: number }[];
    const [{ now }] = (await db.$queryRawUnsafe(NOW_SQL)) as { now: Date }[];
    return { usedMs: Number(used), now: new Date(now) };
  }

  /**
   * Records a vacation if `check` (given the milliseconds used and the database's now, in the transaction) passes,
   * with its clocks jobs: now (pause) and at its until (resume), in the same transaction. A vacation already running
   * is the unique index's CONFLICT (the caller maps it).
   */
  async start(
    account: { id: string; username: string },
    until: Date,
    check: (used: { usedMs: number; now: Date }, running: VacationRow | null) => void,
  ): Promise<VacationRow> {
    return this.prisma.$transaction(async (tx) => {
      // One start at a time per account, so that two racing starts cannot both pass the allowance.
      await lockForTransaction(tx, `vacation:${account.id}`);
      check(await this.used(account.id, tx), await this.running(account.id, tx));
      // A row past its until whose job has not run yet: ended now, so that the one running vacation is this one.
      await tx.$executeRawUnsafe(`UPDATE vacations SET ended_at = until WHERE account_id = $1::uuid AND ended_at IS NULL AND until <= now()`, account.id);
      const [row] = (await tx.$queryRawUnsafe(INSERT_SQL, randomUUID(), account.id, account.username, until)) as VacationRow[];
      const job = (at: VacationClocksJob['at']): VacationClocksJob => ({ vacationId: row.id, username: account.username, at });
      await enqueueInTransaction(tx, 'vacation-clocks', `${row.id}:start`, job('start'));
      await enqueueInTransaction(tx, 'vacation-clocks', `${row.id}:until`, job('until'), new Date(row.until));
      return row;
    });
  }

  /** Ends the account's running vacation now, with its clocks job (due now); null when none runs. */
  async end(accountId: string): Promise<VacationRow | null> {
    return this.prisma.$transaction(async (tx) => {
      const rows = (await tx.$queryRawUnsafe(END_SQL, accountId)) as VacationRow[];
      const row = rows[0];
      if (!row) return null;
      await enqueueInTransaction(tx, 'vacation-clocks', `${row.id}:end`, { vacationId: row.id, username: row.username, at: 'end' } satisfies VacationClocksJob);
      return row;
    });
  }

  /** Ends the vacation at its until if that has passed and it still runs (its until job). */
  async endDue(vacationId: string): Promise<void> {
    await this.prisma.$queryRawUnsafe(END_DUE_SQL, vacationId);
  }

  /** Whether `username` is on vacation now. */
  async isAway(username: string): Promise<boolean> {
    return (await this.runningOf([username])).has(username);
  }
}
