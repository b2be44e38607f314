/** Shared helpers of the store suites (PGlite in npm test, PostgreSQL in test:pg). */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PRESETS, PRESET_IDS, cardCode, randomPlay, seatView } from '../../src/engine';
import type { Command, MatchState, Rng } from '../../src/engine';
import { openDatabase } from '../../src/database/database';
import type { Prisma, RowReader, StatementRunner } from '../../src/database/database';
import { pgliteTemplate } from '../support/pglite-template';

export interface TestDatabase {
  kind: 'pglite' | 'pg';
  /** Plays per random match in the fold test (PGlite is slower: partial matches there, whole ones on PostgreSQL). */
  playsPerMatch: number;
  prisma: Prisma;
  /** Reads straight through the driver, as the service's store does (Database.rows). */
  rows: RowReader;
  /** The store's appends and log reads straight through the driver, as the service's (Database.statements: PostgreSQL only). */
  statements?: StatementRunner;
  /** Runs SQL as a superuser with triggers off (session_replication_role = replica): what a tamperer could do. */
  tamper(sql: string): Promise<void>;
  /** Runs a script as the superuser. */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseFactory = () => Promise<TestDatabase>;

export const pgliteFactory: DatabaseFactory = async () => {
  const db = await openDatabase({ dataDir: 'memory', loadDataDir: await pgliteTemplate() });
  const pglite = db.pglite!;
  return {
    kind: 'pglite',
    playsPerMatch: 30,
    prisma: db.prisma,
    rows: db.rows,
    exec: async (sql) => {
      await pglite.exec(sql);
    },
    tamper: async (sql) => {
      try {
        await pglite.exec(`BEGIN; SET LOCAL session_replication_role = replica; ${sql}; COMMIT;`);
      } catch (err) {
        await pglite.exec('ROLLBACK');
        throw err;
      }
    },
    close: () => db.close(),
  };
};

export const PG_URL = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A fresh database on the server of PG_URL (created here, dropped on close). The benchmarks name theirs
 * `scopa_bench_...`, so that a clean-up of stray test databases on a shared server leaves a running benchmark alone.
 */
export async function freshPgDatabase(prefix: 'scopa_test' | 'scopa_bench' = 'scopa_test'): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: withDatabase(PG_URL, 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: withDatabase(PG_URL, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: withDatabase(PG_URL, 'postgres') });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export const pgFactory: DatabaseFactory = async () => {
  const fresh = await freshPgDatabase();
  const db = await openDatabase({ url: fresh.url, poolSize: 8 });
  const run = async (sql: string) => {
    const c = new pg.Client({ connectionString: fresh.url });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  return {
    kind: 'pg',
    playsPerMatch: Infinity,
    prisma: db.prisma,
    rows: db.rows,
    statements: db.statements,
    exec: run,
    tamper: (sql) => run(`BEGIN; SET LOCAL session_replication_role = replica; ${sql}; COMMIT;`),
    close: async () => {
      await db.close();
      await fresh.drop();
    },
  };
};

/** Every preset with every player count it allows, teams on and off where allowed. */
export const CONFIGS: { preset: string; overrides: Record<string, unknown> }[] = PRESET_IDS.flatMap((id) =>
  PRESETS[id].players.flatMap((players) => {
    const teamsChoices = players === 4 ? (id.startsWith('scopone') ? [true] : [false, true]) : [false];
    return teamsChoices.map((teams) => ({ preset: id, overrides: { players, teams } }));
  }),
);

/** A random legal play for the seat to move. */
export function randomCommand(state: MatchState, rng: Rng): Command {
  const seat = state.turn;
  const play = randomPlay(seatView(state, seat), rng);
  return { type: 'play', player: state.seats[seat].player!, card: cardCode(play.card), capture: play.capture.map(cardCode) };
}

export function players(n: number): { player: string }[] {
  return Array.from({ length: n }, (_, i) => ({ player: `p${i}` }));
}
