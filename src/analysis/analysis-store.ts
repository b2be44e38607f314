/**
 * The match_analyses rows: one per match and analyzer key, its status,
 * progress and result (written by the service's requests and by the workers,
 * ./analysis-runner.ts). The one file that queries the table.
 */
import type { Prisma } from '../database/database';
import { lockForTransaction } from '../database/advisory-lock';
import type { MatchAnalysis } from './analyzer';
import type { AnalysisStatus } from './analysis-progress';

export type Sql = Pick<Prisma, '$queryRawUnsafe' | '$executeRawUnsafe'>;

export interface AnalysisRow {
  id: string;
  match_id: string;
  analyzer: string;
  requested_by: string;
  status: AnalysisStatus;
  job_id: string;
  done: number;
  total: number;
  attempts: number;
  result: MatchAnalysis | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
  how?: 'inserted' | 'requeued' | 'existing';
}

const COLUMNS = `id::text, match_id::text, analyzer, requested_by, status, job_id::text, done, total, attempts, result, error, created_at, finished_at`;

// One statement: the existing analysis, or a new one (or a failed one queued again) if the caller's and the total
// queue allow it. Two requests racing for one match: one inserts, the other finds nothing and reads it again.
const REQUEST_SQL = `
WITH existing AS (
  SELECT ${COLUMNS} FROM match_analyses WHERE match_id = $2::uuid AND analyzer = $3
), live AS (
  SELECT count(*) FILTER (WHERE requested_by = $4) AS mine, count(*) AS total FROM match_analyses WHERE status IN ('queued', 'running')
), inserted AS (
  INSERT INTO match_analyses (id, match_id, analyzer, requested_by, job_id)
  SELECT $1::uuid, $2::uuid, $3, $4, $7::uuid FROM live
  WHERE NOT EXISTS (SELECT 1 FROM existing) AND live.mine < $5 AND live.total < $6
  ON CONFLICT (match_id, analyzer) DO NOTHING
  RETURNING ${COLUMNS}
), requeued AS (
  UPDATE match_analyses a SET status = 'queued', job_id = $7::uuid, requested_by = $4, error = NULL, done = 0, total = 0, updated_at = now()
  FROM live WHERE a.match_id = $2::uuid AND a.analyzer = $3 AND a.status = 'failed' AND live.mine < $5 AND live.total < $6
  RETURNING a.id::text, a.match_id::text, a.analyzer, a.requested_by, a.status, a.job_id::text, a.done, a.total, a.attempts, a.result, a.error, a.created_at, a.finished_at
)
SELECT *, 'inserted' AS how FROM inserted
UNION ALL SELECT *, 'requeued' AS how FROM requeued
UNION ALL SELECT *, 'existing' AS how FROM existing WHERE NOT EXISTS (SELECT 1 FROM requeued)`;

/** A request's arguments, in REQUEST_SQL's order. */
export interface AnalysisRequest {
  id: string;
  matchId: string;
  analyzer: string;
  requestedBy: string;
  perAccount: number;
  max: number;
  jobId: string;
}

export class AnalysisStore {
  constructor(private readonly prisma: Pick<Prisma, '$queryRawUnsafe' | '$executeRawUnsafe' | '$transaction'>) {}

  /** The existing analysis, or a new one (or a failed one queued again) when the bounds allow: no row when they do not. */
  async request(r: AnalysisRequest): Promise<AnalysisRow[]> {
    const args = [r.id, r.matchId, r.analyzer, r.requestedBy, r.perAccount, r.max, r.jobId];
    return this.prisma.$transaction(
      async (tx) => {
        // Before REQUEST_SQL: every instance's requests queue one at a time, each counting from a snapshot taken after the
        // previous one committed (one statement alone would count from a snapshot taken before the lock, and racing
        // requests would each see room). One lock for both bounds: the total one is shared by every account.
        await lockForTransaction(tx, 'scopa:analysis-queue');
        return tx.$queryRawUnsafe<AnalysisRow[]>(REQUEST_SQL, ...args);
      },
      // A burst of requests waits its turn for the lock rather than failing after Prisma's 2 s.
      { maxWait: 15_000, timeout: 15_000 },
    );
  }

  /** Analyses queued or running: `mine` of them asked for by `username`, and in all. */
  async live(username: string): Promise<{ mine: number; total: number }> {
    const [live] = await this.prisma.$queryRawUnsafe<{ mine: number; total: number }[]>(
      `SELECT count(*) FILTER (WHERE requested_by = $1)::int AS mine, count(*)::int AS total FROM match_analyses WHERE status IN ('queued', 'running')`,
      username,
    );
    return live;
  }

  async row(matchId: string, analyzer: string): Promise<AnalysisRow | null> {
    const rows = await this.prisma.$queryRawUnsafe<AnalysisRow[]>(
      `SELECT ${COLUMNS} FROM match_analyses WHERE match_id = $1::uuid AND analyzer = $2`,
      matchId,
      analyzer,
    );
    return rows[0] ?? null;
  }

  /** A running analysis failed (its job timed out on its last attempt); null when it is not running. */
  async markFailed(id: string, error: string): Promise<AnalysisRow | null> {
    const rows = await this.prisma.$queryRawUnsafe<AnalysisRow[]>(
      `UPDATE match_analyses SET status = 'failed', error = $2, updated_at = now() WHERE id = $1::uuid AND status = 'running' RETURNING ${COLUMNS}`,
      id,
      error,
    );
    return rows[0] ?? null;
  }

  // ------------------------------------------------------------ the workers'

  /** A worker takes the analysis (running, one more attempt); null when it is done already (or gone with its match). */
  async claim(id: string): Promise<WorkerRow | null> {
    const rows = await this.prisma.$queryRawUnsafe<WorkerRow[]>(
      `UPDATE match_analyses SET status = 'running', attempts = attempts + 1, error = NULL, updated_at = now()
       WHERE id = $1::uuid AND status <> 'done' RETURNING id::text, match_id::text, analyzer, requested_by, status`,
      id,
    );
    return rows[0] ?? null;
  }

  async progress(id: string, done: number, total: number): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `UPDATE match_analyses SET done = $2, total = $3, updated_at = now() WHERE id = $1::uuid AND status = 'running'`,
      id,
      done,
      total,
    );
  }

  /** Writes the result once (in the caller's transaction): false when it was written already. */
  async finish(tx: Sql, id: string, result: MatchAnalysis, total: number, by: string): Promise<boolean> {
    const n = await tx.$executeRawUnsafe(
      `UPDATE match_analyses SET status = 'done', result = $2::jsonb, done = $3, total = $3, finished_at = now(), finished_by = $4, updated_at = now()
         WHERE id = $1::uuid AND status <> 'done'`,
      id,
      JSON.stringify(result),
      total,
      by,
    );
    return n > 0;
  }

  /** The last attempt failed: null when the analysis is done. */
  async fail(id: string, message: string): Promise<WorkerRow | null> {
    const rows = await this.prisma.$queryRawUnsafe<WorkerRow[]>(
      `UPDATE match_analyses SET status = 'failed', error = $2, updated_at = now() WHERE id = $1::uuid AND status <> 'done'
       RETURNING id::text, match_id::text, analyzer, requested_by, status`,
      id,
      message,
    );
    return rows[0] ?? null;
  }
}

/** What a worker reads of its analysis. */
export interface WorkerRow {
  id: string;
  match_id: string;
  analyzer: string;
  requested_by: string;
  status: string;
}
