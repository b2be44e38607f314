/**
 * The SDK (`sdk/`, `@scopa/sdk`) against a real instance on the embedded
 * database, as a third-party client uses it: an account, a match against the
 * greedy bot played to its end through `follow()` (its connection dropped by
 * a proxy mid-match and resumed from the last seq: no gap, no repeat), the
 * audit; typed errors from REST and GraphQL; a play retried after a lost
 * response plays once (the idempotency key); `If-Match` from the last seq;
 * an API token. The SDK comes from its sources here (jest maps `@scopa/sdk`
 * to sdk/src); test/sdk-package.e2e-spec.ts checks the built package.
 */
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { AuditDocument, LegalPlaysDocument, MatchDocument, ScopaClient, ScopaError, isScopaError } from '@scopa/sdk';
import type { LiveMatchEvent, Match } from '@scopa/sdk';
import { createTestApp, listenOnLoopback } from './support/app';
import { uniqueName } from './support/clients';
import { startTcpProxy } from './support/tcp-proxy';
import type { TcpProxy } from './support/tcp-proxy';

jest.setTimeout(240_000);

/** Whether the match, as this event shows it, waits for my play. */
const myTurn = (live: { match: { status: string; view: { turn: number; viewer?: number | null } } }): boolean =>
  live.match.status === 'playing' && live.match.view.viewer !== null && live.match.view.turn === live.match.view.viewer;

describe('@scopa/sdk against a real instance (e2e)', () => {
  let app: INestApplication;
  let base: string;
  let proxy: TcpProxy;

  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT: '100000' });
    const served = await listenOnLoopback(app);
    base = served.http;
    proxy = await startTcpProxy(served.port);
  });

  afterAll(async () => {
    await proxy?.close();
    await app?.close();
  });

  async function newPlayer(): Promise<{ client: ScopaClient; username: string; password: string }> {
    const username = uniqueName('sdk');
    const password = `password of ${username}`;
    const client = new ScopaClient({ baseUrl: base });
    const session = await client.register(username, password);
    expect(session.account.username).toBe(username);
    return { client, username, password };
  }

  async function matchAgainstBot(client: ScopaClient, target = 11): Promise<Match> {
    const created = await client.createMatch({ preset: 'scopa', overrides: { target }, seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
    expect(created.status).toBe('open');
    await client.setClientSeed(created.id);
    const started = await client.startMatch(created.id);
    expect(started.status).toBe('playing');
    return started;
  }

  it('creates an account, plays a match against a bot to the end with follow() across a dropped connection, and audits it', async () => {
    const { username, password } = await newPlayer();
    // log in again, through the proxy (REST and graphql-ws both go through it)
    const client = await ScopaClient.login({ baseUrl: `http://127.0.0.1:${proxy.port}`, username, password, retry: { attempts: 6, baseDelayMs: 50 } });
    expect((await client.me()).username).toBe(username);
    const started = await matchAgainstBot(client);
    const matchId = started.id;

    const seen: number[] = [];
    const reconnects: number[] = [];
    let plays = 0;
    let dropped = false;
    let last: LiveMatchEvent | undefined;
    for await (const live of client.follow(matchId, 1, { reconnectDelayMs: 20, onReconnect: ({ fromSeq }) => reconnects.push(fromSeq) })) {
      seen.push(live.event.seq);
      expect(live.event.seq).toBe(live.match.seq);
      last = live;
      if (!myTurn(live)) continue;
      // the match as this event shows it may already be behind (a batch of events follows): act at the head only
      const legal = await client.legalPlays(matchId);
      if (legal.seq !== live.event.seq || legal.plays.length === 0) continue;
      // a legal play sent back exactly as legalPlays gave it (scopa flag included), If-Match from the last seq seen
      expect(client.lastSeq(matchId)).toBe(legal.seq);
      await client.play(matchId, legal.plays[0]);
      plays++;
      if (plays === 3 && !dropped) {
        dropped = true;
        expect(proxy.dropAll()).toBeGreaterThan(0); // the socket (and any pooled HTTP connection) drops mid-match
      }
    }

    expect(dropped).toBe(true);
    expect(reconnects.length).toBeGreaterThanOrEqual(1);
    expect(last?.event.type).toBe('MatchEnded');
    expect(last?.match.status).toBe('over');
    // every event exactly once, in order, across the reconnection
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
    const log = await client.events(matchId, 1, 1000);
    expect(log.map((e) => e.seq)).toEqual(seen);

    const final = await client.getMatch(matchId);
    expect(final.status).toBe('over');
    expect(final.reveal?.seed).toMatch(/^[0-9a-f]{64}$/);
    const audit = await client.audit(matchId);
    expect(audit).toMatchObject({ matchId, sound: true, checked: 'chain+rules' });
    // the same verdict through the typed GraphQL document
    const { audit: viaGraphql } = await client.graphql(AuditDocument, { matchId });
    expect(viaGraphql).toMatchObject({ sound: true, checked: 'chain+rules' });
    const exported = await client.exportMatch(matchId);
    expect(exported.split('\n').filter(Boolean)).toHaveLength(seen.length + 1);
    expect(plays).toBeGreaterThan(3);
  });

  it('maps refusals to ScopaError with code, reason and status, from problem+json and from GraphQL', async () => {
    const { client } = await newPlayer();
    const match = await matchAgainstBot(client);
    const legal = await client.legalPlays(match.id);
    expect(legal.plays.length).toBeGreaterThan(0);

    // a card I do not hold
    const notMine = ['1D', '2D', '3D', '4D', '5D', '6D', '7D', '8D', '9D', '10D'].find((c) => !match.view.hand.includes(c) && !match.view.table.includes(c))!;
    const illegal = await client.play(match.id, { card: notMine, capture: [] }).catch((e: unknown) => e);
    expect(illegal).toBeInstanceOf(ScopaError);
    expect(illegal).toMatchObject({ code: 'ILLEGAL_PLAY', status: 422 });
    expect(typeof (illegal as ScopaError).reason).toBe('string');

    // a stale If-Match
    const stale = await client.play(match.id, legal.plays[0], { expectedSeq: legal.seq - 1 }).catch((e: unknown) => e);
    expect(isScopaError(stale, 'VERSION_CONFLICT')).toBe(true);
    expect((stale as ScopaError).status).toBe(412);
    // nothing changed: the same play at the right seq goes through
    expect((await client.getMatch(match.id)).seq).toBe(legal.seq);

    // REST 404 and GraphQL NOT_FOUND alike
    const missing = randomUUID();
    await expect(client.getMatch(missing)).rejects.toMatchObject({ name: 'ScopaError', code: 'NOT_FOUND', status: 404 });
    await expect(client.graphql(MatchDocument, { id: missing })).rejects.toMatchObject({ name: 'ScopaError', code: 'NOT_FOUND', status: 404 });
    // bad input
    await expect(client.createMatch({ preset: 'no-such-preset' })).rejects.toMatchObject({ name: 'ScopaError', status: 400 });
    // no credential
    await expect(new ScopaClient({ baseUrl: base }).me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    // the service cannot be reached at all: NETWORK_ERROR after the retries
    const nowhere = new ScopaClient({ baseUrl: 'http://127.0.0.1:1', retry: { attempts: 2, baseDelayMs: 1 } });
    await expect(nowhere.getMatch(missing)).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });

  it('retries a play whose response was lost with the same idempotency key: it is played once', async () => {
    const { username, password } = await newPlayer();
    let lost = 0;
    const bodies: string[] = [];
    // the request reaches the service and is played, then the connection "drops" before the answer
    const flaky = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/plays')) {
        bodies.push(await request.clone().text());
        if (lost === 0) {
          lost++;
          await fetch(request);
          throw new TypeError('fetch failed: socket hang up');
        }
      }
      return fetch(request);
    };
    const client = await ScopaClient.login({ baseUrl: base, username, password, fetch: flaky as typeof fetch, retry: { baseDelayMs: 1 } });
    const match = await matchAgainstBot(client);
    const legal = await client.legalPlays(match.id);
    const after = await client.play(match.id, legal.plays[0]);

    expect(lost).toBe(1);
    expect(bodies).toHaveLength(2);
    expect(JSON.parse(bodies[1]).idempotencyKey).toBe(JSON.parse(bodies[0]).idempotencyKey);
    const events = await client.events(match.id, legal.seq + 1, 100);
    const mine = events.filter((e) => e.type === 'CardPlayed' && e.actor === username);
    expect(mine).toHaveLength(1);
    expect(after.seq).toBe(events[events.length - 1].seq);
  });

  it('an API token created with the SDK works as the credential of another client, GraphQL documents included', async () => {
    const { client, username } = await newPlayer();
    const created = await client.createApiToken('sdk bot', ['read', 'play']);
    expect(created.token).toMatch(/^scopa_pat_/);
    const bot = new ScopaClient({ baseUrl: base, token: created.token });
    expect((await bot.me()).username).toBe(username);
    const match = await matchAgainstBot(bot);
    const { legalPlays } = await bot.graphql(LegalPlaysDocument, { matchId: match.id });
    expect(legalPlays.seq).toBe(match.seq);
    expect(legalPlays.plays.length).toBeGreaterThan(0);
    // the token cannot manage tokens (password sessions only): a typed refusal
    await expect(bot.createApiToken('another')).rejects.toMatchObject({ name: 'ScopaError', code: 'FORBIDDEN', status: 403 });
  });
  it('rematch, rematchOffer and declineRematch: a declined offer lapses (asking again opens a new one); asked by both, the rematch is made and started', async () => {
    const [ann, bob] = await Promise.all([newPlayer(), newPlayer()]);
    const finished = async (): Promise<string> => {
      const m = await ann.client.createMatch({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] });
      await ann.client.setClientSeed(m.id);
      await bob.client.joinMatch(m.id); // with a client seed of its own
      await ann.client.getMatch(m.id); // the seq bob's seat moved it to
      expect((await ann.client.startMatch(m.id)).status).toBe('playing');
      expect((await bob.client.resign(m.id)).status).toBe('over');
      return m.id;
    };

    const first = await finished();
    await expect(ann.client.rematchOffer(first)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const asked = await ann.client.rematch(first);
    expect(asked).toMatchObject({ matchId: first, status: 'open', asked: [ann.username], newMatchId: null });
    expect(await bob.client.rematchOffer(first)).toMatchObject({ status: 'open', asked: [ann.username] });
    expect(await bob.client.declineRematch(first)).toMatchObject({ status: 'declined', declinedBy: bob.username, newMatchId: null });
    // asking again after the decline opens a new offer
    expect(await ann.client.rematch(first)).toMatchObject({ status: 'open', asked: [ann.username], declinedBy: null });

    const second = await finished();
    await bob.client.rematch(second);
    const made = await ann.client.rematch(second);
    expect(made).toMatchObject({ status: 'accepted', newMatchId: expect.any(String) });
    const rematch = await ann.client.getMatch(made.newMatchId!);
    expect(rematch.rematchOf).toBe(second);
  });

  it('finds opponents: challenge, myChallenges, decline, cancel, accept, and createSeek pairing two players', async () => {
    const a = await newPlayer();
    const b = await newPlayer();
    const lower = (n: string) => n.toLowerCase();
    // declined with a reason
    const first = await a.client.challenge({ username: b.username, preset: 'scopa' });
    expect(first).toMatchObject({ status: 'pending', challenger: lower(a.username), destUser: lower(b.username) });
    expect((await b.client.myChallenges()).in.map((c) => c.id)).toEqual([first.id]);
    expect((await a.client.myChallenges()).out.map((c) => c.id)).toEqual([first.id]);
    expect(await b.client.declineChallenge(first.id, 'later')).toMatchObject({ status: 'declined', declineReason: 'later' });
    // canceled by the challenger; an answer afterwards is a typed conflict
    const second = await a.client.challenge({ username: b.username, preset: 'scopa', seat: 1 });
    expect((await a.client.cancelChallenge(second.id)).status).toBe('canceled');
    await expect(b.client.acceptChallenge(second.id)).rejects.toMatchObject({ name: 'ScopaError', code: 'CONFLICT', status: 409 });
    // accepted: the match is made and started, the challenger in the seat asked for
    const third = await a.client.challenge({ username: b.username, preset: 'scopa', seat: 1 });
    const accepted = await b.client.acceptChallenge(third.id);
    expect(accepted.status).toBe('accepted');
    const match = await a.client.getMatch(accepted.matchId!);
    expect(match.status).toBe('playing');
    expect(match.view.seats.map((x) => x.player && lower(x.player))).toEqual([lower(b.username), lower(a.username)]);
    // two compatible seeks pair into one match
    const seekA = await a.client.createSeek({ preset: 'scopa-simple', turnTimeLimit: 'P5D' });
    expect(seekA).toMatchObject({ status: 'open', matchId: null });
    expect((await a.client.createSeek({ preset: 'scopa-simple', turnTimeLimit: 'P5D' })).id).toBe(seekA.id); // identical: the same seek
    const seekB = await b.client.createSeek({ preset: 'scopa-simple', turnTimeLimit: 'P5D' });
    expect(seekB.status).toBe('paired');
    const paired = await a.client.getMatch(seekB.matchId!);
    expect(paired.view.seats.map((x) => x.player && lower(x.player)).sort()).toEqual([lower(a.username), lower(b.username)].sort());
  });
});
