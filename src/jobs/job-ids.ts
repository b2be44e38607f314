/**
 * A job's id from what it is about, so that recording the same reaction twice
 * (a retried append, the SQL writer and a backstop, two instances) is one job:
 * pg-boss inserts with ON CONFLICT DO NOTHING on (name, id). The same
 * function exists in SQL (`scopa_job_id` in
 * prisma/migrations/20261210000000_job_queue/migration.sql); job-ids.spec.ts
 * checks they agree.
 */
import { createHash } from 'node:crypto';
import type { JobKind } from './job-kinds';

/** md5(`<kind>:<key>`) written as a uuid, as PostgreSQL's md5(...)::uuid does. */
export function jobId(kind: JobKind, key: string): string {
  const h = createHash('md5').update(`${kind}:${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The key of a reaction to one append of one match: (match, seq). */
export function appendKey(matchId: string, seq: number): string {
  return `${matchId}:${seq}`;
}
