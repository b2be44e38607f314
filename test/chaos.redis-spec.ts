/**
 * Chaos: bot-vs-bot matches are played through two instances (separate
 * processes on the real PostgreSQL and Redis); one instance is SIGKILLed
 * mid-run; clients retry on the other with the same idempotency keys.
 * Afterwards every acknowledged play is in the log exactly once and every
 * finished match verifies.
 */
import { jest } from '@jest/globals';
import { freshPgDatabase } from './store/helpers';
import { spawnInstance } from './support/process-instance';
import type { ProcessInstance } from './support/process-instance';

jest.setTimeout(300_000);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const MATCHES = 8;

type Json = Record<string, any>;

async function call(base: string, method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
}

describe('chaos: an instance dies under load', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let instances: ProcessInstance[] = [];

  beforeAll(async () => {
    db = await freshPgDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL, JWT_SECRET: 'chaos-secret' };
    instances = [await spawnInstance({ ...env, INSTANCE_ID: 'a' }), await spawnInstance({ ...env, INSTANCE_ID: 'b' })];
  });
  afterAll(async () => {
    for (const i of instances) await i.stop();
    await db?.drop();
  });

  it('loses no acknowledged play, applies none twice, and every finished match verifies', async () => {
    const [a, b] = instances;
    const alive = new Set([a.url, b.url]);
    /** Sends to the preferred instance, then to the other on a network error or 5xx: same request, same idempotency key. */
    async function send(prefer: number, method: string, path: string, token: string | null, body?: unknown, headers?: Record<string, string>) {
      const order = prefer % 2 === 0 ? [a.url, b.url] : [b.url, a.url];
      for (let attempt = 0; attempt < 20; attempt++) {
        const base = order[attempt % 2];
        if (!alive.has(base)) continue;
        try {
          const res = await call(base, method, path, token, body, headers);
          if (res.status < 500) return res;
        } catch {
          // connection refused or reset: the instance is gone; retry on the other
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no instance answered ${method} ${path}`);
    }

    const acknowledged = new Map<string, { seq: number; card: string }[]>();
    const suffix = Math.random().toString(36).slice(2, 7);
    async function playMatch(n: number): Promise<string> {
      const tokens: string[] = [];
      for (const who of ['x', 'y']) {
        const r = await send(n, 'POST', '/v1/auth/register', null, { username: `${who}${n}${suffix}`, password: 'a-long-password' });
        expect(r.status).toBe(201);
        tokens.push(r.body.accessToken);
      }
      const created = await send(n, 'POST', '/v1/matches', tokens[0], {
        preset: 'scopa',
        overrides: { target: 1 },
        seats: [{ type: 'creator' }, { type: 'open' }],
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect((await send(n + 1, 'POST', `/v1/matches/${id}/join`, tokens[1], { idempotencyKey: `join-${id}` })).status).toBe(200);
      let match = (await send(n, 'POST', `/v1/matches/${id}/start`, tokens[0], { idempotencyKey: `start-${id}` })).body;
      acknowledged.set(id, []);
      for (let k = 0; match.status === 'playing'; k++) {
        const mover = tokens[match.view.turn];
        const legal = await send(n + k, 'GET', `/v1/matches/${id}/legal-plays`, mover);
        expect(legal.status).toBe(200);
        const { card, capture } = legal.body.plays[0];
        const key = `play-${id}-${match.seq}`;
        const r = await send(n + k, 'POST', `/v1/matches/${id}/plays`, mover, { card, capture, idempotencyKey: key }, { 'if-match': `"${match.seq}"` });
        expect([r.status, r.body.code]).toEqual([200, undefined]);
        acknowledged.get(id)!.push({ seq: match.seq + 1, card });
        match = r.body;
      }
      return id;
    }

    const running = Array.from({ length: MATCHES }, (_, n) => playMatch(n));
    const total = () => [...acknowledged.values()].reduce((n, acks) => n + acks.length, 0);
    // Kill once plays are flowing (not after a fixed time: on a loaded machine the registrations alone can take seconds).
    for (const deadline = Date.now() + 60_000; total() < MATCHES && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));
    const ackedBeforeKill = total();
    a.child.kill('SIGKILL');
    alive.delete(a.url);
    const ids = await Promise.all(running);
    // the kill landed mid-run: plays were acknowledged before it and after it
    expect(ackedBeforeKill).toBeGreaterThan(0);
    expect(total()).toBeGreaterThan(ackedBeforeKill);

    const reader = (await call(b.url, 'POST', '/v1/auth/register', null, { username: `auditor${suffix}`, password: 'a-long-password' })).body.accessToken;
    for (const id of ids) {
      const log = await call(b.url, 'GET', `/v1/matches/${id}/events?fromSeq=1&limit=1000`, reader);
      const events = (log.body.events ?? log.body) as { seq: number; type: string; payload: Json }[];
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      const played = events.filter((e) => e.type === 'CardPlayed');
      const acks = acknowledged.get(id)!;
      expect(played).toHaveLength(acks.length); // nothing lost, nothing applied twice
      for (const ack of acks) expect(events[ack.seq - 1]).toMatchObject({ type: 'CardPlayed', payload: { card: ack.card } });
      const audit = await call(b.url, 'GET', `/v1/matches/${id}/audit`, reader);
      expect(audit.body).toMatchObject({ sound: true, checked: 'chain+rules' });
    }
  });
});
