/**
 * Whether a failure means "no writable database right now": the connection
 * was lost, refused or timed out, the server is shutting down or starting,
 * or it is a standby (a demoted primary, or the proxy still points at one).
 * Such a failure is SERVICE_UNAVAILABLE (503, Retry-After), never a 500: the
 * same command, sent again with the same idempotencyKey, succeeds once the
 * failover is over (docs/operations.md "When the database fails over").
 *
 * Errors come in three shapes, all looked into (with their causes):
 * - node-postgres: a server error (`code` = SQLSTATE), a socket error
 *   (`code` = ECONNREFUSED ...), or a plain Error whose message is all there is
 *   ("Connection terminated unexpectedly", a pool's connect timeout);
 * - @prisma/adapter-pg: a DriverAdapterError whose `cause` is
 *   `{ kind, originalCode }` (DatabaseNotReachable, ConnectionClosed, ...);
 * - Prisma Client: a known request error (P1001, P1017, P2024, P2010 raw query
 *   failed) carrying that DriverAdapterError in `meta.driverAdapterError`.
 */

/** SQLSTATEs: 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now, 25006 read-only transaction, 53300 too many connections. */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '25006', '53300']);
/** Class 08: connection exceptions. */
const SQLSTATE_CLASS = '08';
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** Prisma: P1001 cannot reach, P1002 timed out, P1008 operation timed out, P1017 connection closed, P2024 pool timeout. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** @prisma/adapter-pg's error kinds for the same. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const MESSAGES =
  /Connection terminated unexpectedly|Connection terminated due to connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect|terminating connection due to (administrator command|unexpected postmaster exit)|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)|cannot execute [A-Z ]+ in a read-only transaction|server closed the connection unexpectedly|Can't reach database server/;

function isSqlState(code: string): boolean {
  return /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('P');
}

function unavailableCode(code: unknown): boolean {
  if (typeof code !== 'string') return false;
  if (SOCKET_CODES.has(code) || PRISMA_CODES.has(code) || SQLSTATES.has(code)) return true;
  return isSqlState(code) && code.startsWith(SQLSTATE_CLASS);
}

export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const look = (e: unknown, depth: number): boolean => {
    if (e === null || typeof e !== 'object' || seen.has(e) || depth > 6) return false;
    seen.add(e);
    const o = e as { code?: unknown; kind?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: unknown; errors?: unknown };
    if (unavailableCode(o.code) || unavailableCode(o.originalCode)) return true;
    if (typeof o.kind === 'string' && ADAPTER_KINDS.has(o.kind)) return true;
    if (typeof o.message === 'string' && MESSAGES.test(o.message)) return true;
    const meta = o.meta as { driverAdapterError?: unknown; code?: unknown } | undefined;
    if (meta && (unavailableCode(meta.code) || look(meta.driverAdapterError, depth + 1))) return true;
    if (look(o.cause, depth + 1)) return true;
    // AggregateError: a connection tried every address of the host.
    return Array.isArray(o.errors) && o.errors.some((x) => look(x, depth + 1));
  };
  return look(err, 0);
}

/** Seconds a client waits before it sends the command again (Retry-After): a failover takes several, a retry costs one round trip. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;
