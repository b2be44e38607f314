/**
 * Seek pairing never seats two players blocked either way at one table, on
 * two instances sharing PostgreSQL and Redis, under races (docs/social.md
 * "Blocks"; the exclusion is in the pairing's own statement, under the
 * bucket's lock: src/lobby/seeks-store.ts with src/relations/blocked-pairs.ts).
 * A has blocked B. 50 rounds: A on one instance and B on the other seek the
 * same pool at the same moment, and C and D seek it too, on both instances
 * (after them, so that a pairing for each exists; or all four at once). A and
 * B never share a match, each pairs with C or D whenever they come after, and
 * nothing compatible is ever left waiting.
 */
import { jest } from '@jest/globals';
import pg from 'pg';
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';

jest.setTimeout(600_000);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const ROUNDS = 50;

async function call(base: string, method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

interface Player {
  username: string;
  token: string;
  via: string;
}

describe('blocked players are never paired by seeks (two instances, PostgreSQL + Redis)', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let sql: pg.Client;
  let one: Awaited<ReturnType<typeof startInstance>>;
  let two: Awaited<ReturnType<typeof startInstance>>;
  const suffix = Math.random().toString(36).slice(2, 7);
  let A: Player, B: Player, C: Player, D: Player;

  beforeAll(async () => {
    db = await freshPgDatabase();
    const env = { REDIS_URL, RATE_LIMIT: '1000000', SEEK_IDLE_EXPIRY: '3600', SEEK_SWEEP_MS: '300', CLIENT_SEED_WINDOW: '0' };
    one = await startInstance(db.url, { ...env, INSTANCE_ID: 'one' });
    two = await startInstance(db.url, { ...env, INSTANCE_ID: 'two' });
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    const reg = async (name: string, via: string): Promise<Player> => {
      const username = `bk${suffix}${name}`;
      const res = await call(via, 'POST', '/v1/auth/register', null, { username, password: `password-${username}` });
      expect(res.status).toBe(201);
      return { username, token: res.body.accessToken as string, via };
    };
    [A, B, C, D] = await Promise.all([reg('a', one.http), reg('b', two.http), reg('c', one.http), reg('d', two.http)]);
    // A blocks B on one instance; B's instance is never told anything (the block is a row both read in the pairing statement).
    expect((await call(one.http, 'PUT', `/v1/users/${B.username}/block`, A.token)).status).toBe(200);
  });
  afterAll(async () => {
    await sql?.end();
    await one?.app.close();
    await two?.app.close();
    await db?.drop();
  });

  const seek = (p: Player) => call(p.via, 'POST', '/v1/seeks', p.token, { preset: 'scopa', turnTimeLimit: 'PT1H' });

  async function seeksOf(ids: string[]): Promise<Map<string, { player: string; status: string; match_id: string | null }>> {
    const rows = (await sql.query(`SELECT id::text, player, status, match_id::text AS match_id FROM seeks WHERE id = ANY ($1::uuid[])`, [ids])).rows;
    return new Map(rows.map((r) => [r.id, r]));
  }

  async function seated(matchId: string): Promise<string[]> {
    const row = (await sql.query(`SELECT seats FROM matches WHERE id = $1::uuid`, [matchId])).rows[0];
    return (row.seats as { player: string }[]).map((s) => s.player);
  }

  /** Ends the round's matches (abort before the first play) and cancels what is left open, so the next round starts empty. */
  async function cleanUp(seeks: Map<string, { player: string; status: string; match_id: string | null }>, ids: Map<string, Player>) {
    const matches = new Set([...seeks.values()].flatMap((s) => (s.match_id ? [s.match_id] : [])));
    for (const m of matches) {
      const player = [...seeks.values()].find((s) => s.match_id === m)!.player;
      const p = [A, B, C, D].find((x) => x.username === player)!;
      expect((await call(p.via, 'POST', `/v1/matches/${m}/abort`, p.token, {})).status).toBe(200);
    }
    for (const [id, s] of seeks) {
      if (s.status !== 'open') continue;
      const p = ids.get(id)!;
      expect((await call(p.via, 'DELETE', `/v1/seeks/${id}`, p.token)).status).toBe(204);
    }
  }

  it(`${ROUNDS} rounds of A and B seeking the same pool at once on the two instances never pair them; each still pairs with others`, async () => {
    let aPaired = 0;
    let bPaired = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const allAtOnce = round % 2 === 1;
      // A through instance one and B through instance two, at the same moment (and C and D with them, every other round).
      const first = await Promise.all((allAtOnce ? [A, B, C, D] : [A, B]).map(seek));
      const later = allAtOnce ? [] : await Promise.all([C, D].map(seek));
      const made = [...first, ...later];
      expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
      const who = new Map<string, Player>();
      made.forEach((r, i) => who.set(r.body.id as string, [A, B, C, D][i]));
      if (!allAtOnce) {
        // Before C and D came, A's and B's seeks waited: they could not meet.
        expect(first.map((r) => r.body.status)).toEqual(['open', 'open']);
      }
      const seeks = await seeksOf([...who.keys()]);
      const byPlayer = new Map([...seeks.values()].map((s) => [s.player, s]));
      const a = byPlayer.get(A.username)!;
      const b = byPlayer.get(B.username)!;

      // Never at one table.
      if (a.match_id && b.match_id) expect(a.match_id).not.toBe(b.match_id);
      for (const s of seeks.values()) {
        if (!s.match_id) continue;
        const players = await seated(s.match_id);
        expect(players).toContain(s.player);
        expect(players.includes(A.username) && players.includes(B.username)).toBe(false);
      }
      // Nothing compatible left waiting: what stays open is A and B together (C and D took each other) or nothing.
      const open = [...seeks.values()].filter((s) => s.status === 'open').map((s) => s.player);
      expect(open.length === 0 || (open.length === 2 && open.includes(A.username) && open.includes(B.username))).toBe(true);
      if (!allAtOnce) {
        // C and D came after A and B: each of A and B is paired, with one of them.
        expect([a.status, b.status]).toEqual(['paired', 'paired']);
        const withA = await seated(a.match_id!);
        const withB = await seated(b.match_id!);
        expect(withA.filter((p) => p !== A.username).every((p) => p === C.username || p === D.username)).toBe(true);
        expect(withB.filter((p) => p !== B.username).every((p) => p === C.username || p === D.username)).toBe(true);
      }
      if (a.status === 'paired') aPaired++;
      if (b.status === 'paired') bPaired++;
      await cleanUp(seeks, who);
    }
    expect(aPaired).toBeGreaterThanOrEqual(ROUNDS / 2);
    expect(bPaired).toBeGreaterThanOrEqual(ROUNDS / 2);
    // No match of the whole run seats both.
    const together = await sql.query(`SELECT count(*)::int AS n FROM matches WHERE seats::jsonb @> $1::jsonb AND seats::jsonb @> $2::jsonb`, [
      JSON.stringify([{ player: A.username }]),
      JSON.stringify([{ player: B.username }]),
    ]);
    expect(together.rows[0].n).toBe(0);
  });
});
