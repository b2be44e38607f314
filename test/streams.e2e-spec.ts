/**
 * Streams without WebSockets (PGlite, one instance): the caller's NDJSON
 * event stream (`GET /v1/stream/events`), a match's NDJSON stream
 * (`GET /v1/matches/{id}/stream?fromSeq=`) and GraphQL subscriptions over
 * Server-Sent Events (graphql-sse at /graphql/stream): what they send, that
 * they never show hidden cards, that they end cleanly (client gone,
 * credential revoked or expired) and that they count toward the caps.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient as createSseClient } from 'graphql-sse';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createTestApp, listenOnLoopback } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { LeakScanner } from './support/leaks';
import { openNdjson } from './support/ndjson-stream';
import type { NdjsonStream } from './support/ndjson-stream';
import { restTransport } from './support/play';
import { PUB_SUB } from '../src/realtime/realtime.module';
import type { PubSubEngine } from '../src/realtime/realtime.module';
import { playerChannel } from '../src/realtime/channels';
import { SubscriptionCaps } from '../src/limits/subscription-caps';
import { SocketRegistry } from '../src/connections/socket-registry';
import { MatchesService } from '../src/matches/matches.service';

jest.setTimeout(120_000);

const CAP = 3;

describe('streams without WebSockets (e2e)', () => {
  let app: INestApplication;
  let base: string;
  const open: NdjsonStream[] = [];
  const http = () => request(app.getHttpServer());
  const t = () => restTransport(app, () => undefined);
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    app = await createTestApp({ STREAM_KEEPALIVE: '0.2', WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: String(CAP) });
    base = (await listenOnLoopback(app)).http;
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await app?.close();
    delete process.env.STREAM_KEEPALIVE;
    delete process.env.WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT;
  });

  async function stream(path: string, token: string | null): Promise<NdjsonStream> {
    const s = await openNdjson(base + path, token);
    open.push(s);
    return s;
  }

  /** A match of two accounts, started (alice creates, bob joins). */
  async function started(alice: Account, bob: Account, overrides: Record<string, unknown> = {}): Promise<any> {
    const created = await t().create(alice, { preset: 'scopa', overrides, seats: [{ type: 'creator' }, { type: 'open' }] });
    await t().join(bob, created.id);
    return t().start(alice, created.id);
  }

  /** One legal play by whoever is to move. */
  async function playOnce(matchId: string, players: Account[]): Promise<any> {
    const views = await Promise.all(players.map((p) => t().match(p, matchId)));
    const i = views.findIndex((v) => v.view.viewer !== null && v.view.turn === v.view.viewer);
    const legal = await t().legal(players[i], matchId);
    const play = legal.plays.find((p: { capture: string[] }) => p.capture.length > 0) ?? legal.plays[0];
    return t().play(players[i], matchId, play.card, play.capture, legal.seq, `k${legal.seq}-${Math.random()}`);
  }

  const subscriptionsOf = () => Object.keys((app.get<PubSubEngine>(PUB_SUB) as unknown as { subscriptions: Record<string, unknown> }).subscriptions).length;

  it('the event stream: my matches in play first (my view), then yourTurn, matchStarted, matchEnded, with keep-alive lines and no hidden card', async () => {
    const alice = await register(app, 'evs');
    const bob = await register(app, 'evb');
    const carol = await register(app, 'evc');
    const scanner = new LeakScanner(app);
    const inPlay = await started(alice, bob);
    // not lines of alice's stream: a match still open, a match of others
    await t().create(alice, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
    await started(bob, carol);

    const s = await stream('/v1/stream/events', alice.token);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const first = await s.waitFor((l) => l.type === 'matchInPlay');
    const asQueried = await t().match(alice, inPlay.id);
    expect(first.match).toEqual(JSON.parse(JSON.stringify(asQueried)));
    expect(first.match.view.hand.length).toBeGreaterThan(0); // alice's own hand

    // a play by whoever moves first; then alice's turn comes in one of her matches
    let m = await t().match(alice, inPlay.id);
    if (m.view.turn === m.view.viewer) m = await playOnce(inPlay.id, [alice, bob]);
    m = await playOnce(inPlay.id, [alice, bob]); // bob plays: now alice's turn
    const turn = await s.waitFor((l) => l.type === 'yourTurn' && l.matchId === inPlay.id && l.seq === m.seq);
    expect(turn).toEqual({ type: 'yourTurn', matchId: inPlay.id, seq: m.seq, seat: m.view.turn, deadline: null });

    // a new match starts, then alice resigns it
    const second = await started(alice, bob);
    const start = await s.waitFor((l) => l.type === 'matchStarted' && l.matchId === second.id);
    expect(start).toMatchObject({ seat: 0, preset: 'scopa', players: [alice.username, bob.username] });
    expect(start.seq).toBeLessThanOrEqual(second.seq);
    const resigned = await http().post(`/v1/matches/${second.id}/resign`).set('authorization', `Bearer ${alice.token}`).send({});
    expect(resigned.status).toBe(200);
    const end = await s.waitFor((l) => l.type === 'matchEnded' && l.matchId === second.id);
    expect(end).toMatchObject({ seq: resigned.body.seq, seat: 0, result: { reason: 'resignation', winner: 1 } });
    expect(end.result.totals).toHaveLength(2);

    // what other features publish on the player's channel is forwarded as it is
    const challenge = { type: 'challengeReceived', challengeId: 'c-1', from: bob.username, preset: 'scopa' };
    await app.get<PubSubEngine>(PUB_SUB).publish(playerChannel(alice.username), challenge);
    expect(await s.waitFor((l) => l.type === 'challengeReceived')).toEqual(challenge);
    await app.get<PubSubEngine>(PUB_SUB).publish(playerChannel(carol.username), { type: 'seekPaired', matchId: 'not-alice' });

    // keep-alive: empty lines (STREAM_KEEPALIVE=0.2 here)
    await s.waitUntil(() => s.raw.filter((l) => l === '').length >= 2, 5000, 'keep-alive lines');
    // nothing about the match of others, nothing of another player's channel
    expect(s.lines.every((l) => l.matchId !== undefined || l.match !== undefined || l.type === 'challengeReceived')).toBe(true);
    expect(s.lines.some((l) => l.type === 'seekPaired')).toBe(false);
    expect(s.lines.filter((l) => l.type === 'matchInPlay').map((l) => l.match.id)).toEqual([inPlay.id]);
    for (const line of s.lines) {
      const id = line.matchId ?? line.match?.id;
      if (id === inPlay.id) await scanner.scan(alice.username, id, line.type, JSON.stringify(line));
    }
    expect(scanner.scanned).toBeGreaterThan(0);
    expect(scanner.leaks).toEqual([]);
    s.close();
  });

  it('an event published while the first lines are being read comes right after them, not lost', async () => {
    const olga = await register(app, 'evo');
    const pete = await register(app, 'evp');
    const ids = [];
    for (let k = 0; k < 3; k++) ids.push((await started(olga, pete)).id);
    // published in the middle of the first lines: while the stream reads the first match in play
    const event = { type: 'seekPaired', matchId: 'm-1' };
    const matches = app.get(MatchesService);
    const present = matches.present.bind(matches);
    const spy = jest.spyOn(matches, 'present').mockImplementationOnce(async (...args) => {
      await app.get<PubSubEngine>(PUB_SUB).publish(playerChannel(olga.username), event);
      return present(...args);
    });
    const s = await stream('/v1/stream/events', olga.token);
    await s.waitFor((l) => l.type === 'seekPaired');
    spy.mockRestore();
    expect(s.lines.map((l) => l.type)).toEqual(['matchInPlay', 'matchInPlay', 'matchInPlay', 'seekPaired']);
    expect(new Set(s.lines.slice(0, 3).map((l) => l.match.id))).toEqual(new Set(ids));
    s.close();
  });

  it('the lobby stream: the lobby I may see first, then additions, updates and removals (never a private match), filtered as the lobby subscription; counted, tracked, ended on revocation', async () => {
    const watcher = await register(app, 'lbw');
    const owner = await register(app, 'lbo');
    const joiner = await register(app, 'lbj');
    const scanner = new LeakScanner(app);
    const mk = async (a: Account, body: Record<string, unknown>) => {
      const res = await http().post('/v1/matches').set('authorization', `Bearer ${a.token}`).send(body);
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const quindici = (extra: Record<string, unknown> = {}) => ({ preset: 'scopa-quindici', seats: [{ type: 'creator' }, { type: 'open' }], ...extra });
    // already in the lobby when the stream opens: its first line
    const before = await mk(owner, quindici());
    const privateBefore = await mk(owner, quindici({ visibility: 'private' }));
    const ownBefore = await mk(watcher, quindici()); // the watcher's own match: no seat to take
    // the stream opens through an API token (to revoke it at the end)
    const created = await http()
      .post('/v1/tokens')
      .set('authorization', `Bearer ${watcher.token}`)
      .send({ name: 'lobby', scopes: ['read'] });
    expect(created.status).toBe(201);
    const s = await stream('/v1/stream/lobby?preset=scopa-quindici&clock=untimed', created.body.token);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const page = (
      await http().get('/v1/lobby').query({ preset: 'scopa-quindici', clock: 'untimed', limit: 100 }).set('authorization', `Bearer ${watcher.token}`)
    ).body;
    await s.waitForCount(page.matches.length, 10_000);
    const first = s.lines[0];
    expect(first).toEqual({ type: 'added', matchId: before, match: page.matches.find((m: any) => m.id === before) });
    expect(s.lines.map((l) => l.matchId)).toEqual(page.matches.map((m: any) => m.id)); // the whole page, newest first
    // counted in the caps, tracked by its credential
    expect(app.get(SubscriptionCaps).openFor(watcher.id)).toBe(1);
    expect(app.get(SocketRegistry).openWith(`token:${created.body.apiToken.id}`)).toBe(1);

    // from now on: a private match never comes, nor another preset, a clocked match or the watcher's own
    const privateAfter = await mk(owner, quindici({ visibility: 'private' }));
    await mk(owner, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
    await mk(owner, quindici({ turnTimeLimit: 'PT1H' }));
    const ownAfter = await mk(watcher, quindici());
    const three = await mk(owner, quindici({ overrides: { players: 3 }, seats: [{ type: 'creator' }, { type: 'open' }, { type: 'open' }] }));
    const added = await s.waitFor((l) => l.matchId === three, 10_000, 'the addition');
    expect(added).toMatchObject({
      type: 'added',
      match: { id: three, preset: 'scopa-quindici', createdBy: owner.username, seats: [{ state: 'taken' }, { state: 'open' }, { state: 'open' }] },
    });
    expect((await http().post(`/v1/matches/${three}/join`).set('authorization', `Bearer ${joiner.token}`).send({})).status).toBe(200);
    const updated = await s.waitFor((l) => l.matchId === three && l.type === 'updated', 10_000, 'the update');
    expect(updated.match.seats.map((x: any) => x.state)).toEqual(['taken', 'taken', 'open']);
    // the match before fills up: removed
    expect((await http().post(`/v1/matches/${before}/join`).set('authorization', `Bearer ${joiner.token}`).send({})).status).toBe(200);
    expect(await s.waitFor((l) => l.matchId === before && l.type === 'removed', 10_000, 'the removal')).toEqual({
      type: 'removed',
      matchId: before,
      match: null,
    });
    // the private ones filled too: still nothing about them
    for (const id of [privateBefore, privateAfter])
      expect((await http().post(`/v1/matches/${id}/join`).set('authorization', `Bearer ${joiner.token}`).send({})).status).toBe(200);
    await wait(300);
    const ids = new Set(s.lines.map((l) => l.matchId));
    for (const id of [privateBefore, privateAfter, ownBefore, ownAfter]) expect([id, ids.has(id)]).toEqual([id, false]);
    expect(s.lines.every((l) => l.match === null || (l.match.preset === 'scopa-quindici' && l.match.turnTimeLimit === null))).toBe(true);
    await s.waitUntil(() => s.raw.filter((l) => l === '').length >= 1, 5000, 'a keep-alive line');
    for (const line of s.lines) if (line.match) await scanner.scan(watcher.username, line.matchId, line.type, JSON.stringify(line));
    expect(scanner.leaks).toEqual([]);

    // the credential revoked: a last UNAUTHENTICATED line, nothing left counted or tracked
    const revoke = await http().delete(`/v1/tokens/${created.body.apiToken.id}`).set('authorization', `Bearer ${watcher.token}`);
    expect(revoke.status).toBe(200);
    await s.ended;
    expect(s.lines[s.lines.length - 1]).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'credential revoked' } });
    for (let i = 0; i < 100 && app.get(SubscriptionCaps).openFor(watcher.id) > 0; i++) await wait(20);
    expect(app.get(SubscriptionCaps).openFor(watcher.id)).toBe(0);

    // bad filters: typed 400s before anything is streamed; beyond the cap: 429
    for (const q of ['clock=sometimes', 'rated=maybe', 'preset=']) {
      const bad = await stream(`/v1/stream/lobby?${q}`, watcher.token);
      await bad.ended;
      expect([q, bad.status, JSON.parse(bad.text()).code]).toEqual([q, 400, 'VALIDATION_FAILED']);
    }
    const held = [];
    for (let k = 0; k < CAP; k++) held.push(await stream('/v1/stream/lobby', watcher.token));
    const refused = await stream('/v1/stream/lobby', watcher.token);
    await refused.ended;
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text())).toMatchObject({ code: 'RATE_LIMITED', reason: 'subscriptions' });
    for (const h of held) h.close();
  });

  it('the event stream forwards what the lobby and challenges publish: challengeReceived, challengeAccepted, seekPaired', async () => {
    const alice = await register(app, 'ch1');
    const bob = await register(app, 'ch2');
    const aliceEvents = await stream('/v1/stream/events', alice.token);
    const bobEvents = await stream('/v1/stream/events', bob.token);
    for (let i = 0; i < 100 && app.get(SubscriptionCaps).openFor(bob.id) < 1; i++) await wait(20);
    await wait(100); // both listening (no match in play: no first line to wait for)

    // a challenge by alice: challengeReceived on bob's stream
    const made = await http().post('/v1/challenges').set('authorization', `Bearer ${alice.token}`).send({ username: bob.username, preset: 'scopa' });
    expect(made.status).toBe(201);
    const received = await bobEvents.waitFor((l) => l.type === 'challengeReceived', 10_000, 'challengeReceived');
    expect(received.challenge).toMatchObject({ id: made.body.id, challenger: alice.username, destUser: bob.username, status: 'pending' });
    // bob accepts: challengeAccepted on alice's stream, and the match starts for both
    const accepted = await http().post(`/v1/challenges/${made.body.id}/accept`).set('authorization', `Bearer ${bob.token}`).send({});
    expect(accepted.status).toBe(200);
    const answer = await aliceEvents.waitFor((l) => l.type === 'challengeAccepted', 10_000, 'challengeAccepted');
    expect(answer).toMatchObject({ matchId: accepted.body.matchId, challenge: { id: made.body.id } });
    await bobEvents.waitFor((l) => l.type === 'matchStarted' && l.matchId === accepted.body.matchId, 10_000, 'matchStarted');

    // two compatible seeks: seekPaired on both streams, with the same match
    const seek = (a: Account) => http().post('/v1/seeks').set('authorization', `Bearer ${a.token}`).send({ preset: 'scopa-simple', turnTimeLimit: 'P3D' });
    const first = await seek(alice);
    expect(first.status).toBe(201);
    const second = await seek(bob);
    expect(second.status).toBe(201);
    const [pa, pb] = await Promise.all([
      aliceEvents.waitFor((l) => l.type === 'seekPaired', 10_000, "alice's seekPaired"),
      bobEvents.waitFor((l) => l.type === 'seekPaired', 10_000, "bob's seekPaired"),
    ]);
    expect(pa).toMatchObject({ seekId: first.body.id, preset: 'scopa-simple' });
    expect(pb).toMatchObject({ seekId: second.body.id, matchId: pa.matchId });
    expect([pa.seat, pb.seat].sort()).toEqual([0, 1]);
    expect(new Set(pa.players)).toEqual(new Set([alice.username, bob.username]));
    // each got only its own: no challenge event of the other side
    expect(aliceEvents.lines.some((l) => l.type === 'challengeReceived')).toBe(false);
    expect(bobEvents.lines.some((l) => l.type === 'challengeAccepted')).toBe(false);
    aliceEvents.close();
    bobEvents.close();
  });

  it('the match stream: from fromSeq, then live, each with my view; resumed after a dropped connection from the last seq + 1: no gap, no repeat; it ends with the match', async () => {
    const alice = await register(app, 'mss');
    const bob = await register(app, 'msb');
    const watcher = await register(app, 'msw');
    const scanner = new LeakScanner(app);
    const m = await started(alice, bob, { target: 1 });

    const first = await stream(`/v1/matches/${m.id}/stream?fromSeq=1`, alice.token);
    expect(first.status).toBe(200);
    const spectator = await stream(`/v1/matches/${m.id}/stream`, watcher.token);
    await first.waitForCount(m.seq);
    for (let k = 0; k < 3; k++) await playOnce(m.id, [alice, bob]);
    await first.waitForCount(m.seq + 3);
    first.close(); // the connection drops
    const seen = first.lines.map((l) => l.event.seq);
    for (let k = 0; k < 3; k++) await playOnce(m.id, [alice, bob]); // played meanwhile

    const resumed = await stream(`/v1/matches/${m.id}/stream?fromSeq=${seen[seen.length - 1] + 1}`, alice.token);
    // to the end: the stream ends by itself after MatchEnded
    let over = await t().match(alice, m.id);
    while (over.status !== 'over') {
      await playOnce(m.id, [alice, bob]);
      over = await t().match(alice, m.id);
    }
    await resumed.ended;
    await spectator.ended;
    const all = [...first.lines, ...resumed.lines];
    expect(all.map((l) => l.event.seq)).toEqual(Array.from({ length: over.seq }, (_, k) => k + 1));
    expect(spectator.lines.map((l) => l.event.seq)).toEqual(Array.from({ length: over.seq }, (_, k) => k + 1));
    const last = resumed.lines[resumed.lines.length - 1];
    expect(last.event.type).toBe('MatchEnded');
    expect(last.match.status).toBe('over');
    expect(last.match.reveal.seed).toMatch(/^[0-9a-f]{64}$/);
    // each line shows the caller's view: alice's hand, none for the spectator, no hidden card before the end
    expect(all.some((l) => l.match.status === 'playing' && l.match.view.hand.length > 0)).toBe(true);
    expect(spectator.lines.every((l) => l.match.view.hand.length === 0 || l.match.status === 'over')).toBe(true);
    for (const l of all) await scanner.scan(alice.username, m.id, `seq ${l.event.seq}`, JSON.stringify(l), l.event.seq);
    for (const l of spectator.lines) await scanner.scan(watcher.username, m.id, `seq ${l.event.seq}`, JSON.stringify(l), l.event.seq);
    expect(scanner.leaks).toEqual([]);

    // a finished match from past its end: an empty stream that ends at once
    const past = await stream(`/v1/matches/${m.id}/stream?fromSeq=${over.seq + 1}`, alice.token);
    await past.ended;
    expect(past.status).toBe(200);
    expect(past.lines).toEqual([]);
  });

  it('refuses bad input with a typed error before streaming', async () => {
    const dan = await register(app, 'msbad');
    const m = await t().create(dan, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
    const cases: [string, string | null, number, string][] = [
      [`/v1/matches/${m.id}/stream?fromSeq=0`, dan.token, 400, 'VALIDATION_FAILED'],
      [`/v1/matches/${m.id}/stream?fromSeq=x`, dan.token, 400, 'VALIDATION_FAILED'],
      ['/v1/matches/00000000-0000-4000-8000-000000000000/stream', dan.token, 404, 'NOT_FOUND'],
      ['/v1/matches/not-a-uuid/stream', dan.token, 404, 'NOT_FOUND'],
      ['/v1/stream/events', null, 401, 'UNAUTHENTICATED'],
      [`/v1/matches/${m.id}/stream`, 'forged.jwt.token', 401, 'UNAUTHENTICATED'],
    ];
    for (const [path, token, status, code] of cases) {
      const s = await stream(path, token);
      await s.ended;
      expect([path, s.status]).toEqual([path, status]);
      expect(s.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(JSON.parse(s.text()).code).toBe(code);
    }
    expect(app.get(SubscriptionCaps).openFor(dan.id)).toBe(0);
  });

  it('a client that goes away leaves nothing subscribed, counted or tracked', async () => {
    const erin = await register(app, 'gone');
    const fred = await register(app, 'goneb');
    const m = await started(erin, fred);
    const caps = app.get(SubscriptionCaps);
    const before = subscriptionsOf();
    const events = await stream('/v1/stream/events', erin.token);
    const match = await stream(`/v1/matches/${m.id}/stream`, erin.token);
    await events.waitFor((l) => l.type === 'matchInPlay');
    await match.waitForCount(m.seq);
    expect(caps.openFor(erin.id)).toBe(2);
    expect(subscriptionsOf()).toBe(before + 3); // turn and player channels, the match's channel
    const sid = (jwt.decode(erin.token) as { sid: string }).sid;
    expect(app.get(SocketRegistry).openWith(`session:${sid}`)).toBe(2);
    events.close();
    match.close();
    for (let i = 0; i < 100 && (caps.openFor(erin.id) > 0 || subscriptionsOf() > before); i++) await wait(20);
    expect(caps.openFor(erin.id)).toBe(0);
    expect(subscriptionsOf()).toBe(before);
    expect(app.get(SocketRegistry).openWith(`session:${sid}`)).toBe(0);
    const metrics = await http().get('/metrics');
    expect(metrics.text).toMatch(/^scopa_subscriptions_open 0$/m);
  });

  it('a revoked API token ends its streams within a second with a last UNAUTHENTICATED line; a JWT stream ends at its exp', async () => {
    const gina = await register(app, 'revk');
    const hugo = await register(app, 'revkb');
    const m = await started(gina, hugo);
    const created = await http()
      .post('/v1/tokens')
      .set('authorization', `Bearer ${gina.token}`)
      .send({ name: 'streamer', scopes: ['read'] });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    const events = await stream('/v1/stream/events', token);
    const match = await stream(`/v1/matches/${m.id}/stream`, token);
    const other = await stream('/v1/stream/events', gina.token); // the session's own stream goes on
    await Promise.all([events.waitFor((l) => l.type === 'matchInPlay'), match.waitForCount(m.seq), other.waitFor((l) => l.type === 'matchInPlay')]);
    const revokedAt = Date.now();
    const revoke = await http().delete(`/v1/tokens/${created.body.apiToken.id}`).set('authorization', `Bearer ${gina.token}`);
    expect(revoke.status).toBe(200);
    await Promise.all([events.ended, match.ended]);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    for (const s of [events, match]) expect(s.lines[s.lines.length - 1]).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'credential revoked' } });
    const played = await playOnce(m.id, [gina, hugo]);
    expect(match.lines.some((l) => l.event?.seq === played.seq)).toBe(false);
    expect(other.isEnded()).toBe(false);
    other.close();
    // a refused credential cannot open one again
    expect((await stream('/v1/stream/events', token)).status).toBe(401);

    const claims = jwt.decode(gina.token) as Record<string, unknown>;
    const exp = Math.floor(Date.now() / 1000) + 2;
    const short = jwt.sign({ sub: claims.sub, usr: claims.usr, sid: claims.sid, exp }, process.env.JWT_SECRET!, { issuer: 'scopa-service' });
    const expiring = await stream('/v1/stream/events', short);
    expect(expiring.status).toBe(200);
    await expiring.ended;
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000 - 20);
    expect(expiring.lines[expiring.lines.length - 1]).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'credential expired' } });
  });

  describe('GraphQL over Server-Sent Events (graphql-sse)', () => {
    const LIVE =
      'subscription($id: ID!, $from: Int) { matchEventsLive(matchId: $id, fromSeq: $from) { event { seq type } match { status view { viewer hand } } } }';
    const sseClient = (token: string | null) =>
      createSseClient({ url: `${base}/graphql/stream`, singleConnection: false, retryAttempts: 0, headers: token ? { authorization: `Bearer ${token}` } : {} });

    it('serves subscriptions with the bearer token, the same limits and errors; refuses without a token', async () => {
      const ivy = await register(app, 'sse');
      const jon = await register(app, 'sseb');
      const m = await started(ivy, jon);
      const client = sseClient(ivy.token);
      const got: any[] = [];
      let done!: () => void;
      const reached = new Promise<void>((r) => (done = r));
      const dispose = client.subscribe(
        { query: LIVE, variables: { id: m.id, from: 1 } },
        {
          next: (msg) => {
            const item = (msg.data as any)?.matchEventsLive;
            if (item) got.push(item);
            if (got.length >= m.seq + 1) done();
          },
          error: (e) => {
            throw e;
          },
          complete: () => undefined,
        },
      );
      await playOnce(m.id, [ivy, jon]);
      await reached;
      expect(got.map((i) => i.event.seq)).toEqual(Array.from({ length: m.seq + 1 }, (_, k) => k + 1));
      expect(got.some((i) => i.match.view.hand.length > 0)).toBe(true);
      expect(app.get(SubscriptionCaps).openFor(ivy.id)).toBe(1);
      dispose();
      for (let i = 0; i < 100 && app.get(SubscriptionCaps).openFor(ivy.id) > 0; i++) await wait(20);
      expect(app.get(SubscriptionCaps).openFor(ivy.id)).toBe(0);
      client.dispose();

      // the same limits and formatting as graphql-ws
      const once = (query: string, variables: Record<string, unknown> = {}, token: string | null = ivy.token) =>
        new Promise<{ data?: any; errors?: any[] }>((resolve) => {
          let result: { data?: any; errors?: any[] } = {};
          const c = sseClient(token);
          c.subscribe(
            { query, variables },
            { next: (r) => (result = r as typeof result), error: (e) => resolve({ errors: [e] }), complete: () => resolve(result) },
          );
        });
      const deep = `{ __schema { types { fields { type { ${'ofType { '.repeat(14)} name ${'} '.repeat(14)} } } } } }`;
      const tooDeep = await once(deep);
      expect(tooDeep.errors?.[0]?.message).toMatch(/depth \d+ exceeds the limit/);
      expect(tooDeep.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
      const missing = await once(LIVE, { id: '00000000-0000-4000-8000-000000000000', from: 1 });
      expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const me = await once('{ me { username } }');
      expect(me.data).toEqual({ me: { username: ivy.username } });

      // without a token: 401 problem+json before anything runs
      const anonymous = await fetch(`${base}/graphql/stream`, {
        method: 'POST',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
        body: JSON.stringify({ query: LIVE, variables: { id: m.id } }),
      });
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
      // with a token but not as an event stream: a typed refusal
      const notSse = await fetch(`${base}/graphql/stream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ivy.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ me { username } }' }),
      });
      expect(notSse.status).toBe(400);
      expect(((await notSse.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
      const refused = await once(LIVE, { id: m.id, from: 1 }, null);
      expect(refused.data).toBeUndefined();
      expect(refused.errors?.length).toBe(1);
    });

    it('a revoked credential ends its SSE subscription with UNAUTHENTICATED', async () => {
      const kim = await register(app, 'sserev');
      const lou = await register(app, 'sserevb');
      const m = await started(kim, lou);
      const created = await http()
        .post('/v1/tokens')
        .set('authorization', `Bearer ${kim.token}`)
        .send({ name: 'sse', scopes: ['read'] });
      const client = sseClient(created.body.token);
      const got: any[] = [];
      let completed!: () => void;
      const ended = new Promise<void>((r) => (completed = r));
      client.subscribe(
        { query: LIVE, variables: { id: m.id, from: 1 } },
        { next: (msg) => void got.push(msg), error: () => completed(), complete: () => completed() },
      );
      for (let i = 0; i < 100 && got.length < m.seq; i++) await wait(20);
      expect(got.length).toBe(m.seq);
      await http().delete(`/v1/tokens/${created.body.apiToken.id}`).set('authorization', `Bearer ${kim.token}`);
      await ended;
      expect(got[got.length - 1].errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      for (let i = 0; i < 100 && app.get(SubscriptionCaps).openFor(kim.id) > 0; i++) await wait(20);
      expect(app.get(SubscriptionCaps).openFor(kim.id)).toBe(0);
      client.dispose();
    });
  });

  it('NDJSON streams and SSE subscriptions count toward the subscription cap: one more is refused with RATE_LIMITED (429)', async () => {
    const max = await register(app, 'cap');
    const ned = await register(app, 'capb');
    const m = await started(max, ned);
    const a = await stream('/v1/stream/events', max.token);
    const b = await stream(`/v1/matches/${m.id}/stream`, max.token);
    const client = createSseClient({
      url: `${base}/graphql/stream`,
      singleConnection: false,
      retryAttempts: 0,
      headers: { authorization: `Bearer ${max.token}` },
    });
    const seen: unknown[] = [];
    const dispose = client.subscribe(
      { query: 'subscription { myTurn { matchId } }' },
      { next: (r) => void seen.push(r), error: () => undefined, complete: () => undefined },
    );
    const caps = app.get(SubscriptionCaps);
    for (let i = 0; i < 100 && caps.openFor(max.id) < CAP; i++) await wait(20);
    expect(caps.openFor(max.id)).toBe(CAP);
    const refused = await stream('/v1/stream/events', max.token);
    await refused.ended;
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text())).toMatchObject({ code: 'RATE_LIMITED', limit: CAP, remaining: 0, reason: 'subscriptions' });
    // over SSE too
    const overSse = await new Promise<any>((resolve) => {
      let last: unknown = null;
      client.subscribe(
        { query: 'subscription { myTurn { matchId } }' },
        { next: (r) => (last = r), error: (e) => resolve({ errors: [e] }), complete: () => resolve(last) },
      );
    });
    expect(overSse.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: CAP, reason: 'subscriptions' });
    // closing one frees its place
    a.close();
    for (let i = 0; i < 100 && caps.openFor(max.id) >= CAP; i++) await wait(20);
    const again = await stream('/v1/stream/events', max.token);
    expect(again.status).toBe(200);
    again.close();
    b.close();
    dispose();
    client.dispose();
  });
});
