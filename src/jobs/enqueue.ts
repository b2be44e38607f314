/**
 * Queuing a job inside a transaction of the service's own, so that the job
 * exists if and only if what causes it committed: `scopa_enqueue_job`, the
 * SQL writer of prisma/migrations/20261210000000_job_queue/migration.sql,
 * which inserts into pgboss.job as pg-boss's own send does (the queue's
 * policy, ON CONFLICT DO NOTHING on the id). The append's trigger calls the
 * same function; test/job-queue.e2e-spec.ts checks it writes what boss.send
 * writes.
 */
import type { RawRunner } from '../database/advisory-lock';
import type { JobKind } from './job-kinds';

/** $1 kind, $2 key (the job id is md5(kind:key)::uuid, ./job-ids.ts), $3 data, $4 start after (null: now). */
export const ENQUEUE_JOB_SQL = `SELECT scopa_enqueue_job($1::text, $2::text, $3::jsonb, $4::timestamptz) AS queued`;

/** Queues `kind` keyed by `key` in `tx`; false when that job already exists. */
export async function enqueueInTransaction(tx: RawRunner, kind: JobKind, key: string, data: object, startAfter: Date | null = null): Promise<boolean> {
  const rows = (await tx.$queryRawUnsafe(ENQUEUE_JOB_SQL, kind, key, JSON.stringify(data), startAfter)) as { queued: boolean }[];
  return rows[0]?.queued === true;
}
