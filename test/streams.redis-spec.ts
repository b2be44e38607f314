/**
 * The NDJSON streams across two instances sharing PostgreSQL and Redis (the
 * machine's real servers): a play made through A reaches streams opened on
 * B; a match stream dropped on B and resumed on A from the last seq + 1
 * misses nothing and repeats nothing; a revocation made through A ends a
 * stream held by B; the lobby stream and the event stream on B hear the lobby
 * changes, challenges and pairings made through A.
 */
import { jest } from '@jest/globals';
import request from 'supertest';
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';
import { openNdjson } from './support/ndjson-stream';
import type { NdjsonStream } from './support/ndjson-stream';

jest.setTimeout(180_000);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

describe('NDJSON streams across instances (Redis, PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let a: Awaited<ReturnType<typeof startInstance>>;
  let b: Awaited<ReturnType<typeof startInstance>>;
  const streams: NdjsonStream[] = [];
  const suffix = () => Math.random().toString(36).slice(2, 8);

  beforeAll(async () => {
    db = await freshPgDatabase();
    const env = { REDIS_URL, STREAM_KEEPALIVE: '0.5' };
    a = await startInstance(db.url, { ...env, INSTANCE_ID: 'a' });
    b = await startInstance(db.url, { ...env, INSTANCE_ID: 'b' });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await a?.app.close();
    await b?.app.close();
    await db?.drop();
  });

  const open = async (base: string, path: string, token: string) => {
    const s = await openNdjson(base + path, token);
    streams.push(s);
    expect(s.status).toBe(200);
    return s;
  };

  interface Player {
    username: string;
    token: string;
  }

  const register = async (base: string, prefix: string): Promise<Player> => {
    const username = `${prefix}${suffix()}`;
    const res = await request(base)
      .post('/v1/auth/register')
      .send({ username, password: `pw-${username}-long` });
    expect(res.status).toBe(201);
    return { username, token: res.body.accessToken as string };
  };

  async function startedMatch(alice: Player, bob: Player, overrides: Record<string, unknown> = {}) {
    const created = await request(a.http)
      .post('/v1/matches')
      .set('authorization', `Bearer ${alice.token}`)
      .send({ preset: 'scopa', overrides, seats: [{ type: 'creator' }, { type: 'open' }] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await request(b.http).post(`/v1/matches/${id}/join`).set('authorization', `Bearer ${bob.token}`).send({})).status).toBe(200);
    const started = await request(a.http).post(`/v1/matches/${id}/start`).set('authorization', `Bearer ${alice.token}`).send({});
    expect(started.status).toBe(200);
    return { id, seq: started.body.seq as number };
  }

  /** One legal play by whoever is to move, through `base`. */
  async function playOnce(base: string, id: string, players: Player[]): Promise<{ seq: number; status: string; mover: Player; turn: number }> {
    const views = await Promise.all(players.map((p) => request(base).get(`/v1/matches/${id}`).set('authorization', `Bearer ${p.token}`)));
    const i = views.findIndex((v) => v.body.view.viewer !== null && v.body.view.turn === v.body.view.viewer);
    const mover = players[i];
    const legal = await request(base).get(`/v1/matches/${id}/legal-plays`).set('authorization', `Bearer ${mover.token}`);
    const play = legal.body.plays.find((p: { capture: string[] }) => p.capture.length > 0) ?? legal.body.plays[0];
    const res = await request(base)
      .post(`/v1/matches/${id}/plays`)
      .set('authorization', `Bearer ${mover.token}`)
      .set('if-match', `"${legal.body.seq}"`)
      .send({ card: play.card, capture: play.capture, idempotencyKey: `k-${suffix()}` });
    expect(res.status).toBe(200);
    return { seq: res.body.seq, status: res.body.status, mover, turn: res.body.view.turn };
  }

  it('a play made through A reaches the match stream and the event stream (yourTurn) held by B', async () => {
    const alice = await register(a.http, 'sra');
    const bob = await register(b.http, 'srb');
    const m = await startedMatch(alice, bob);
    const matchOnB = await open(b.http, `/v1/matches/${m.id}/stream?fromSeq=${m.seq + 1}`, bob.token);
    const eventsOnB = await open(b.http, '/v1/stream/events', bob.token);
    await eventsOnB.waitFor((l) => l.type === 'matchInPlay' && l.match.id === m.id);
    await new Promise((r) => setTimeout(r, 300)); // let the subscriptions reach Redis
    // plays through A until one hands the turn to bob
    let played = await playOnce(a.http, m.id, [alice, bob]);
    if (played.mover.username === bob.username) played = await playOnce(a.http, m.id, [alice, bob]);
    const line = await matchOnB.waitFor((l) => l.event.seq === played.seq);
    expect(line.event.type).toBe('CardPlayed');
    expect(matchOnB.lines.map((l) => l.event.seq)).toEqual(matchOnB.lines.map((_, i) => m.seq + 1 + i));
    const turn = await eventsOnB.waitFor((l) => l.type === 'yourTurn' && l.matchId === m.id && l.seq === played.seq);
    expect(turn.seat).toBe(1);
    // a resignation through A: matchEnded on B, and the match stream on B ends with it
    const resigned = await request(a.http).post(`/v1/matches/${m.id}/resign`).set('authorization', `Bearer ${alice.token}`).send({});
    expect(resigned.status).toBe(200);
    await eventsOnB.waitFor((l) => l.type === 'matchEnded' && l.matchId === m.id);
    await matchOnB.ended;
    expect(matchOnB.lines[matchOnB.lines.length - 1].event.type).toBe('MatchEnded');
    await eventsOnB.waitUntil(() => eventsOnB.raw.includes(''), 5000, 'a keep-alive line');
  });

  it('the lobby stream held by B hears a match created and filled through A; the event streams on B hear a challenge and a pairing made through A', async () => {
    const owner = await register(a.http, 'slo');
    const watcher = await register(b.http, 'slw');
    const joiner = await register(a.http, 'slj');
    const lobbyOnB = await open(b.http, '/v1/stream/lobby?preset=scopa-quindici', watcher.token);
    const eventsOnB = await open(b.http, '/v1/stream/events', watcher.token);
    await new Promise((r) => setTimeout(r, 300)); // let the subscriptions reach Redis
    const mk = async (visibility: string) => {
      const res = await request(a.http)
        .post('/v1/matches')
        .set('authorization', `Bearer ${owner.token}`)
        .send({ preset: 'scopa-quindici', seats: [{ type: 'creator' }, { type: 'open' }], visibility });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const hidden = await mk('private');
    const listed = await mk('public');
    expect((await lobbyOnB.waitFor((l) => l.matchId === listed, 10_000, 'the addition')).type).toBe('added');
    expect((await request(a.http).post(`/v1/matches/${listed}/join`).set('authorization', `Bearer ${joiner.token}`).send({})).status).toBe(200);
    expect(await lobbyOnB.waitFor((l) => l.matchId === listed && l.type === 'removed', 10_000, 'the removal')).toEqual({
      type: 'removed',
      matchId: listed,
      match: null,
    });
    expect(lobbyOnB.lines.some((l) => l.matchId === hidden)).toBe(false);

    // a challenge made through A: challengeReceived on B
    const challenge = await request(a.http)
      .post('/v1/challenges')
      .set('authorization', `Bearer ${owner.token}`)
      .send({ username: watcher.username, preset: 'scopa' });
    expect(challenge.status).toBe(201);
    expect((await eventsOnB.waitFor((l) => l.type === 'challengeReceived', 10_000, 'challengeReceived')).challenge.id).toBe(challenge.body.id);
    // seeks through A and B: seekPaired on the watcher's stream on B
    const seek = (base: string, p: Player) =>
      request(base).post('/v1/seeks').set('authorization', `Bearer ${p.token}`).send({ preset: 'scopa-simple', turnTimeLimit: 'P4D' });
    expect((await seek(a.http, joiner)).status).toBe(201);
    const mine = await seek(b.http, watcher);
    expect(mine.status).toBe(201);
    const paired = await eventsOnB.waitFor((l) => l.type === 'seekPaired', 10_000, 'seekPaired');
    expect(paired).toMatchObject({ seekId: mine.body.id, matchId: mine.body.matchId });
  });

  it('a match stream dropped on B and resumed on A from the last seq + 1: every event once, in order, to the end', async () => {
    const carol = await register(a.http, 'src');
    const dave = await register(b.http, 'srd');
    const m = await startedMatch(carol, dave, { target: 1 });
    const first = await open(b.http, `/v1/matches/${m.id}/stream?fromSeq=1`, carol.token);
    await first.waitForCount(m.seq);
    for (let k = 0; k < 4; k++) await playOnce(k % 2 ? a.http : b.http, m.id, [carol, dave]);
    await first.waitForCount(m.seq + 4);
    first.close(); // dropped
    const last = first.lines[first.lines.length - 1].event.seq as number;
    for (let k = 0; k < 3; k++) await playOnce(a.http, m.id, [carol, dave]); // missed while away
    const resumed = await open(a.http, `/v1/matches/${m.id}/stream?fromSeq=${last + 1}`, carol.token);
    let status = 'playing';
    let seq = 0;
    for (let k = 0; status !== 'over'; k++) ({ status, seq } = await playOnce(k % 2 ? a.http : b.http, m.id, [carol, dave]));
    await resumed.ended;
    const seqs = [...first.lines, ...resumed.lines].map((l) => l.event.seq);
    expect(seqs).toEqual(Array.from({ length: seq }, (_, k) => k + 1));
    expect(resumed.lines[resumed.lines.length - 1].event.type).toBe('MatchEnded');
  });

  it('a token revoked through A ends its stream held by B', async () => {
    const erin = await register(a.http, 'sre');
    const created = await request(a.http)
      .post('/v1/tokens')
      .set('authorization', `Bearer ${erin.token}`)
      .send({ name: 'stream', scopes: ['read'] });
    expect(created.status).toBe(201);
    const s = await open(b.http, '/v1/stream/events', created.body.token);
    await s.waitUntil(() => s.raw.length > 0, 5000, 'a first keep-alive');
    const at = Date.now();
    expect((await request(a.http).delete(`/v1/tokens/${created.body.apiToken.id}`).set('authorization', `Bearer ${erin.token}`)).status).toBe(200);
    await s.ended;
    expect(Date.now() - at).toBeLessThan(1500);
    expect(s.lines[s.lines.length - 1]).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'credential revoked' } });
  });
});
