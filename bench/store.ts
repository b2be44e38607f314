/**
 * npm run bench:store — the match store on real PostgreSQL (DATABASE_URL, or
 * postgresql://postgres@127.0.0.1:5432/test; a scratch database is created on
 * that server and dropped after).
 *
 * For 100 and 1,000 concurrent matches (one worker per match, all at once,
 * through one pool of PG_POOL_SIZE connections, default 20):
 *  - full path: MatchesService.execute per play (snapshot, decide, hash,
 *    one-statement append with the expected-seq guard and the projection);
 *  - ceiling: the same event rows, one autocommit INSERT per row, through the
 *    same driver (Prisma raw over @prisma/adapter-pg, the statement prepared
 *    as the store's are), same pool, same concurrency, into a table with the
 *    same keys and indexes;
 *  - replay: folding the already-loaded events of every match through the
 *    engine (no database read, no hash check).
 * Last line: appends_per_s=<n> raw_inserts_per_s=<n> ratio=<r> replay_events_per_s=<n> (the 1,000-match case).
 * With `-- --baseline <ref>`: both sides alternately, a table, and the last line's
 * medians with `vs_baseline=<figure>:<ratio>,...`.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { mulberry32, replay, seedFromHex } from '../src/engine';
import type { MatchEvent } from '../src/engine';
import { openDatabase } from '../src/database/database';
import { prepared } from '../src/database/prepared-statements';
import { joinEvent } from '../src/match-formats/chain';
import type { StoredEvent } from '../src/match-formats/chain';
import { MatchStore } from '../src/match-store/match-store';
import { players, randomCommand } from '../test/store/helpers';
import { compareLastLines, sideBySideArgs } from './baseline';

// Prepared like the store's own statements, so that the ceiling uses the driver exactly as the full path does.
const RAW_INSERT_SQL = prepared(
  'INSERT INTO bench_raw_events (match_id, seq, type, payload, actor, prev_hash, hash) VALUES ($1::uuid, $2::int, $3::text, $4::jsonb, $5::text, $6::text, $7::text)',
);
const BASE_URL = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';
const POOL = Number(process.env.PG_POOL_SIZE ?? 20);
const EVENTS_TARGET = Number(process.env.BENCH_EVENTS ?? 20_000);

function withDb(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: withDb(BASE_URL, 'postgres') });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

interface CaseResult {
  matches: number;
  commands: number;
  rows: number;
  appendsPerS: number;
  commandsPerS: number;
  rawPerS: number;
  ratio: number;
  replayPerS: number;
}

async function runCase(url: string, matches: number): Promise<CaseResult> {
  const db = await openDatabase({ url, poolSize: POOL });
  const prisma = db.prisma;
  try {
    await prisma.$executeRawUnsafe('DROP TABLE IF EXISTS bench_raw_events');
    // Same columns, keys, indexes and defaults as match_events (no trigger, no foreign key).
    await prisma.$executeRawUnsafe('CREATE TABLE bench_raw_events (LIKE match_events INCLUDING ALL)');
    const store = new MatchStore(prisma, { cacheSize: matches * 2 });
    const ids: string[] = [];
    for (let i = 0; i < matches; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, matches - i) }, async () => {
          const { matchId } = await store.create({ preset: 'scopa', seats: players(2), createdBy: 'p0' });
          await store.execute(matchId, { type: 'start', player: 'p0' }, { actor: 'p0' });
          return matchId;
        }),
      );
      ids.push(...batch);
    }
    const playsPerMatch = Math.max(5, Math.ceil(EVENTS_TARGET / matches));
    const appended: StoredEvent[][] = ids.map(() => []);
    let commands = 0;
    // full path
    const t0 = performance.now();
    await Promise.all(
      ids.map(async (first, w) => {
        const rng = mulberry32(w + 1);
        let id = first;
        for (let k = 0; k < playsPerMatch; k++) {
          let state = store.peek(id)?.state ?? (await store.state(id));
          if (state.phase !== 'playing') {
            const created = await store.create({ preset: 'scopa', seats: players(2), createdBy: 'p0' });
            id = created.matchId;
            appended[w].push(...created.events);
            appended[w].push(...(await store.execute(id, { type: 'start', player: 'p0' }, { actor: 'p0' })).events);
            commands += 2;
            state = store.peek(id)!.state;
          }
          const cmd = randomCommand(state, rng);
          const r = await store.execute(id, cmd, { actor: (cmd as { player: string }).player });
          appended[w].push(...r.events);
          commands++;
        }
      }),
    );
    const t1 = performance.now();
    const rows = appended.reduce((n, a) => n + a.length, 0);
    // ceiling: the same rows, one autocommit INSERT each, same driver, pool and concurrency
    const t2 = performance.now();
    await Promise.all(
      appended.map(async (events) => {
        for (const e of events) {
          await prisma.$executeRawUnsafe(RAW_INSERT_SQL, e.matchId, e.seq, e.type, JSON.stringify(e.payload), e.actor, e.prevHash, e.hash);
        }
      }),
    );
    const t3 = performance.now();
    // replay: fold already-loaded logs through the engine
    const logs: { events: MatchEvent[]; seed: Uint8Array }[] = [];
    const seeds = await prisma.$queryRawUnsafe<{ id: string; seed: string }[]>('SELECT id::text AS id, seed FROM matches');
    for (const { id, seed } of seeds) {
      logs.push({ events: (await store.eventsFrom(id, 1, 10_000)).map(joinEvent), seed: seedFromHex(seed) });
    }
    const total = logs.reduce((n, l) => n + l.events.length, 0);
    let folded = 0;
    const t4 = performance.now();
    let rounds = 0;
    do {
      for (const l of logs) replay(l.events, l.seed);
      folded += total;
      rounds++;
    } while (performance.now() - t4 < 1000 || rounds < 3);
    const t5 = performance.now();
    await prisma.$executeRawUnsafe('DROP TABLE bench_raw_events');
    const appendsPerS = rows / ((t1 - t0) / 1000);
    const rawPerS = rows / ((t3 - t2) / 1000);
    return {
      matches,
      commands,
      rows,
      appendsPerS,
      commandsPerS: commands / ((t1 - t0) / 1000),
      rawPerS,
      ratio: appendsPerS / rawPerS,
      replayPerS: folded / ((t5 - t4) / 1000),
    };
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  const name = `scopa_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = withDb(BASE_URL, name);
  console.log(`bench:store on ${new URL(BASE_URL).host} (scratch database ${name}), pool ${POOL}, ~${EVENTS_TARGET} plays per case`);
  try {
    let last: CaseResult | null = null;
    for (const matches of [100, 1000]) {
      const r = await runCase(url, matches);
      console.log(
        `${matches} concurrent matches: ${r.commands} commands, ${r.rows} event rows; ` +
          `full path ${Math.round(r.appendsPerS)} events/s (${Math.round(r.commandsPerS)} commands/s); ` +
          `raw INSERT ${Math.round(r.rawPerS)} rows/s; ratio ${r.ratio.toFixed(2)}; replay ${Math.round(r.replayPerS)} events/s`,
      );
      last = r;
    }
    console.log(
      `appends_per_s=${Math.round(last!.appendsPerS)} raw_inserts_per_s=${Math.round(last!.rawPerS)} ratio=${last!.ratio.toFixed(2)} replay_events_per_s=${Math.round(last!.replayPerS)}`,
    );
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

// npm run bench:store -- --baseline <ref> [--rounds N]: this benchmark and <ref>'s, alternately (bench/baseline.ts).
const sideBySide = sideBySideArgs();
(sideBySide.baseline
  ? compareLastLines('bench:store', sideBySide, { build: false }, () => ({ cmd: process.execPath, args: ['--import', 'tsx', 'bench/store.ts'] }))
  : main()
).catch((err) => {
  console.error(err);
  process.exit(1);
});
