/**
 * The reads that tolerate a little lag (archives, exports of finished
 * matches, profiles and leaderboards, tournament listings, analysis inputs:
 * docs/operations.md "Read replicas") on a streaming standby,
 * DATABASE_READ_URL, beside the primary (DATABASE_URL) that takes every
 * write and every other read.
 *
 * A caller marks such a read by running it through `read(fn, fresh?)`: `fn`
 * gets the replica's Prisma client and row reader; when it throws (the
 * replica is down, a query cancelled by a recovery conflict, or a domain
 * error such as NOT_FOUND for a row not replayed yet), or when `fresh`
 * rejects its result (a match not over yet on the replica), it runs again on
 * the primary, whose answer or error stands. So a read the replica cannot
 * answer is never worse than the primary's, and a client reading right after
 * a match ended gets the ended match, not a stale "in progress" or a 404.
 *
 * Without DATABASE_READ_URL (or with the embedded PGlite) the replica is the
 * primary itself: `read(fn)` is `fn(primary)`, no second pool. The replica
 * never runs migrations (a standby is read-only; the primary's migrations
 * reach it by replication).
 */
import { Logger } from '@nestjs/common';
import type { OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { DomainError } from '../common/domain-error';
import { createPrismaClient, openPool } from './database';
import type { Prisma, RowReader } from './database';

/** Where a lag-tolerant read runs: a Prisma client (the seed omitted, as on the primary) and a driver row reader. */
export interface ReadSource {
  readonly prisma: Prisma;
  readonly rows: RowReader;
}

/** Runs lag-tolerant reads on a replica when there is one (see the file's comment). */
export interface ReadRouter {
  /** True when reads go to a second database (DATABASE_READ_URL). */
  readonly separate: boolean;
  read<T>(fn: (db: ReadSource) => Promise<T>, fresh?: (result: T) => boolean): Promise<T>;
}

/** Every read on `primary` (no replica: tests, tools, the embedded database). */
export function primaryReads(primary: ReadSource): ReadRouter {
  return { separate: false, read: (fn) => fn(primary) };
}

/** Reads on `replica`, each repeated on `primary` when it throws or `fresh` rejects it; `onFallback` hears why. */
export function replicaReads(
  replica: ReadSource,
  primary: ReadSource,
  onFallback: (reason: 'error' | 'stale', err?: unknown) => void = () => undefined,
): ReadRouter {
  return {
    separate: true,
    read: async <T>(fn: (db: ReadSource) => Promise<T>, fresh?: (result: T) => boolean): Promise<T> => {
      let result: T;
      try {
        result = await fn(replica);
      } catch (err) {
        onFallback('error', err);
        return fn(primary);
      }
      if (fresh && !fresh(result)) {
        onFallback('stale');
        return fn(primary);
      }
      return result;
    },
  };
}

/** The `application_name` of the replica pool's connections (pg_stat_activity on the standby shows them). */
export const REPLICA_APPLICATION_NAME = 'scopa-read-replica';

/** A pool and a Prisma client on the replica; migrations never run here. */
export interface ReplicaConnection extends ReadSource {
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

export function openReplica(url: string, poolSize: number): ReplicaConnection {
  const pool = openPool(url, poolSize, REPLICA_APPLICATION_NAME);
  const prisma = createPrismaClient(new PrismaPg(pool));
  let closed = false;
  return {
    pool,
    prisma,
    rows: async <T>(sql: string, params: readonly unknown[]) => (await pool.query(sql, [...params])).rows as T[],
    close: async () => {
      if (closed) return;
      closed = true;
      await prisma.$disconnect().catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}

/**
 * What ReadReplica needs of the primary: PrismaService (its client and prepared database).
 * A structural type, so that this file does not import the service that imports database.ts too.
 */
export interface PrimaryDatabase extends Prisma {
  readonly database: { readonly kind: 'pg' | 'pglite'; readonly rows: RowReader };
}

/**
 * The lag-tolerant reads' router as a Nest provider (DatabaseModule): a second pool and Prisma client on
 * DATABASE_READ_URL when it is set and the primary is PostgreSQL, closed on shutdown; otherwise the primary.
 */
export class ReadReplica implements ReadRouter, OnModuleDestroy {
  readonly separate: boolean;
  private readonly router: ReadRouter;
  private readonly connection: ReplicaConnection | null;
  private readonly logger = new Logger('Database');
  /** When the last replica failure was logged: a standby that is down fails every routed read, one line a minute says so. */
  private warnedAt = 0;

  constructor(primary: PrimaryDatabase, options: { readUrl?: string; primaryUrl?: string; poolSize: number }) {
    const own: ReadSource = { prisma: primary, rows: primary.database.rows };
    const readUrl = options.readUrl;
    if (readUrl && (primary.database.kind !== 'pg' || !options.primaryUrl)) {
      this.logger.warn('DATABASE_READ_URL is ignored without DATABASE_URL: the embedded database serves every read');
    }
    if (readUrl && primary.database.kind === 'pg' && options.primaryUrl && readUrl !== options.primaryUrl) {
      this.connection = openReplica(readUrl, options.poolSize);
      this.router = replicaReads(this.connection, own, (reason, err) => {
        // A domain error (a row not replayed yet) or a stale answer is the replica's lag, not a failure.
        if (reason !== 'error' || err instanceof DomainError || Date.now() - this.warnedAt < 60_000) return;
        this.warnedAt = Date.now();
        this.logger.warn(`a read on the replica failed, repeated on the primary (logged once a minute): ${(err as Error)?.message ?? err}`);
      });
    } else {
      this.connection = null;
      this.router = primaryReads(own);
    }
    this.separate = this.router.separate;
  }

  read<T>(fn: (db: ReadSource) => Promise<T>, fresh?: (result: T) => boolean): Promise<T> {
    return this.router.read(fn, fresh);
  }

  async onModuleDestroy(): Promise<void> {
    await this.connection?.close();
  }
}
