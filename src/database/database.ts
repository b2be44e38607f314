/**
 * Opening the database: an embedded PGlite (DATABASE_URL unset; data folder
 * DATA_DIR, default ./data, or "memory") or a real PostgreSQL through
 * @prisma/adapter-pg (DATABASE_URL set). Pending migrations are applied before
 * the Prisma client is handed out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import pg from 'pg';
import { loadConfig } from '../config/config';
import type { AppConfig } from '../config/config';

/** The schema's defaults, for options a caller left out (the environment is read by whoever calls databaseOptionsFromEnv, not here). */
const DEFAULTS = loadConfig({});
import { PrismaClient } from './generated/client';
import { lockDataDir } from './data-dir-lock';
import type { DataDirLock } from './data-dir-lock';
import { migrate, readMigrations } from './migrator';
import { preparedStatementName } from './prepared-statements';
import { takeTurns } from './pglite-read-queue';
import type { MigrationConnection, MigrationFile, MigrationReport } from './migrator';

export function createPrismaClient(adapter: NonNullable<ConstructorParameters<typeof PrismaClient>[0]['adapter']>) {
  // The match seed is secret until the end: never selected unless asked for explicitly.
  return new PrismaClient({ adapter, omit: { match: { seed: true } } });
}

export type Prisma = ReturnType<typeof createPrismaClient>;

/** Resolves when the database answers a statement. */
export async function pingDatabase(db: Pick<Prisma, '$queryRawUnsafe'>): Promise<void> {
  await db.$queryRawUnsafe('SELECT 1');
}

/**
 * Resolves when the database answers and takes writes: on PostgreSQL, not a
 * standby (`pg_is_in_recovery()`), so that an instance behind a proxy still
 * pointing at a demoted primary is not ready (docs/operations.md "When the
 * database fails over"). One statement, as cheap as the ping.
 */
export async function assertWritable(db: Pick<Prisma, '$queryRawUnsafe'>, kind: DatabaseKind): Promise<void> {
  if (kind !== 'pg') return pingDatabase(db);
  const rows = await db.$queryRawUnsafe<{ recovery: boolean }[]>('SELECT pg_is_in_recovery() AS recovery');
  if (rows[0]?.recovery !== false) throw new Error('the database is a standby (in recovery): no writable primary');
}

export type DatabaseKind = 'pglite' | 'pg';

/**
 * Archive rows one PGlite read asks for: a page of 100 with its first and
 * last events held the event loop 40 to 100 ms on a loaded 2-core machine,
 * longer than /health may wait (test/archive-load.e2e-spec.ts).
 */
const PGLITE_READ_CHUNK = 25;

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
export interface RowReader {
  <T>(sql: string, params: readonly unknown[]): Promise<T[]>;
  /**
   * Rows a bulk read should ask for at once, where a read holds the event
   * loop while it runs (PGlite: see pglite-read-queue.ts); unset, a read takes as many as
   * it needs.
   */
  readonly chunkRows?: number;
}

/**
 * The hot path's single statements (appends, log reads) straight through pg's
 * pool, beside Prisma, each registered text prepared once per connection as
 * the adapter does (prepared-statements.ts). Prisma's raw-query path costs
 * some 180 µs of CPU a statement more than the driver alone (its query plan,
 * interpreter, and argument and result conversions): at 500 plays/s that was
 * a tenth of an instance's CPU per play (bench/README.md, 2026-11-27, sixth
 * session). Rows come as the driver types them, as RowReader's. Outside any
 * transaction only. PGlite has none: there a statement made inside an open
 * transaction would wait forever, and the embedded default is not where
 * throughput counts, so its statements stay on Prisma.
 */
export type StatementRunner = <T>(sql: string, params: readonly unknown[]) => Promise<T[]>;

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
  /** PGlite: its PostgreSQL's shared_buffers, MB (databaseOptionsFromEnv: PGLITE_SHARED_BUFFERS_MB; else its default, 16). */
  pgliteSharedBuffersMb?: number;
  /** pg pool size (databaseOptionsFromEnv: PG_POOL_SIZE; else its default, 10). */
  poolSize?: number;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  migrations?: MigrationFile[];
  /** Where to read them, unless `migrations` are given (databaseOptionsFromEnv: MIGRATIONS_DIR; else ./prisma/migrations). */
  migrationsDir?: string;
}

export interface Database {
  kind: DatabaseKind;
  prisma: Prisma;
  /** Present for PGlite. */
  pglite?: PGlite;
  /** Present for pg. */
  pool?: pg.Pool;
  rows: RowReader;
  /** Present for pg. */
  statements?: StatementRunner;
  migrations: MigrationReport;
  close(): Promise<void>;
}

/** DATABASE_URL, DATA_DIR, PGLITE_SHARED_BUFFERS_MB, PG_POOL_SIZE and MIGRATIONS_DIR (src/config): what PrismaService and the standalone processes open. */
export function databaseOptionsFromEnv(
  config: Pick<AppConfig, 'DATABASE_URL' | 'DATA_DIR' | 'PGLITE_SHARED_BUFFERS_MB' | 'PG_POOL_SIZE' | 'MIGRATIONS_DIR'>,
): DatabaseOptions {
  return {
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    pgliteSharedBuffersMb: config.PGLITE_SHARED_BUFFERS_MB,
    poolSize: config.PG_POOL_SIZE,
    migrationsDir: config.MIGRATIONS_DIR,
  };
}

/**
 * A database whose adapter exists at once and whose migrations run in ready():
 * lets a Nest provider be constructed synchronously and migrate on init.
 */
export interface PreparedDatabase {
  kind: DatabaseKind;
  /** PGlite on a folder: the folder (absolute), which this process owns (./data-dir-lock.ts); absent in memory and on pg. */
  dataDir?: string;
  adapter: NonNullable<ConstructorParameters<typeof PrismaClient>[0]['adapter']>;
  pglite?: PGlite;
  pool?: pg.Pool;
  rows: RowReader;
  /** Present for pg. */
  statements?: StatementRunner;
  ready(): Promise<MigrationReport>;
  close(): Promise<void>;
}

/**
 * A pg pool to a PostgreSQL server, as every pool of the service has it (the primary's and the read replica's):
 * `applicationName` names its connections in pg_stat_activity.
 */
export function openPool(url: string, max: number, applicationName?: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // Idle connections stay open for 5 minutes (pg's default is 10 s): a new server backend costs a fork and
    // cold caches, and reopening them whenever load rises after a lull showed as latency spikes.
    idleTimeoutMillis: 300_000,
    // A failover (docs/operations.md "When the database fails over"): a connect to an address that does not answer
    // fails after 5 s (pg's default waits forever), a command then answers SERVICE_UNAVAILABLE; TCP keepalive finds a
    // connection to a machine that died without closing it.
    connectionTimeoutMillis: 5000,
    keepAlive: true,
    ...(applicationName ? { application_name: applicationName } : {}),
  });
  // An idle client dropped by the server (a restart, a failover): the pool removes it and opens a new one when needed,
  // where the hot statements are prepared again (node-postgres keeps prepared names per connection).
  pool.on('error', () => undefined);
  return pool;
}

export function prepareDatabase(options: DatabaseOptions): PreparedDatabase {
  const noMigrations: MigrationReport = { applied: [], alreadyApplied: [] };
  if (options.url) {
    const url = options.url;
    const pool = openPool(url, options.poolSize ?? DEFAULTS.PG_POOL_SIZE);
    let ended = false;
    return {
      kind: 'pg',
      // Registered hot statements are prepared once per connection (see prepared-statements.ts).
      adapter: new PrismaPg(pool, { statementNameGenerator: (query) => preparedStatementName(query.sql) as string }),
      pool,
      rows: async <T>(sql: string, params: readonly unknown[]) => (await pool.query(sql, [...params])).rows as T[],
      statements: async <T>(sql: string, params: readonly unknown[]) =>
        (await pool.query({ text: sql, values: [...params], name: preparedStatementName(sql) })).rows as T[],
      ready: () => (options.migrate === false ? Promise.resolve(noMigrations) : pgMigrate(url, options.migrations ?? readMigrations(options.migrationsDir))),
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
    pglite = newPglite(dataDir, options.loadDataDir, options.pgliteSharedBuffersMb);
  } catch (err) {
    lock?.release();
    throw err;
  }
  return {
    kind: 'pglite',
    ...(dataDir === 'memory' ? {} : { dataDir: path.resolve(process.cwd(), dataDir) }),
    adapter: new PrismaPGlite(pglite),
    pglite,
    // One bulk read at a time, each after a turn of the event loop: PGlite holds the loop while it reads (pglite-read-queue.ts).
    rows: Object.assign(takeTurns(async <T>(sql: string, params: readonly unknown[]) => (await pglite.query<T>(sql, [...params])).rows) as RowReader, {
      chunkRows: PGLITE_READ_CHUNK,
    }),
    ready: async () => {
      await pglite.waitReady;
      // Through PGlite's own exec: pglite-prisma-adapter does not await executeScript.
      return options.migrate === false ? noMigrations : migrate(pgliteConnection(pglite), options.migrations ?? readMigrations(options.migrationsDir));
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

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
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
    statements: prepared.statements,
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

/**
 * PostgreSQL's settings inside PGlite, on top of PGlite's own start
 * parameters. Everything PGlite's PostgreSQL allocates lives in one
 * WebAssembly memory that only grows, and Emscripten zero-fills the shared
 * memory segment when it maps it, so all of shared_buffers is resident from
 * the start: with PostgreSQL's 128 MB, an instance held about 120 MB more
 * than with 16 MB before serving anything (bench:embedded). The pages it no
 * longer keeps are still in the operating system's file cache (PGlite reads
 * the folder through ordinary file calls). PGlite applies them to a data
 * folder; DATA_DIR=memory (tests) keeps its configuration file's 128 MB.
 */
export function pgliteStartParams(sharedBuffersMb: number = DEFAULTS.PGLITE_SHARED_BUFFERS_MB): string[] {
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`];
}

export function newPglite(dataDir: string | undefined, loadDataDir?: Blob | File, sharedBuffersMb?: number): PGlite {
  let dir: string | undefined;
  if (dataDir && dataDir !== 'memory') {
    dir = path.resolve(process.cwd(), dataDir);
    mkdirSync(path.dirname(dir), { recursive: true }); // PGlite does not create parent folders
    if (!loadDataDir) initdbApart(dir);
  }
  return new PGlite(dir, { ...(loadDataDir ? { loadDataDir } : {}), startParams: pgliteStartParams(sharedBuffersMb) });
}

/**
 * Creates the cluster of a new data folder in a short-lived child process.
 * PGlite runs initdb in the process that opens the folder, through a second
 * PGlite instance and initdb's own WebAssembly memory; their 450 MB were
 * collected only at some later full collection, and the process kept about
 * 170 MB more resident than one that opened an existing folder (bench:embedded:
 * 950 MB at ready on a first start, 460 MB on the next). The child exits
 * with all of it; then this process opens the folder as it would reopen it.
 * If the child cannot run, PGlite does it in process, as before.
 */
function initdbApart(dir: string): void {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return;
  try {
    const entry = createRequire(path.join(process.cwd(), 'package.json')).resolve('@electric-sql/pglite');
    const script =
      `const { PGlite } = require(${JSON.stringify(entry)});` +
      `const db = new PGlite(${JSON.stringify(dir)});` +
      `db.waitReady.then(() => db.close()).then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });`;
    execFileSync(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
  } catch {
    // PGlite creates the cluster in process when it opens the folder.
  }
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
