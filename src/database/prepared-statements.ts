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
