/**
 * Lobby and seeks on PGlite (docs/lobby.md "The lobby", "Seeks"): players find each
 * other through seeks only, private matches stay out of the lobby, the lobby
 * pages and its subscription, seek limits, identical seeks, expiry, rating
 * ranges and validation errors.
 */
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { PrismaService } from '../src/database/prisma.service';
import { MatchArchive } from '../src/match-store/match-archive';
import { MatchStore, seatEntropy } from '../src/match-store/match-store';
import { seatOrder } from '../src/lobby/seek-pairing';
import { playerChannel } from '../src/realtime/channels';
import { SeeksService } from '../src/lobby/seeks.service';
import { PUB_SUB } from '../src/realtime/realtime.module';
import type { PubSubEngine } from '../src/realtime/realtime.module';
import { createTestApp, listenOnLoopback } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';

const SEEK_FIELDS = 'id preset players teams rated ratingRange rating correspondence status matchId seat turnTimeLimit';

describe('lobby and seeks (e2e)', () => {
  let app: INestApplication;
  let wsUrl: string;
  const clients: Client[] = [];
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  beforeAll(async () => {
    app = await createTestApp({ SEEKS_PER_ACCOUNT: '3', SEEK_SWEEP_MS: '0', SEEK_IDLE_EXPIRY: '1', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '0' });
    wsUrl = (await listenOnLoopback(app)).ws;
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await app?.close();
  });

  function wsClient(a: Account): Client {
    const c = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: auth(a) }, retryAttempts: 0 });
    clients.push(c);
    return c;
  }

  const seekRest = (a: Account, body: Record<string, unknown>) => http().post('/v1/seeks').set('authorization', auth(a)).send(body);
  const mySeeks = async (a: Account) => {
    const res = await http().get('/v1/seeks').set('authorization', auth(a));
    expect(res.status).toBe(200);
    return res.body as any[];
  };
  const lobbyPage = async (a: Account, query: Record<string, string | number | boolean> = {}) => {
    const res = await http().get('/v1/lobby').query(query).set('authorization', auth(a));
    expect(res.status).toBe(200);
    return res.body as { matches: any[]; next: string | null };
  };

  it('two accounts find each other through seeks only (REST and GraphQL), and the match starts with its notices', async () => {
    const alice = await register(app, 'sal');
    const bob = await register(app, 'sbo');
    // alice wants to hear of it: her event channel and a match_started webhook
    const pubsub = app.get<PubSubEngine>(PUB_SUB);
    const events = pubsub.asyncIterableIterator<any>(playerChannel(alice.username));
    const paired = events.next();
    const hook = await http()
      .post('/v1/webhooks')
      .set('authorization', auth(alice))
      .send({ url: 'http://127.0.0.1:9/hook', events: ['match_started'] });
    expect(hook.status).toBe(201);

    const a = await seekRest(alice, { preset: 'scopa-simple', turnTimeLimit: 'PT2H' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ status: 'open', matchId: null, players: 2, correspondence: false });

    const b = await gqlOk(app, bob.token, `mutation($i: CreateSeekInput!) { createSeek(input: $i) { ${SEEK_FIELDS} } }`, {
      i: { preset: 'scopa-simple', turnTimeLimit: 'PT2H' },
    });
    expect(b.createSeek.status).toBe('paired');
    const matchId = b.createSeek.matchId as string;
    expect(matchId).toMatch(/^[0-9a-f-]{36}$/);

    // alice learns of it without any id exchanged: her seeks, her event channel, her webhook, her matches
    const [aliceSeek] = (await mySeeks(alice)).filter((s) => s.id === a.body.id);
    expect(aliceSeek).toMatchObject({ status: 'paired', matchId });
    expect(new Set([aliceSeek.seat, b.createSeek.seat])).toEqual(new Set([0, 1]));
    const event = (await paired).value;
    expect(event).toMatchObject({ type: 'seekPaired', seekId: a.body.id, matchId, seat: aliceSeek.seat });
    await events.return?.();

    const match = await http().get(`/v1/matches/${matchId}`).set('authorization', auth(alice));
    expect(match.status).toBe(200);
    expect(match.body.status).toBe('playing');
    expect(match.body.view.seats.map((s: any) => s.player).sort()).toEqual([alice.username, bob.username].sort());
    expect(match.body.view.seats[aliceSeek.seat].player).toBe(alice.username);
    expect(match.body.view.settings.turnTimeLimit).toBe('PT2H');

    // the player to move has it in the inbox (the after-append pipeline ran as for any match)
    const mover = match.body.view.turn === aliceSeek.seat ? alice : bob;
    const inbox = await http().get('/v1/inbox').set('authorization', auth(mover));
    expect(inbox.body.map((e: any) => e.matchId)).toContain(matchId);

    const deliveries = await http().get('/v1/webhooks/deliveries').set('authorization', auth(alice));
    const started = deliveries.body.filter((d: any) => d.event === 'match_started');
    expect(started).toHaveLength(1);
    expect(started[0].payload).toMatchObject({ matchId, seat: aliceSeek.seat, player: alice.username, seekId: a.body.id });

    // once over, the log audits sound with its rules, and the seats follow from the revealed seed's entropy
    expect((await http().post(`/v1/matches/${matchId}/resign`).set('authorization', auth(bob)).send({})).status).toBe(200);
    const audit = await http().get(`/v1/matches/${matchId}/audit`).set('authorization', auth(alice));
    expect(audit.body).toMatchObject({ sound: true, checked: 'chain+rules' });
    expect(await app.get(MatchArchive).verify(matchId)).toMatchObject({ sound: true });
    const over = await http().get(`/v1/matches/${matchId}`).set('authorization', auth(alice));
    const order = seatOrder(2, seatEntropy(Uint8Array.from(Buffer.from(over.body.reveal.seed, 'hex'))));
    // the group is the seeks oldest first: alice's, then bob's
    expect(over.body.view.seats.map((s: any) => s.player)).toEqual(order.map((k) => [alice.username, bob.username][k]));
  });

  it('four accounts pair into one scopone match, one seat each', async () => {
    const players = await Promise.all([0, 1, 2, 3].map(() => register(app, 'sfo')));
    const seeks: any[] = [];
    for (const p of players) {
      const res = await seekRest(p, { preset: 'scopone' });
      expect([200, 201]).toContain(res.status);
      seeks.push(res.body);
    }
    expect(seeks.slice(0, 3).every((s) => s.status === 'open')).toBe(true);
    expect(seeks[3]).toMatchObject({ status: 'paired', players: 4, teams: true });
    const mine = await Promise.all(players.map(async (p) => (await mySeeks(p))[0]));
    const matchId = seeks[3].matchId;
    expect(mine.every((s) => s.status === 'paired' && s.matchId === matchId)).toBe(true);
    expect(mine.map((s) => s.seat).sort()).toEqual([0, 1, 2, 3]);
    const match = await http().get(`/v1/matches/${matchId}`).set('authorization', auth(players[0]));
    expect(match.body.status).toBe('playing');
    mine.forEach((s, i) => expect(match.body.view.seats[s.seat].player).toBe(players[i].username));
  });

  it('seeks of a saved ruleset lock its version and pair into a match of exactly it, rated in its pool', async () => {
    const owner = await register(app, 'rso');
    const other = await register(app, 'rsx');
    const saved = await http()
      .post('/v1/custom-rulesets')
      .set('authorization', auth(owner))
      .send({ name: 'three of us', preset: 'scopa', overrides: { players: 3, target: 5 } });
    expect(saved.status).toBe(201);
    const rulesetId = saved.body.id as string;
    const third = await register(app, 'rst');
    const s1 = await seekRest(owner, { rulesetId, rated: true });
    expect(s1.status).toBe(201);
    expect(s1.body).toMatchObject({ rulesetId, players: 3, rated: true, status: 'open' });
    expect((await http().get(`/v1/custom-rulesets/${rulesetId}`).set('authorization', auth(owner))).body.locked).toBe(true);
    // overrides on top of a saved ruleset, or another player count, are refused
    expect((await seekRest(other, { rulesetId, overrides: { target: 7 } })).body.code).toBe('VALIDATION_FAILED');
    expect((await seekRest(other, { rulesetId, players: 2 })).body.code).toBe('VALIDATION_FAILED');
    // the same ruleset's preset with the same overrides is another bucket (another pool): no pairing with it
    expect((await seekRest(other, { preset: 'scopa', overrides: { players: 3, target: 5 } })).body.status).toBe('open');
    expect((await seekRest(other, { rulesetId, rated: true })).body.status).toBe('open');
    const last = (await seekRest(third, { rulesetId, rated: true })).body;
    expect(last.status).toBe('paired');
    const match = await http().get(`/v1/matches/${last.matchId}`).set('authorization', auth(third));
    expect(match.body).toMatchObject({ status: 'playing', rulesetId });
    expect(match.body.view.seats).toHaveLength(3);
    expect(match.body.view.settings.rated).toBe(true);
    expect(match.body.view.options).toMatchObject({ players: 3, target: 5 });
  });

  it('private matches are never listed but can be joined by id; public ones are listed to those who may sit', async () => {
    const owner = await register(app, 'lpo');
    const other = await register(app, 'lpx');
    const create = async (body: Record<string, unknown>) => {
      const res = await http().post('/v1/matches').set('authorization', auth(owner)).send(body);
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const priv = await create({ preset: 're-bello', seats: [{ type: 'creator' }, { type: 'open' }], visibility: 'private' });
    const pub = await create({ preset: 're-bello', seats: [{ type: 'creator' }, { type: 'open' }] });
    const reservedElsewhere = await create({ preset: 're-bello', seats: [{ type: 'creator' }, { type: 'reserved', username: other.username }] });
    const ids = (await lobbyPage(other, { preset: 're-bello' })).matches.map((m) => m.id);
    expect(ids).toContain(pub);
    expect(ids).toContain(reservedElsewhere); // reserved for this caller
    expect(ids).not.toContain(priv);
    // another instance, which never saw them, learns each one's visibility with its log (the lobby and tournament steps skip on it)
    const elsewhere = new MatchStore(app.get(PrismaService));
    await elsewhere.current(priv);
    await elsewhere.current(pub);
    expect([elsewhere.peek(priv)?.visibility, elsewhere.peek(pub)?.visibility]).toEqual(['private', 'public']);
    const entry = (await lobbyPage(other, { preset: 're-bello' })).matches.find((m) => m.id === pub);
    expect(entry).toMatchObject({ preset: 're-bello', players: 2, createdBy: owner.username, rated: false, turnTimeLimit: null });
    expect(entry.seats.map((s: any) => s.state)).toEqual(['taken', 'open']);
    // the creator sits in all of them: none is listed to her; a third account cannot take the reserved one
    expect((await lobbyPage(owner, { preset: 're-bello' })).matches.map((m) => m.id)).toEqual([]);
    const third = await register(app, 'lpt');
    expect((await lobbyPage(third, { preset: 're-bello' })).matches.map((m) => m.id)).toEqual([pub]);
    // GraphQL, the same
    const g = await gqlOk(app, third.token, `{ lobby(preset: "re-bello") { matches { id seats { seat state player } } next } }`);
    expect(g.lobby.matches.map((m: any) => m.id)).toEqual([pub]);
    // the private one is joinable by id
    const joined = await http().post(`/v1/matches/${priv}/join`).set('authorization', auth(other)).send({});
    expect(joined.status).toBe(200);
    // a full match leaves the lobby
    expect((await http().post(`/v1/matches/${pub}/join`).set('authorization', auth(third)).send({})).status).toBe(200);
    expect((await lobbyPage(other, { preset: 're-bello' })).matches.map((m) => m.id)).toEqual([reservedElsewhere]);
  });

  it('a bot seat shows its level, the same wire value over REST and GraphQL (BotLevel)', async () => {
    const owner = await register(app, 'lbo');
    const other = await register(app, 'lbx');
    const created = await http()
      .post('/v1/matches')
      .set('authorization', auth(owner))
      .send({ preset: 'scopa', overrides: { players: 3 }, seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }, { type: 'open' }] });
    expect(created.status).toBe(201);
    const entry = (await lobbyPage(other, { preset: 'scopa', limit: 100 })).matches.find((m) => m.id === created.body.id);
    expect(entry.seats.map((s: any) => [s.state, s.bot])).toEqual([
      ['taken', null],
      ['bot', 'greedy'],
      ['open', null],
    ]);
    const g = await gqlOk(app, other.token, `{ lobby(preset: "scopa", limit: 100) { matches { id seats { state bot } } } }`);
    expect(g.lobby.matches.find((m: any) => m.id === created.body.id).seats).toEqual([
      { state: 'taken', bot: null },
      { state: 'bot', bot: 'greedy' },
      { state: 'open', bot: null },
    ]);
  });

  it('pages the lobby newest first with a cursor, and filters by rated and clock', async () => {
    const owner = await register(app, 'pgo');
    const viewer = await register(app, 'pgv');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await http()
        .post('/v1/matches')
        .set('authorization', auth(owner))
        .send({ preset: 'scopa-d-assi', seats: [{ type: 'creator' }, { type: 'open' }], turnTimeLimit: i % 2 ? 'P2D' : null, rated: i === 4 });
      expect(res.status).toBe(201);
      made.push(res.body.id);
    }
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const page = await lobbyPage(viewer, { preset: 'scopa-d-assi', limit: 2, ...(after ? { after } : {}) });
      expect(page.matches.length).toBeLessThanOrEqual(2);
      seen.push(...page.matches.map((m) => m.id));
      after = page.next;
      if (!after) break;
    }
    expect(seen).toEqual([...made].reverse());
    expect((await lobbyPage(viewer, { preset: 'scopa-d-assi', clock: 'correspondence' })).matches.map((m) => m.id)).toEqual([made[3], made[1]]);
    expect((await lobbyPage(viewer, { preset: 'scopa-d-assi', clock: 'untimed' })).matches.map((m) => m.id)).toEqual([made[4], made[2], made[0]]);
    expect((await lobbyPage(viewer, { preset: 'scopa-d-assi', rated: true })).matches.map((m) => m.id)).toEqual([made[4]]);
    // bad arguments: 400, typed
    // An unknown preset is refused as the other bad filters are, not answered with an empty list.
    for (const q of [
      { limit: 0 },
      { limit: 101 },
      { after: 'not-a-cursor' },
      { clock: 'blitz' },
      { rated: 'maybe' },
      { preset: 'no-such-preset' },
      { preset: 'toString' },
    ]) {
      const res = await http().get('/v1/lobby').query(q).set('authorization', auth(viewer));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect(errorCode(await gql(app, viewer.token, `{ lobby(after: "nope") { next } }`))).toBe('VALIDATION_FAILED');
    expect(errorCode(await gql(app, viewer.token, `{ lobby(preset: "no-such-preset") { next } }`))).toBe('VALIDATION_FAILED');
    expect((await http().get('/v1/lobby')).status).toBe(401);
  });

  it('the lobby subscription sends additions, updates and removals I may see', async () => {
    const watcher = await register(app, 'lsw');
    const owner = await register(app, 'lso');
    const joiner = await register(app, 'lsj');
    const c = wsClient(watcher);
    const got: any[] = [];
    let notify: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => {
      c.on('connected', () => setTimeout(resolve, 200));
    });
    c.subscribe(
      { query: 'subscription { lobby(preset: "scopa-quindici") { type matchId match { id seats { state } } } }' },
      {
        next: (msg) => {
          got.push((msg.data as any).lobby);
          notify();
        },
        error: (e) => got.push({ error: e }),
        complete: () => undefined,
      },
    );
    await ready;
    const waitFor = async (n: number) => {
      const deadline = Date.now() + 10_000;
      while (got.length < n && Date.now() < deadline)
        await new Promise<void>((r) => {
          notify = r;
          setTimeout(r, 200);
        });
      return got.slice();
    };
    const mk = async (body: Record<string, unknown>) => (await http().post('/v1/matches').set('authorization', auth(owner)).send(body)).body.id as string;
    await mk({ preset: 'scopa-quindici', seats: [{ type: 'creator' }, { type: 'open' }], visibility: 'private' });
    await mk({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] }); // another preset: filtered out
    const three = await mk({ preset: 'scopa-quindici', overrides: { players: 3 }, seats: [{ type: 'creator' }, { type: 'open' }, { type: 'open' }] });
    expect((await waitFor(1))[0]).toMatchObject({ type: 'added', matchId: three });
    await http().post(`/v1/matches/${three}/join`).set('authorization', auth(joiner)).send({});
    expect((await waitFor(2))[1]).toMatchObject({
      type: 'updated',
      matchId: three,
      match: { seats: [{ state: 'taken' }, { state: 'taken' }, { state: 'open' }] },
    });
    await http().post(`/v1/matches/${three}/join`).set('authorization', auth(watcher)).send({});
    expect((await waitFor(3))[2]).toEqual({ type: 'removed', matchId: three, match: null });
    expect(got).toHaveLength(3); // the private match and the other preset never came
  });

  it('limits open seeks per account, returns an identical seek, cancels', async () => {
    const p = await register(app, 'slm');
    const first = await seekRest(p, { preset: 'scopa-fr', turnTimeLimit: 'P1D' });
    expect(first.status).toBe(201);
    expect(first.body.correspondence).toBe(true);
    const again = await seekRest(p, { preset: 'scopa-fr', turnTimeLimit: 'P1D' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const viaGql = await gqlOk(app, p.token, `mutation { createSeek(input: {preset: "scopa-fr", turnTimeLimit: "P1D"}) { id } }`);
    expect(viaGql.createSeek.id).toBe(first.body.id);
    expect((await seekRest(p, { preset: 'scopa-fr', turnTimeLimit: 'P2D' })).status).toBe(201);
    expect((await seekRest(p, { preset: 'scopa-fr', turnTimeLimit: 'P3D' })).status).toBe(201);
    const over = await seekRest(p, { preset: 'scopa-fr', turnTimeLimit: 'P4D' });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'LIMIT_REACHED', limit: 3, live: 3 });
    // cancelling frees a place; cancelling twice is fine; someone else's seek is not found
    const stranger = await register(app, 'slx');
    expect((await http().delete(`/v1/seeks/${first.body.id}`).set('authorization', auth(stranger))).status).toBe(404);
    expect((await http().delete(`/v1/seeks/${first.body.id}`).set('authorization', auth(p))).status).toBe(204);
    expect((await http().delete(`/v1/seeks/${first.body.id}`).set('authorization', auth(p))).status).toBe(204);
    expect((await http().delete('/v1/seeks/not-a-uuid').set('authorization', auth(p))).status).toBe(404);
    const canceled = (await mySeeks(p)).find((s) => s.id === first.body.id);
    expect(canceled.status).toBe('canceled');
    expect((await seekRest(p, { preset: 'scopa-fr', turnTimeLimit: 'P4D' })).status).toBe(201);
    const g = await gqlOk(app, p.token, `{ mySeeks { id status } }`);
    expect(g.mySeeks.filter((s: any) => s.status === 'open')).toHaveLength(3);
    // a paired seek cannot be cancelled
    const q = await register(app, 'slq');
    const r = await register(app, 'slr');
    const qs = await seekRest(q, { preset: 'scopa-fr', turnTimeLimit: 'PT30M' });
    await seekRest(r, { preset: 'scopa-fr', turnTimeLimit: 'PT30M' });
    const res = await http().delete(`/v1/seeks/${qs.body.id}`).set('authorization', auth(q));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    expect(res.body.matchId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('live seeks expire when their owner has no connection; correspondence seeks and connected owners stay', async () => {
    const gone = await register(app, 'sxg');
    const here = await register(app, 'sxh');
    const corr = await register(app, 'sxc');
    const live = (await seekRest(gone, { preset: 'scopa-initiation', turnTimeLimit: 'PT5M' })).body;
    const kept = (await seekRest(corr, { preset: 'scopa-initiation', turnTimeLimit: 'P7D' })).body;
    // `here` holds a graphql-ws connection
    const c = wsClient(here);
    await new Promise<void>((resolve) => {
      c.on('connected', () => resolve());
      c.subscribe({ query: 'subscription { myTurn { matchId } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
    });
    const connected = (await seekRest(here, { preset: 'scopa-initiation', turnTimeLimit: 'PT5M', overrides: { target: 7 } })).body;
    await new Promise((r) => setTimeout(r, 1200)); // SEEK_IDLE_EXPIRY=1
    await app.get(SeeksService).sweep();
    expect((await mySeeks(gone)).find((s) => s.id === live.id).status).toBe('expired');
    expect((await mySeeks(corr)).find((s) => s.id === kept.id).status).toBe('open');
    expect((await mySeeks(here)).find((s) => s.id === connected.id).status).toBe('open');
  });

  it('a user who logs out everywhere loses their live seeks at once; correspondence seeks, and a user still signed in elsewhere, keep theirs', async () => {
    const out = await register(app, 'sxo');
    const other = await register(app, 'sxs');
    const login = async (a: Account) => {
      const r = await http()
        .post('/v1/auth/login')
        .send({ username: a.username, password: 'password-of-' + a.username });
      expect(r.status).toBe(200);
      return r.body.accessToken as string;
    };
    const reader = async (a: Account) => {
      const r = await http()
        .post('/v1/tokens')
        .set('authorization', auth(a))
        .send({ name: 'reader', scopes: ['read'] });
      expect(r.status).toBe(201);
      return r.body.token as string;
    };
    const statusOf = async (pat: string, id: string) =>
      ((await http().get('/v1/seeks').set('authorization', `Bearer ${pat}`)).body as { id: string; status: string }[]).find((x) => x.id === id)?.status;
    await login(out); // a second session: logout-all ends both
    const liveOut = (await seekRest(out, { preset: 'scopa-initiation', turnTimeLimit: 'PT5M', overrides: { target: 9 } })).body;
    const corrOut = (await seekRest(out, { preset: 'scopa-initiation', turnTimeLimit: 'P7D', overrides: { target: 9 } })).body;
    const patOut = await reader(out);
    const secondOther = await login(other);
    const liveOther = (await seekRest(other, { preset: 'scopa-initiation', turnTimeLimit: 'PT5M', overrides: { target: 8 } })).body;
    const patOther = await reader(other);

    expect((await http().post('/v1/auth/logout-all').set('authorization', auth(out))).status).toBe(204);
    expect((await http().post('/v1/auth/logout').set('authorization', `Bearer ${secondOther}`)).status).toBe(204);
    const deadline = Date.now() + 3000;
    while ((await statusOf(patOut, liveOut.id)) === 'open' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await statusOf(patOut, liveOut.id)).toBe('canceled');
    expect(await statusOf(patOut, corrOut.id)).toBe('open');
    // `other` is still signed in with its first session: its live seek stays.
    expect(await statusOf(patOther, liveOther.id)).toBe('open');
  });

  it("pairs rated seeks only inside each other's rating range, oldest compatible first", async () => {
    const picky = await register(app, 'rpk'); // 1500, wants 1600-1700: nobody here
    const b = await register(app, 'rpb');
    const c = await register(app, 'rpc');
    const p = (await seekRest(picky, { preset: 'scopa-fr', rated: true, ratingRange: '1600-1700' })).body;
    expect(p).toMatchObject({ status: 'open', rated: true, rating: 1500, ratingRange: '1600-1700' });
    const sb = (await seekRest(b, { preset: 'scopa-fr', rated: true })).body;
    expect(sb.status).toBe('open');
    const sc = (await seekRest(c, { preset: 'scopa-fr', rated: true, ratingRange: '1400-1600' })).body;
    expect(sc.status).toBe('paired');
    expect((await mySeeks(b)).find((s) => s.id === sb.id)).toMatchObject({ status: 'paired', matchId: sc.matchId });
    expect((await mySeeks(picky)).find((s) => s.id === p.id).status).toBe('open');
    const match = await http().get(`/v1/matches/${sc.matchId}`).set('authorization', auth(b));
    expect(match.body.view.settings.rated).toBe(true);
  });

  it('refuses bad seeks with typed 4xx errors and creates nothing', async () => {
    const p = await register(app, 'sbd');
    const bad: [Record<string, unknown>, number, string][] = [
      [{}, 400, 'VALIDATION_FAILED'],
      [{ preset: 'nope' }, 400, 'INVALID_RULESET'],
      [{ preset: 'scopa', overrides: { target: 'x' } }, 400, 'INVALID_RULESET'],
      [{ preset: 'scopa', players: 6 }, 400, 'INVALID_RULESET'],
      [{ preset: 'scopa', rated: true, overrides: { target: 5 } }, 400, 'VALIDATION_FAILED'],
      [{ preset: 'scopa', rated: true, players: 3 }, 400, 'VALIDATION_FAILED'],
      [{ preset: 'scopa', rated: true, ratingRange: '1700-1600' }, 400, 'VALIDATION_FAILED'],
      [{ preset: 'scopa', rated: true, ratingRange: 'high' }, 400, 'VALIDATION_FAILED'],
      [{ preset: 'scopa', ratingRange: '1400-1600' }, 400, 'VALIDATION_FAILED'],
      [{ preset: 'scopa', turnTimeLimit: 'PT1S' }, 400, 'INVALID_COMMAND'],
      [{ preset: 'scopa', onExpiry: 'never' }, 400, 'VALIDATION_FAILED'],
      [{ preset: 'scopa', unknownField: 1 }, 400, 'VALIDATION_FAILED'],
      [{ rulesetId: '00000000-0000-4000-8000-000000000000' }, 404, 'NOT_FOUND'],
    ];
    for (const [body, status, code] of bad) {
      const res = await seekRest(p, body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), status, code]);
    }
    expect(errorCode(await gql(app, p.token, `mutation { createSeek(input: {preset: "scopa", players: 9}) { id } }`))).toBe('VALIDATION_FAILED');
    expect(await mySeeks(p)).toEqual([]);
    // visibility is checked too
    const res = await http().post('/v1/matches').set('authorization', auth(p)).send({ preset: 'scopa', visibility: 'hidden' });
    expect(res.status).toBe(400);
  });
});

describe('seek pairing with a client-seed window (e2e)', () => {
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  beforeAll(async () => {
    app = await createTestApp({ CLIENT_SEED_WINDOW: '30', SEEK_SWEEP_MS: '0' });
  });
  afterAll(async () => {
    await app?.close();
    process.env.CLIENT_SEED_WINDOW = '0';
  });

  it('a paired match waits for the players\u2019 client seeds, and the last seed deals it', async () => {
    const a = await register(app, 'cwa');
    const b = await register(app, 'cwb');
    const sa = (await http().post('/v1/seeks').set('authorization', auth(a)).send({ preset: 'scopa' })).body;
    const sb = (await http().post('/v1/seeks').set('authorization', auth(b)).send({ preset: 'scopa' })).body;
    expect(sb.status).toBe('paired');
    const matchId = sb.matchId as string;
    const waiting = await http().get(`/v1/matches/${matchId}`).set('authorization', auth(a));
    expect(waiting.body.status).toBe('open');
    expect(Date.parse(waiting.body.startsAt) - Date.now()).toBeGreaterThan(20_000);
    expect(sa.id).not.toBe(sb.id);
    const seedA = await http()
      .post(`/v1/matches/${matchId}/client-seed`)
      .set('authorization', auth(a))
      .send({ clientSeed: 'ab'.repeat(32) });
    expect(seedA.status).toBe(200);
    expect(seedA.body.status).toBe('open');
    const seedB = await http()
      .post(`/v1/matches/${matchId}/client-seed`)
      .set('authorization', auth(b))
      .send({ clientSeed: 'cd'.repeat(32) });
    expect(seedB.status).toBe(200);
    expect(seedB.body.status).toBe('playing');
    expect(seedB.body.view.clientSeeds.filter((s: string | null) => s !== null)).toHaveLength(2);
  });
});
