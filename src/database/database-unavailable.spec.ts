import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { createPrismaClient } from './database';
import { PrismaClientKnownRequestError } from './generated/internal/prismaNamespace';
import { DomainError } from '../common/domain-error';
import { isDatabaseUnavailable } from '../common/database-unavailable';
import { toGraphQLExtensions, toProblem } from '../common/error-mapping';

/** @prisma/driver-adapter-utils's DriverAdapterError as Prisma Client recognises it: its name, and the adapter's payload as `cause`. */
class DriverAdapterError extends Error {
  override name = 'DriverAdapterError';
  constructor(override readonly cause: Record<string, unknown>) {
    super(String(cause.kind));
  }
}

/** A server error as node-postgres makes it from the wire. */
function serverError(code: string, message: string): pg.DatabaseError {
  const err = new pg.DatabaseError(message, message.length, 'error');
  err.code = code;
  err.severity = 'FATAL';
  return err;
}

/** The same error as @prisma/adapter-pg converts it, then as Prisma Client throws it from a raw query (P2010). */
function viaPrisma(code: string, message: string): PrismaClientKnownRequestError {
  const adapter = new DriverAdapterError({ kind: 'postgres', code, severity: 'FATAL', message, originalCode: code, originalMessage: message });
  return new PrismaClientKnownRequestError(`Raw query failed. Code: \`${code}\`. Message: \`${message}\``, {
    code: 'P2010',
    clientVersion: '7.10.0',
    meta: { driverAdapterError: adapter },
  });
}

describe('a lost, failing-over or read-only database', () => {
  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection due to crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['08006', 'connection failure'],
    ['08001', 'could not connect'],
    ['25006', 'cannot execute INSERT in a read-only transaction'],
  ])('is recognised in SQLSTATE %s, from node-postgres and through Prisma', (code, message) => {
    expect(isDatabaseUnavailable(serverError(code, message))).toBe(true);
    expect(isDatabaseUnavailable(viaPrisma(code, 'x'))).toBe(true);
  });

  it.each([
    ['40001', 'could not serialize access due to concurrent update'],
    ['40P01', 'deadlock detected'],
    ['23505', 'duplicate key value violates unique constraint'],
    ['22P02', 'invalid input syntax for type uuid'],
  ])('is not SQLSTATE %s (they stay what they were)', (code, message) => {
    expect(isDatabaseUnavailable(serverError(code, message))).toBe(false);
    expect(isDatabaseUnavailable(viaPrisma(code, message))).toBe(false);
  });

  it("is recognised in node-postgres's own connection failures and Prisma's codes", () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']) {
      expect(isDatabaseUnavailable(Object.assign(new Error(`connect ${code}`), { code, syscall: 'connect', errno: -1 }))).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })]))).toBe(true);
    for (const code of ['P1001', 'P1017', 'P2024']) {
      expect(isDatabaseUnavailable(new PrismaClientKnownRequestError('lost', { code, clientVersion: '7.10.0' }))).toBe(true);
    }
    expect(isDatabaseUnavailable(new DriverAdapterError({ kind: 'ConnectionClosed' }))).toBe(true);
    expect(isDatabaseUnavailable(new PrismaClientKnownRequestError('unique', { code: 'P2002', clientVersion: '7.10.0' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(new DomainError('NOT_FOUND', 'no such match'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });

  it('is recognised as Prisma Client throws it for a server that refuses connections', async () => {
    // Port 1 of the loopback: nothing listens, the connect is refused at once.
    const pool = new pg.Pool({ host: '127.0.0.1', port: 1, user: 'nobody', database: 'none', connectionTimeoutMillis: 2000 });
    const prisma = createPrismaClient(new PrismaPg(pool));
    try {
      const err = await prisma.$queryRawUnsafe('SELECT 1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).not.toBeNull();
      expect(isDatabaseUnavailable(err)).toBe(true);
      const pooled = await pool.query('SELECT 1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(pooled)).toBe(true);
      // The adapter's own error, below Prisma Client.
      const adapter = await new PrismaPg(pool).connect();
      const below = await adapter.queryRaw({ sql: 'SELECT 1', args: [], argTypes: [] }).then(
        () => null,
        (e: unknown) => e,
      );
      expect((below as Error).name).toBe('DriverAdapterError');
      expect(isDatabaseUnavailable(below)).toBe(true);
    } finally {
      await prisma.$disconnect();
      await pool.end();
    }
  });

  it('is SERVICE_UNAVAILABLE, 503 with retryAfter, over REST and GraphQL', () => {
    const problem = toProblem(viaPrisma('57P01', 'terminating connection due to administrator command'));
    expect(problem).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: 1 });
    expect(problem.detail).toMatch(/idempotencyKey/);
    expect(toGraphQLExtensions(new Error('Connection terminated unexpectedly')).extensions).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      retryAfter: 1,
    });
    // Anything else unexpected is still an internal error.
    expect(toProblem(new Error('boom'))).toMatchObject({ status: 500, code: 'INTERNAL' });
  });
});
