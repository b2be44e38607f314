/**
 * SQL texts worth preparing: the hot path's fixed statements (appends, log
 * reads). On PostgreSQL the adapter names each registered text, so a
 * connection parses and plans it once instead of at every call; planning
 * the append's CTE was about half of the server's CPU per play.
 *
 * Only registered texts are named: node-postgres keeps a named statement for
 * the connection's whole life, so naming every text Prisma generates (lists
 * of any length, ad hoc filters) would grow without bound.
 */
const names = new Map<string, string>();

/** Registers `sql` for preparing and returns it unchanged (wrap a module-level constant). */
export function prepared(sql: string): string {
  if (!names.has(sql)) names.set(sql, `scopa_stmt_${names.size + 1}`);
  return sql;
}

/** The statement name of a registered text; undefined (an unnamed, one-off statement) otherwise. */
export function preparedStatementName(sql: string): string | undefined {
  return names.get(sql);
}

/**
 * A number from the process's configuration (a batch size, a lease), written
 * into a polled statement's text instead of passed as a parameter. With
 * parameters, PostgreSQL plans a prepared statement again on each of a
 * connection's first five runs, and a poll spread over the pool's
 * connections (PG_POOL_SIZE each instance) seldom gets past five on any of
 * them under load; with none, a connection plans it once, at its first run.
 * Refuses anything but a finite number that is not negative, so the text can
 * only ever hold a numeric literal.
 */
export function sqlNumber(value: number): string {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`not a finite, non-negative number: ${value}`);
  return String(value);
}
