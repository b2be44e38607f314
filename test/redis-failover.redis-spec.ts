/**
 * Redis failover through Sentinel (docs/operations.md "Redis failover
 * (Sentinel)"): a master, a replica and three Sentinels on this machine's
 * packages; two built instances (separate processes) on the real PostgreSQL
 * with REDIS_SENTINELS/REDIS_SENTINEL_NAME. Players play through their own
 * instance (alice through A, bob through B, so every event reaches the other
 * instance's subscribers through Redis); the master is SIGKILLed in mid-play.
 * Afterwards: no 5xx but a retryable 503 at any time; every play answered
 * with the RateLimit headers; each subscriber (bob's NDJSON streams on B,
 * alice's graphql-ws subscriptions on A) received every event of its match in
 * log order, no gap, no repeat, including a play made while there was no
 * master and followed by no other; presence right for a sample, including an
 * account that connected during the switch.
 */
import { jest } from '@jest/globals';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { freshPgDatabase } from './store/helpers';
import { openNdjson } from './support/ndjson-stream';
import type { NdjsonStream } from './support/ndjson-stream';
import { SentinelTopology } from './support/redis-sentinel';
import { SupervisedProcess } from './support/supervised-process';

jest.setTimeout(240_000);

// The ports given to this suite: Redis 6390-6399, Sentinel 26390-26399, instances 3210-3219.
const MASTER = 6390;
const REPLICA = 6391;
const SENTINELS = [26390, 26391, 26392];
const PORTS = [3210, 3211];
const GROUP = 'scopa';
const MATCHES = 3;
/** Plays per match before the master is killed, and after the promotion. */
const BEFORE = 6;
const AFTER = 6;

type Json = Record<string, any>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const suffix = () => Math.random().toString(36).slice(2, 8);

interface Answer {
  status: number;
  body: Json;
  headers: Headers;
}

/** Every answer of the run (retries included), for the "no 500" check. */
const answers: { path: string; status: number; text: string }[] = [];

/** One request; a 503 or a refused connection is tried again (same body: commands carry their idempotency key). Any other answer is returned. */
async function call(base: string, method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(base + path, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
      const text = await res.text();
      answers.push({ path, status: res.status, text: text.slice(0, 300) });
      if (res.status !== 503) return { status: res.status, body: text ? (JSON.parse(text) as Json) : {}, headers: res.headers };
    } catch {
      // connection refused or reset: tried again
    }
    if (Date.now() > deadline) throw new Error(`${method} ${path}: no answer but 503 for 60 s`);
    await sleep(200);
  }
}

interface Player {
  name: string;
  token: string;
  /** The instance this player talks to. */
  base: string;
}

interface Game {
  id: string;
  /** Seat to move. */
  turn: number;
  seq: number;
  plays: number;
  /** bob's NDJSON stream on B, alice's graphql-ws events on A (seq, type, hash). */
  stream: NdjsonStream;
  ws: { seq: number; type: string; hash: string }[];
  wsDone: Promise<void>;
}

describe('Redis failover through Sentinel (two instances, real PostgreSQL)', () => {
  const redis = new SentinelTopology({
    name: GROUP,
    masterPort: MASTER,
    replicaPorts: [REPLICA],
    sentinelPorts: SENTINELS,
    downAfterMs: 1000,
    failoverTimeoutMs: 3000,
  });
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  const instances: SupervisedProcess[] = [];
  const clients: Client[] = [];
  const streams: NdjsonStream[] = [];

  beforeAll(async () => {
    await redis.start();
    db = await freshPgDatabase();
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: '', // blank is unset: the runner's own REDIS_URL must not sit beside REDIS_SENTINELS
      REDIS_SENTINELS: redis.sentinelsEnv,
      REDIS_SENTINEL_NAME: GROUP,
      JWT_SECRET: 'sentinel-secret',
      AUTH_RATE_LIMIT: '1000',
      STREAM_KEEPALIVE: '0.5',
    };
    for (const [i, port] of PORTS.entries())
      instances.push(new SupervisedProcess({ name: `app${i}`, script: 'dist/main.js', env: { ...env, INSTANCE_ID: `app${i}` }, port }));
    await Promise.all(instances.map((p) => p.start()));
  });

  afterAll(async () => {
    for (const s of streams) s.close();
    for (const c of clients) await c.dispose();
    for (const p of instances) await p.stop();
    await db?.drop();
    await redis.stop();
  });

  it('plays go on, every subscriber gets every event in order, presence and rate limits carry on', async () => {
    const [A, B] = instances.map((p) => p.url);
    const register = async (base: string, prefix: string): Promise<Player> => {
      const name = `${prefix}${suffix()}`;
      const res = await call(base, 'POST', '/v1/auth/register', null, { username: name, password: `pw-${name}-long` });
      expect(res.status).toBe(201);
      return { name, token: res.body.accessToken as string, base };
    };
    const alice = await register(A, 'sfa');
    const bob = await register(B, 'sfb');
    const dave = await register(B, 'sfd');
    const seats = [alice, bob];

    // alice's graphql-ws connection to A: one subscription per match.
    const aliceWs = createClient({
      url: A.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${alice.token}` },
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => undefined,
    });
    clients.push(aliceWs);

    const open = async (base: string, path: string, token: string) => {
      const s = await openNdjson(base + path, token);
      streams.push(s);
      expect(s.status).toBe(200);
      return s;
    };

    const startMatch = async (guest: Player): Promise<{ id: string; turn: number; seq: number }> => {
      const created = await call(A, 'POST', '/v1/matches', alice.token, {
        preset: 'scopa',
        seats: [{ type: 'creator' }, { type: 'reserved', username: guest.name }],
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect((await call(guest.base, 'POST', `/v1/matches/${id}/join`, guest.token, {})).status).toBe(200);
      const started = await call(A, 'POST', `/v1/matches/${id}/start`, alice.token, {});
      expect(started.status).toBe(200);
      return { id, turn: started.body.view.turn as number, seq: started.body.seq as number };
    };

    const games: Game[] = [];
    for (let i = 0; i < MATCHES + 1; i++) {
      const m = await startMatch(bob);
      const ws: Game['ws'] = [];
      const wsDone = new Promise<void>((resolve, reject) => {
        aliceWs.subscribe(
          { query: 'subscription($id: ID!) { matchEventsLive(matchId: $id, fromSeq: 1) { event { seq type hash } } }', variables: { id: m.id } },
          { next: (msg) => void ws.push((msg.data as Json).matchEventsLive.event), error: reject, complete: resolve },
        );
      });
      const stream = await open(B, `/v1/matches/${m.id}/stream?fromSeq=1`, bob.token);
      games.push({ id: m.id, turn: m.turn, seq: m.seq, plays: 0, stream, ws, wsDone });
    }
    // The last one is the quiet match: one play while there is no master, then nothing until it has arrived.
    const quiet = games.pop()!;
    for (const g of [...games, quiet]) {
      await g.stream.waitFor((l) => l.event?.seq === g.seq, 15_000, `the start of ${g.id} on B`);
      await waitUntil(() => g.ws.some((e) => e.seq === g.seq), 15_000, `the start of ${g.id} on A`);
    }

    // dave's match: he holds no connection yet, and alice sees him offline.
    const daves = await startMatch(dave);
    const seatOnline = async (viewer: Player, id: string, seat: number): Promise<boolean | null> => {
      const res = await call(viewer.base, 'GET', `/v1/matches/${id}`, viewer.token);
      expect(res.status).toBe(200);
      return res.body.view.seats[seat].online as boolean | null;
    };
    expect(await seatOnline(alice, daves.id, 1)).toBe(false);
    expect(await seatOnline(alice, games[0].id, 1)).toBe(true); // bob holds streams on B
    expect(await seatOnline(bob, games[0].id, 0)).toBe(true); // alice holds a socket on A

    const withoutRateLimit: string[] = [];
    let killedAt = 0;
    let promotedAt = 0;
    /** Plays answered after the kill and before Sentinel named the new master. */
    let duringSwitch = 0;
    /** One legal play by whoever is to move, through that player's instance. */
    const playOnce = async (g: Game): Promise<void> => {
      const mover = seats[g.turn];
      const legal = await call(mover.base, 'GET', `/v1/matches/${g.id}/legal-plays`, mover.token);
      expect(legal.status).toBe(200);
      const play = (legal.body.plays as Json[]).find((p) => p.capture.length > 0) ?? legal.body.plays[0];
      const res = await call(
        mover.base,
        'POST',
        `/v1/matches/${g.id}/plays`,
        mover.token,
        { card: play.card, capture: play.capture, idempotencyKey: `k-${suffix()}` },
        { 'if-match': `"${legal.body.seq}"` },
      );
      expect(res.status).toBe(200);
      for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
        if (!res.headers.get(h)) withoutRateLimit.push(`${g.id}@${res.body.seq}: ${h}`);
      g.seq = res.body.seq as number;
      g.turn = res.body.view.turn as number;
      g.plays++;
      if (killedAt && !promotedAt) duringSwitch++;
      expect(res.body.status).toBe('playing');
    };

    let target = BEFORE;
    let stop = false;
    const loops = games.map(async (g) => {
      while (!stop || g.plays < target) {
        if (g.plays >= target) {
          await sleep(50);
          continue;
        }
        await playOnce(g);
      }
    });
    await waitUntil(() => games.every((g) => g.plays >= BEFORE), 60_000, 'the plays before the kill');
    target = Number.MAX_SAFE_INTEGER; // play on through the switch

    const old = await redis.killMaster();
    killedAt = Date.now();
    // While there is no master: one play of the quiet match, and dave opens his event stream on B.
    await playOnce(quiet);
    const quietSeq = quiet.seq;
    await open(B, '/v1/stream/events', dave.token);
    const promoted = await redis.promoted(old);
    promotedAt = Date.now();
    expect(promoted).toBe(REPLICA);
    expect(duringSwitch).toBeGreaterThan(MATCHES); // the plays went on while there was no master
    // dave, connected to B during the switch (his claim could not be written), is online for alice through A soon after
    // the promotion: sooner than the next presence heartbeat (a third of PRESENCE_TTL, 10 s).
    let daveOnline = 0;
    const daveBack = waitUntil(async () => (await seatOnline(alice, daves.id, 1)) === true, 5000, 'dave online').then(() => (daveOnline = Date.now()));
    target = Math.max(...games.map((g) => g.plays)) + AFTER;
    stop = true;
    await Promise.all(loops);
    const resumedAt = Date.now();

    // The quiet match's play reached both subscribers with no other notice after it.
    await quiet.stream.waitFor((l) => l.event?.seq === quietSeq, 15_000, 'the quiet play on B');
    await waitUntil(() => quiet.ws.some((e) => e.seq === quietSeq), 15_000, 'the quiet play on A');
    const quietArrived = Date.now();
    await daveBack;
    expect(await seatOnline(alice, games[0].id, 1)).toBe(true);
    expect(await seatOnline(bob, games[0].id, 0)).toBe(true);

    // Every match ends (a resignation), so that each feed ends after the last event.
    for (const g of [...games, quiet]) {
      const res = await call(A, 'POST', `/v1/matches/${g.id}/resign`, alice.token, {});
      expect(res.status).toBe(200);
      g.seq = res.body.seq as number;
    }
    for (const g of [...games, quiet]) {
      await waitUntil(() => g.stream.isEnded(), 20_000, `the end of ${g.id}'s stream on B`);
      await Promise.race([g.wsDone, waitUntil(() => g.ws.some((e) => e.type === 'MatchEnded'), 20_000, `the end of ${g.id} on A`)]);
      const log = await call(A, 'GET', `/v1/matches/${g.id}/events?fromSeq=1&limit=1000`, alice.token);
      expect(log.status).toBe(200);
      const logged = (log.body as unknown as Json[]).map((e) => `${e.seq}:${e.type}:${e.hash}`);
      expect(logged.length).toBe(g.seq);
      // Log events only (a presence change, opponentGone/back, has no hash and is no log event).
      const onB = g.stream.lines.filter((l) => l.event?.hash).map((l) => `${l.event.seq}:${l.event.type}:${l.event.hash}`);
      const onA = g.ws.filter((e) => e.hash).map((e) => `${e.seq}:${e.type}:${e.hash}`);
      expect(onB).toEqual(logged);
      expect(onA).toEqual(logged);
    }

    const serverErrors = answers.filter((a) => a.status >= 500 && a.status !== 503);
    expect(serverErrors).toEqual([]);
    expect(withoutRateLimit).toEqual([]);
    const plays = games.reduce((n, g) => n + g.plays, 1);
    console.log(
      `sentinel failover: promoted ${promotedAt - killedAt} ms after the kill; plays ${plays}, ${duringSwitch} of them answered during the switch (503 answers: ${answers.filter((a) => a.status === 503).length}); ` +
        `the quiet play on both subscribers ${quietArrived - killedAt} ms after the kill; dave online ${daveOnline - killedAt} ms after; plays resumed by ${resumedAt - killedAt} ms`,
    );
  });
});

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
