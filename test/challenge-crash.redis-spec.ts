/**
 * A crash mid-acceptance leaves nothing half made: challenges are accepted
 * through a service process (PostgreSQL + Redis) that is SIGKILLed while the
 * acceptances are under way; on a second process afterwards, every challenge
 * is either accepted with its match started and audited sound, or still
 * pending with no match (and can then be accepted); no match exists without
 * its accepted challenge, and every acceptance acknowledged before the kill
 * is there. Run by `npm run test:redis` (it builds the service first).
 */
import { jest } from '@jest/globals';
import { PrismaService } from '../src/database/prisma.service';
import { freshPgDatabase } from './store/helpers';
import { spawnInstance } from './support/process-instance';
import type { ProcessInstance } from './support/process-instance';

jest.setTimeout(300_000);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const CHALLENGES = 60;

type Json = Record<string, any>;

async function call(base: string, method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
}

describe('a crash while challenges are accepted', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  const started: ProcessInstance[] = [];
  const env = () => ({ DATABASE_URL: db.url, REDIS_URL, JWT_SECRET: 'crash-secret', RATE_LIMIT: '100000' });

  beforeAll(async () => {
    db = await freshPgDatabase();
  });
  afterAll(async () => {
    for (const i of started) await i.stop();
    await db?.drop();
  });

  it('leaves every challenge accepted with its started match, or pending with none', async () => {
    const a = await spawnInstance({ ...env(), INSTANCE_ID: 'a' });
    started.push(a);
    const reg = async (name: string) =>
      (await call(a.url, 'POST', '/v1/auth/register', null, { username: name, password: `pw-${name}-long` })).body.accessToken as string;
    const suffix = Math.random().toString(36).slice(2, 7);
    // Three challengers (at most 20 pending challenges each).
    const challengers = [await reg(`crann${suffix}`), await reg(`crcid${suffix}`), await reg(`crdan${suffix}`)];
    const bobName = `crbob${suffix}`;
    const bob = await reg(bobName);
    const ids: string[] = [];
    for (let i = 0; i < CHALLENGES; i++) {
      const c = await call(a.url, 'POST', '/v1/challenges', challengers[i % 3], { username: bobName, preset: 'scopa', turnTimeLimit: 'P1D' });
      expect(c.status).toBe(201);
      ids.push(c.body.id);
    }

    const gone = new Promise((r) => a.child.once('exit', r));
    // All the acceptances at once; the process dies as the first ones are answered.
    const acknowledged = new Map<string, string>();
    let killed = false;
    const answers = ids.map((id) =>
      call(a.url, 'POST', `/v1/challenges/${id}/accept`, bob)
        .then((r) => {
          if (r.status === 200) acknowledged.set(id, r.body.matchId);
          if (!killed && acknowledged.size >= 3) {
            killed = true;
            a.child.kill('SIGKILL');
          }
        })
        .catch(() => undefined),
    );
    await Promise.all(answers);
    if (!killed) a.child.kill('SIGKILL');
    await gone;

    const b = await spawnInstance({ ...env(), INSTANCE_ID: 'b' });
    started.push(b);
    const prisma = new PrismaService({ url: db.url, poolSize: 2 });
    try {
      const rows = await prisma.$queryRawUnsafe<{ id: string; status: string; match_id: string | null }[]>(
        `SELECT id::text AS id, status, match_id::text AS match_id FROM challenges WHERE dest_user = $1`,
        bobName,
      );
      const matches = await prisma.$queryRawUnsafe<{ id: string; status: string }[]>(
        `SELECT m.id::text AS id, m.status FROM matches m JOIN match_players p ON p.match_id = m.id WHERE p.player_id = $1`,
        bobName,
      );
      expect(rows).toHaveLength(CHALLENGES);
      const accepted = rows.filter((r) => r.status === 'accepted');
      if (process.env.CRASH_DEBUG) console.log(`acknowledged ${acknowledged.size}, accepted ${accepted.length}, pending ${CHALLENGES - accepted.length}`);
      // Every acknowledged acceptance survived, with the match it answered.
      for (const [id, matchId] of acknowledged) expect(rows.find((r) => r.id === id)).toMatchObject({ status: 'accepted', match_id: matchId });
      // Accepted <=> a started match; pending <=> no match; no match without its challenge.
      for (const r of rows) {
        expect(['accepted', 'pending']).toContain(r.status);
        if (r.status === 'pending') expect(r.match_id).toBeNull();
      }
      expect(new Set(matches.map((m) => m.id))).toEqual(new Set(accepted.map((r) => r.match_id)));
      expect(matches.every((m) => m.status === 'playing')).toBe(true);
      for (const m of matches) expect((await call(b.url, 'GET', `/v1/matches/${m.id}/audit`, bob)).body).toMatchObject({ sound: true });

      // What was left pending is accepted on the survivor.
      for (const r of rows.filter((x) => x.status === 'pending')) {
        const res = await call(b.url, 'POST', `/v1/challenges/${r.id}/accept`, bob);
        expect(res.status).toBe(200);
      }
      const after = await prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM match_players WHERE player_id = $1`, bobName);
      expect(after[0].n).toBe(CHALLENGES);
    } finally {
      await prisma.$disconnect();
    }
  });
});
