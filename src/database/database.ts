/**
 * Opening the database: an embedded PGlite (DATABASE_URL unset; data folder
 * DATA_DIR, default ./data, or "memory") or a real PostgreSQL through
 * @prisma/adapter-pg (DATABASE_URL set). Pending migrations are applied before
 * the Prisma client is handed out.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import pg from 'pg';
import { PrismaClient } from './generated/client';
import { lockDataDir } from './data-dir-lock';
import type { DataDirLock } from './data-dir-lock';
import { migrate, readMigrations } from './migrator';
import { preparedStatementName } from './prepared-statements';
import type { MigrationConnection, MigrationFile, MigrationReport } from './migrator';

export function createPrismaClient(adapter: NonNullable<ConstructorParameters<typeof PrismaClient>[0]['adapter']>) {
  // The match seed is secret until the end: never selected unless asked for explicitly.
  return new PrismaClient({ adapter, omit: { match: { seed: true } } });
}

export type Prisma = ReturnType<typeof createPrismaClient>;

export type DatabaseKind = 'pglite' | 'pg';

/**
 * A read straight through the driver (pg's pool, or PGlite), beside Prisma,
 * for the bulk reads of archive streams. Prisma's raw-query path converts
 * each result through several layers and awaits, and on a 10,000-match
 * stream what it held across them outlived V8's young generation: about
 * 7 KB a match promoted to the old one, collected late, 80 to 100 MB of RSS
 * (bench:export). The same rows read here die young. Rows come as the driver
 * types them: jsonb parsed, timestamptz a Date, int4 a number (int8 would
 * differ between the drivers: cast it). Outside any transaction only: on
 * PGlite a read waits for an open transaction to end, so one made inside it
 * would wait forever.
 */
export type RowReader = <T>(sql: string, params: readonly unknown[]) => Promise<T[]>;

/** The same reads through Prisma, for a store built over a bare client (tests, tools). */
export function prismaRowReader(prisma: Pick<Prisma, '$queryRawUnsafe'>): RowReader {
  return <T>(sql: string, params: readonly unknown[]) => prisma.$queryRawUnsafe<T[]>(sql, ...params);
}

export interface DatabaseOptions {
  /** postgresql://... for a real server; unset for PGlite. */
  url?: string;
  /** PGlite data folder, or 'memory'. */
  dataDir?: string;
  /** PGlite: start from this dump (dumpDataDir) instead of an empty cluster. */
  loadDataDir?: Blob | File;
  /** pg pool size (default PG_POOL_SIZE or 10). */
  poolSize?: number;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  migrations?: MigrationFile[];
}

export interface Database {
  kind: DatabaseKind;
  prisma: Prisma;
  /** Present for PGlite. */
  pglite?: PGlite;
  /** Present for pg. */
  pool?: pg.Pool;
  rows: RowReader;
  migrations: MigrationReport;
  close(): Promise<void>;
}

export function databaseOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseOptions {
  return {
    url: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || './data',
    poolSize: env.PG_POOL_SIZE ? Number(env.PG_POOL_SIZE) : undefined,
  };
}

/**
 * A database whose adapter exists at once and whose migrations run in ready():
 * lets a Nest provider be constructed synchronously and migrate on init.
 */
export interface PreparedDatabase {
  kind: DatabaseKind;
  adapter: NonNullable<ConstructorParameters<typeof PrismaClient>[0]['adapter']>;
  pglite?: PGlite;
  pool?: pg.Pool;
  rows: RowReader;
  ready(): Promise<MigrationReport>;
  close(): Promise<void>;
}

export function prepareDatabase(options: DatabaseOptions = databaseOptionsFromEnv()): PreparedDatabase {
  const noMigrations: MigrationReport = { applied: [], alreadyApplied: [] };
  if (options.url) {
    const url = options.url;
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? Number(process.env.PG_POOL_SIZE ?? 10),
      // Idle connections stay open for 5 minutes (pg's default is 10 s): a new server backend costs a fork and
      // cold caches, and reopening them whenever load rises after a lull showed as latency spikes.
      idleTimeoutMillis: 300_000,
    });
    pool.on('error', () => undefined); // an idle client dropped by the server; the pool replaces it
    let ended = false;
    return {
      kind: 'pg',
      // Registered hot statements are prepared once per connection (see prepared-statements.ts).
      adapter: new PrismaPg(pool, { statementNameGenerator: (query) => preparedStatementName(query.sql) as string }),
      pool,
      rows: async <T>(sql: string, params: readonly unknown[]) => (await pool.query(sql, [...params])).rows as T[],
      ready: () => (options.migrate === false ? Promise.resolve(noMigrations) : pgMigrate(url, options.migrations)),
      close: async () => {
        if (ended) return;
        ended = true;
        await pool.end().catch(() => undefined);
      },
    };
  }
  // The folder's lock comes before PGlite touches it (it writes postmaster.pid at once, and removes it on close).
  const dataDir = options.dataDir ?? './data';
  const lock: DataDirLock | null = dataDir === 'memory' ? null : lockDataDir(path.resolve(process.cwd(), dataDir));
  let pglite: PGlite;
  try {
    pglite = newPglite(dataDir, options.loadDataDir);
  } catch (err) {
    lock?.release();
    throw err;
  }
  return {
    kind: 'pglite',
    adapter: new PrismaPGlite(pglite),
    pglite,
    rows: async <T>(sql: string, params: readonly unknown[]) => (await pglite.query<T>(sql, [...params])).rows,
    ready: async () => {
      await pglite.waitReady;
      // Through PGlite's own exec: pglite-prisma-adapter does not await executeScript.
      return options.migrate === false ? noMigrations : migrate(pgliteConnection(pglite), options.migrations ?? readMigrations());
    },
    close: async () => {
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        lock?.release();
      }
    },
  };
}

export async function openDatabase(options: DatabaseOptions = databaseOptionsFromEnv()): Promise<Database> {
  const prepared = prepareDatabase(options);
  let migrations: MigrationReport;
  try {
    migrations = await prepared.ready();
  } catch (err) {
    await prepared.close();
    throw err;
  }
  const prisma = createPrismaClient(prepared.adapter);
  return {
    kind: prepared.kind,
    prisma,
    pglite: prepared.pglite,
    pool: prepared.pool,
    rows: prepared.rows,
    migrations,
    close: async () => {
      await prisma.$disconnect();
      await prepared.close();
    },
  };
}

export function pgliteConnection(db: PGlite): MigrationConnection {
  return {
    exec: async (sql) => {
      await db.exec(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
  };
}

export function newPglite(dataDir: string | undefined, loadDataDir?: Blob | File): PGlite {
  let dir: string | undefined;
  if (dataDir && dataDir !== 'memory') {
    dir = path.resolve(process.cwd(), dataDir);
    mkdirSync(path.dirname(dir), { recursive: true }); // PGlite does not create parent folders
  }
  return new PGlite(dir, loadDataDir ? { loadDataDir } : {});
}

export async function pgMigrate(url: string, migrations?: MigrationFile[]): Promise<MigrationReport> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await migrate(
      {
        // No parameters: node-postgres sends the script as one simple-protocol query.
        exec: async (sql) => {
          await client.query(sql);
        },
        query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
      },
      migrations ?? readMigrations(),
    );
  } finally {
    await client.end();
  }
}
