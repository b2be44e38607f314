/**
 * Applies prisma/migrations/<name>/migration.sql in name order, each in its own
 * transaction, and records Prisma-compatible rows in `_prisma_migrations`
 * (checksum = hex sha256 of the file), so that `prisma migrate deploy` and
 * `prisma migrate status` agree with it wherever the real CLI is available.
 *
 * A script is sent whole (PGlite's exec, or one simple-protocol query on pg):
 * never split on ';', which would break $$ function bodies.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The two operations the migrator needs from a single connection. */
export interface MigrationConnection {
  /** Runs a script of several statements, no parameters. */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/** ./prisma/migrations from the working directory (MIGRATIONS_DIR reaches readMigrations through DatabaseOptions.migrationsDir). */
export const DEFAULT_MIGRATIONS_DIR = (): string => path.join(process.cwd(), 'prisma', 'migrations');

// Prisma's own lock key for migrations (so the real CLI and this migrator exclude each other).
const ADVISORY_LOCK_KEY = 72707369;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export function readMigrations(dir: string = DEFAULT_MIGRATIONS_DIR()): MigrationFile[] {
  if (!existsSync(dir)) throw new Error(`migrations folder not found: ${dir} (run the service from the project root or set MIGRATIONS_DIR)`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(dir, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    });
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

export async function migrate(conn: MigrationConnection, migrations: MigrationFile[] = readMigrations()): Promise<MigrationReport> {
  await conn.exec(CREATE_TABLE);
  const report: MigrationReport = { applied: [], alreadyApplied: [] };
  for (const m of migrations) {
    await conn.exec('BEGIN');
    try {
      // Serializes concurrent starters (another instance, or the Prisma CLI).
      await conn.query(`SELECT pg_advisory_xact_lock(${ADVISORY_LOCK_KEY})`);
      const rows = await conn.query<{ checksum: string; finished_at: unknown }>(
        `SELECT checksum, finished_at FROM "_prisma_migrations" WHERE migration_name = $1 AND rolled_back_at IS NULL`,
        [m.name],
      );
      const done = rows.find((r) => r.finished_at !== null);
      if (done) {
        if (done.checksum !== m.checksum) {
          console.warn(`migration ${m.name} was modified after it was applied (checksum differs); leaving it as it is`);
        }
        await conn.exec('COMMIT');
        report.alreadyApplied.push(m.name);
        continue;
      }
      if (rows.length > 0) throw new Error(`migration ${m.name} was started but did not finish; resolve it by hand`);
      await conn.exec(m.sql);
      await conn.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, started_at, applied_steps_count)
         VALUES ($1, $2, now(), $3, NULL, now(), 1)`,
        [randomUUID(), m.checksum, m.name],
      );
      await conn.exec('COMMIT');
      report.applied.push(m.name);
    } catch (err) {
      await conn.exec('ROLLBACK').catch(() => undefined);
      throw new Error(`migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
    }
  }
  return report;
}
