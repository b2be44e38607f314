/**
 * The one way a feature serializes writers on a key across every instance:
 * a transaction-scoped advisory lock (pg_advisory_xact_lock), held until the
 * transaction ends. A bound counted after it, in the same transaction,
 * counts from a snapshot taken once the previous holder committed, so "at
 * most N" holds under races (docs/security.md "Per-account bounds").
 */

/** What taking the lock needs of a transaction (Prisma's interactive transaction client). */
export interface RawRunner {
  $queryRawUnsafe(sql: string, ...values: unknown[]): Promise<unknown>;
}

// pg_advisory_xact_lock returns void, which the driver adapter cannot read back: the row says it is held.
const LOCK_SQL = `SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))) l`;

/** Waits for the advisory lock on `key` and holds it until `tx` commits or rolls back. */
export async function lockForTransaction(tx: RawRunner, key: string): Promise<void> {
  await tx.$queryRawUnsafe(LOCK_SQL, key);
}
