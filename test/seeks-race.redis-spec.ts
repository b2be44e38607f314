/**
 * Seek pairing races on two instances (built service processes on the real
 * PostgreSQL and Redis): 200 compatible seeks created at once through both
 * pair into exactly 100 two-player matches, no seek in two matches, none
 * left waiting; then the same with one instance SIGKILLed mid-way: no
 * half-made match (every match has its two paired seeks and starts, every
 * paired seek has its match), nothing compatible left waiting, and every
 * match audits sound (rules included, once resigned).
 */
import { jest } from '@jest/globals';
import pg from 'pg';
import { freshPgDatabase } from './store/helpers';
import { spawnInstance } from './support/process-instance';
import type { ProcessInstance } from './support/process-instance';

jest.setTimeout(600_000);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const SEEKS = 200;

async function call(base: string, method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe('seek pairing on two instances (PostgreSQL + Redis)', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let sql: pg.Client;
  let a: ProcessInstance;
  let b: ProcessInstance;
  const players: { username: string; token: string }[] = [];
  const suffix = Math.random().toString(36).slice(2, 7);

  beforeAll(async () => {
    db = await freshPgDatabase();
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL,
      JWT_SECRET: 'seeks-race-secret',
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_PASSES: '1',
      RATE_LIMIT: '1000000',
      SEEK_IDLE_EXPIRY: '3600',
      SEEK_SWEEP_MS: '500',
      CLOCK_POLL_MS: '300',
      CLOCK_LEASE_MS: '2000',
      PG_POOL_SIZE: '8',
    };
    a = await spawnInstance({ ...env, INSTANCE_ID: 'a' });
    b = await spawnInstance({ ...env, INSTANCE_ID: 'b' });
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    for (let i = 0; i < SEEKS; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, async (_, k) => {
          const username = `sr${suffix}${i + k}`;
          const res = await call((i + k) % 2 ? b.url : a.url, 'POST', '/v1/auth/register', null, { username, password: `password-${username}` });
          expect(res.status).toBe(201);
          return { username, token: res.body.accessToken as string };
        }),
      );
      players.push(...batch);
    }
  });
  afterAll(async () => {
    await sql?.end();
    await a?.stop();
    await b?.stop();
    await db?.drop();
  });

  /** The pairing's outcome for one preset: seeks by status, and the matches made. */
  async function outcome(preset: string) {
    const seeks = (await sql.query(`SELECT id::text, player, status, match_id::text AS match_id, seat FROM seeks WHERE preset = $1`, [preset])).rows;
    const matches = (await sql.query(`SELECT id::text, status, seats FROM matches WHERE preset = $1`, [preset])).rows;
    return { seeks, matches };
  }

  async function waitUntil(what: string, check: () => Promise<boolean>, ms = 60_000) {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Every match has exactly its two paired seeks (their owners in its seats) and has started; none is half-made. */
  function checkWhole(seeks: any[], matches: any[]) {
    const byMatch = new Map<string, any[]>();
    for (const s of seeks.filter((x) => x.status === 'paired')) byMatch.set(s.match_id, [...(byMatch.get(s.match_id) ?? []), s]);
    expect(byMatch.size).toBe(matches.length);
    for (const m of matches) {
      const paired = byMatch.get(m.id) ?? [];
      expect(paired).toHaveLength(2);
      const seated = (m.seats as { player: string }[]).map((s) => s.player);
      for (const s of paired) expect(seated[s.seat]).toBe(s.player);
      expect(new Set(seated).size).toBe(2);
    }
    // no player in two of these matches (each made one seek), no seek in two matches (one match_id per row)
    const seatedPlayers = matches.flatMap((m) => (m.seats as { player: string }[]).map((s) => s.player));
    expect(new Set(seatedPlayers).size).toBe(seatedPlayers.length);
  }

  async function resignAndAudit(matches: any[]) {
    const tokenOf = new Map(players.map((p) => [p.username, p.token]));
    for (const m of matches) {
      const resigner = (m.seats as { player: string }[])[0].player;
      const res = await call(b.url, 'POST', `/v1/matches/${m.id}/resign`, tokenOf.get(resigner)!, {});
      expect(res.status).toBe(200);
      const audit = await call(b.url, 'GET', `/v1/matches/${m.id}/audit`, tokenOf.get(resigner)!);
      expect(audit.body).toMatchObject({ sound: true, checked: 'chain+rules' });
    }
  }

  it('200 compatible seeks created at once through both instances pair into exactly 100 matches', async () => {
    const results = await Promise.all(
      players.map((p, i) => call(i % 2 ? b.url : a.url, 'POST', '/v1/seeks', p.token, { preset: 'scopa-simple', turnTimeLimit: 'PT1H' })),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
    // Each creation ran a pairing attempt after its commit (and answered after it): nothing is left waiting once all are answered.
    const { seeks, matches } = await outcome('scopa-simple');
    expect(seeks).toHaveLength(SEEKS);
    expect(seeks.filter((s) => s.status !== 'paired')).toEqual([]);
    expect(matches).toHaveLength(SEEKS / 2);
    checkWhole(seeks, matches);
    await waitUntil('every match started', async () => (await outcome('scopa-simple')).matches.every((m) => m.status === 'playing'));
    await resignAndAudit(matches);
  });

  it('with one instance SIGKILLed mid-way: nothing half-made, nothing left waiting, every match sound', async () => {
    // A's seeks go through a pool of 8 connections and A is killed in the handler of its 25th answer,
    // so 7 requests are in flight at the kill whatever the machine's speed, and A's later ones are refused.
    const IN_FLIGHT = 8;
    const KILL_AFTER = 25;
    const viaA = players.filter((_, i) => i % 2 === 0);
    const viaB = players.filter((_, i) => i % 2 === 1);
    const seek = (base: string, token: string) => call(base, 'POST', '/v1/seeks', token, { preset: 'scopa-fr', turnTimeLimit: 'P1D' });
    let answeredByA = 0;
    const resultsA: (number | 'killed')[] = [];
    let next = 0;
    const poolA = Array.from({ length: IN_FLIGHT }, async () => {
      while (next < viaA.length) {
        const p = viaA[next++];
        try {
          const r = await seek(a.url, p.token);
          resultsA.push(r.status);
          if (++answeredByA === KILL_AFTER) a.child.kill('SIGKILL');
        } catch {
          resultsA.push('killed');
        }
      }
    });
    const resultsB = Promise.all(viaB.map(async (p) => (await seek(b.url, p.token)).status));
    await Promise.all(poolA);
    const results = [...resultsA, ...(await resultsB)];
    expect(answeredByA).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(results.filter((s) => s === 'killed').length).toBeGreaterThan(0);
    expect(results.filter((s) => s !== 'killed' && s !== 201)).toEqual([]);
    // B's sweeper pairs what A left open; the pending starts A left are issued by B's clock scheduler.
    await waitUntil('nothing compatible left waiting', async () => (await outcome('scopa-fr')).seeks.filter((s) => s.status === 'open').length <= 1);
    await waitUntil('every match started', async () => (await outcome('scopa-fr')).matches.every((m) => m.status === 'playing'));
    const { seeks, matches } = await outcome('scopa-fr');
    // every acknowledged seek is in the database, and the seeks made are all paired but at most one (an odd count)
    expect(seeks.length).toBeGreaterThanOrEqual(results.filter((s) => s === 201).length);
    expect(seeks.filter((s) => s.status === 'open').length).toBe(seeks.length % 2);
    expect(matches).toHaveLength(Math.floor(seeks.length / 2));
    checkWhole(seeks, matches);
    await resignAndAudit(matches);
  });
});
