/**
 * pg-boss's database, on whichever database the service runs: pg-boss takes
 * any object with `executeSql(text, values)` (its `db` option), so the queue
 * runs on PostgreSQL through the service's pool and on the embedded PGlite
 * in process, with one code path: the same library, the same tables (schema
 * `pgboss`, migration 20261126170000_analysis), the same SQL.
 *
 * pg-boss sends its maintenance as multi-statement scripts without
 * parameters (BEGIN; advisory lock; ...; COMMIT): node-postgres sends those
 * through the simple protocol; PGlite runs them through `exec`, and the
 * result of the last statement that returned rows is what pg-boss reads.
 */
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

export interface JobDatabase {
  // pg-boss reads its own columns from these rows.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export function jobDatabase(db: { pglite?: PGlite; pool?: pg.Pool }): JobDatabase {
  if (db.pool) {
    const pool = db.pool;
    return {
      executeSql: async (text, values) => {
        const result = await pool.query(text, values && values.length > 0 ? values : undefined);
        // A multi-statement script answers one result per statement.
        const last = Array.isArray(result) ? result[result.length - 1] : result;
        return { rows: last?.rows ?? [] };
      },
    };
  }
  const pglite = db.pglite;
  if (!pglite) throw new Error('no database for the job queue');
  return {
    executeSql: async (text, values) => {
      if (values && values.length > 0) return { rows: (await pglite.query(text, values)).rows };
      const results = await pglite.exec(text);
      for (let i = results.length - 1; i >= 0; i--) if (results[i].rows.length > 0 || results[i].fields.length > 0) return { rows: results[i].rows };
      return { rows: [] };
    },
  };
}
