/**
 * A credential's end is the end of everything opened with it: a revoked API
 * token, a logged-out session and an expired JWT stop working on HTTP and
 * close their graphql-ws sockets (4403), subscriptions included.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import WebSocket from 'ws';
import { createTestApp, listenOnLoopback } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';
import { graphqlTransport } from './support/play';

jest.setTimeout(120_000);

const LIVE = `subscription($id: ID!, $from: Int) { matchEventsLive(matchId: $id, fromSeq: $from) { event { seq type } match { view { hand } } } }`;

interface Socket {
  client: Client;
  connected: Promise<void>;
  closed: Promise<{ code: number; at: number }>;
}

describe('credential lifetime: revocation, logout and expiry end HTTP access and open sockets (e2e)', () => {
  let app: INestApplication;
  let url: string;
  const clients: Client[] = [];
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    app = await createTestApp();
    url = (await listenOnLoopback(app)).ws;
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await app?.close();
  });

  /** How the socket closed; code 0 if it is still open 5 s later (a hang would otherwise end at the test's timeout). */
  const closeOf = (s: { closed: Promise<{ code: number; at: number }> }) =>
    Promise.race([s.closed, new Promise<{ code: number; at: number }>((r) => setTimeout(() => r({ code: 0, at: Number.NaN }), 5000).unref())]);

  function open(token: string): Socket {
    let connected!: () => void;
    let closed!: (e: { code: number; at: number }) => void;
    const socket = {
      connected: new Promise<void>((r) => (connected = r)),
      closed: new Promise<{ code: number; at: number }>((r) => (closed = r)),
    } as Socket;
    socket.client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => undefined, // the closes are what the tests wait for
      on: { connected: () => connected(), closed: (e) => closed({ code: (e as { code: number }).code, at: Date.now() }) },
    });
    clients.push(socket.client);
    return socket;
  }

  /** One query or mutation over the socket: its result, or its errors. */
  const run = (c: Client, query: string): Promise<{ data?: any; errors?: any }> =>
    new Promise((resolve) => {
      let result = {};
      c.subscribe({ query }, { next: (m) => (result = m), error: (e) => resolve({ errors: e }), complete: () => resolve(result) });
    });

  /** A live subscription to a match: the events it delivered, and whether it has ended. */
  function follow(c: Client, matchId: string) {
    const seen: { seq: number; hand: string[] }[] = [];
    let ended = false;
    let first!: () => void;
    const started = new Promise<void>((r) => (first = r));
    c.subscribe(
      { query: LIVE, variables: { id: matchId, from: 1 } },
      {
        next: (m) => {
          const item = (m.data as any).matchEventsLive;
          seen.push({ seq: item.event.seq, hand: item.match.view.hand });
          first();
        },
        error: () => (ended = true),
        complete: () => (ended = true),
      },
    );
    return { seen, started, ended: () => ended };
  }

  async function startedMatch(alice: Account, bob: Account) {
    const t = graphqlTransport(app, () => undefined);
    const created = await t.create(alice, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
    await t.join(bob, created.id);
    const started = await t.start(alice, created.id);
    return { t, id: created.id as string, started };
  }

  async function playOnce(m: Awaited<ReturnType<typeof startedMatch>>, players: Account[]) {
    const mover = players[m.started.view.turn];
    const legal = await m.t.legal(mover, m.id);
    const p = legal.plays[0];
    return m.t.play(mover, m.id, p.card, p.capture, legal.seq, `k-${Math.random()}`);
  }

  const login = async (who: Account): Promise<string> => {
    const res = await http()
      .post('/v1/auth/login')
      .send({ username: who.username, password: 'password-of-' + who.username });
    expect(res.status).toBe(200);
    return res.body.accessToken;
  };

  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("a revoked API token's socket is closed with 4403 within a second and its subscription stops; the owner's other sockets stay", async () => {
    const alice = await register(app, 'patsock');
    const bob = await register(app, 'patbob');
    const created = await http()
      .post('/v1/tokens')
      .set('authorization', `Bearer ${alice.token}`)
      .send({ name: 'watcher', scopes: ['read'] });
    expect(created.status).toBe(201);
    const m = await startedMatch(alice, bob);

    const viaToken = open(created.body.token);
    const viaSession = open(alice.token);
    await Promise.all([viaToken.connected, viaSession.connected]);
    const tokenFeed = follow(viaToken.client, m.id);
    const sessionFeed = follow(viaSession.client, m.id);
    await Promise.all([tokenFeed.started, sessionFeed.started]);
    expect(tokenFeed.seen.some((s) => s.hand.length > 0)).toBe(true); // the seat's hand: what must stop

    const revokedAt = Date.now();
    const revoke = await http().delete(`/v1/tokens/${created.body.apiToken.id}`).set('authorization', `Bearer ${alice.token}`);
    expect(revoke.status).toBe(200);
    const closed = await closeOf(viaToken);
    expect(closed.code).toBe(4403);
    expect(closed.at - revokedAt).toBeLessThan(1000);

    const before = tokenFeed.seen.length;
    const played = await playOnce(m, [alice, bob]);
    const sessionGot = async () => {
      for (let i = 0; i < 50 && !sessionFeed.seen.some((s) => s.seq === played.seq); i++) await wait(20);
    };
    await sessionGot();
    expect(sessionFeed.seen.some((s) => s.seq === played.seq)).toBe(true);
    expect(tokenFeed.seen.length).toBe(before);
    expect(tokenFeed.ended()).toBe(true);
    expect(sessionFeed.ended()).toBe(false);
  });

  it("a JWT socket closes at the token's exp", async () => {
    const carol = await register(app, 'expsock');
    const claims = jwt.decode(carol.token) as Record<string, unknown>;
    const exp = Math.floor(Date.now() / 1000) + 2;
    const short = jwt.sign({ sub: claims.sub, usr: claims.usr, sid: claims.sid, exp }, process.env.JWT_SECRET!, { issuer: 'scopa-service' });
    const socket = open(short);
    await socket.connected;
    expect((await run(socket.client, '{ me { username } }')).data).toEqual({ me: { username: carol.username } });
    const closed = await closeOf(socket);
    expect(closed.code).toBe(4403);
    expect(closed.at).toBeGreaterThanOrEqual(exp * 1000 - 20);
    expect(closed.at).toBeLessThan(exp * 1000 + 1000);
  });

  it('a JWT without exp is refused on HTTP and over graphql-ws', async () => {
    const dave = await register(app, 'noexp');
    const claims = jwt.decode(dave.token) as Record<string, unknown>;
    const sign = (extra: Record<string, unknown>) =>
      jwt.sign({ sub: claims.sub, usr: claims.usr, sid: claims.sid, ...extra }, process.env.JWT_SECRET!, { issuer: 'scopa-service' });
    // The same claims with an exp pass: only the missing exp is refused.
    const withExp = sign({ exp: Math.floor(Date.now() / 1000) + 600 });
    expect((await http().get('/v1/me').set('authorization', `Bearer ${withExp}`)).status).toBe(200);

    const forever = sign({});
    expect((jwt.decode(forever) as Record<string, unknown>).exp).toBeUndefined();
    const res = await http().get('/v1/me').set('authorization', `Bearer ${forever}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
    expect(errorCode(await gql(app, forever, '{ me { id } }'))).toBe('UNAUTHENTICATED');
    expect((await closeOf(open(forever))).code).toBe(4403);
  });

  it('logout ends that session on HTTP and closes its sockets; the other sessions go on until they log out too', async () => {
    const erin = await register(app, 'logout');
    const second = await login(erin);
    const socket = open(erin.token);
    const other = open(second);
    await Promise.all([socket.connected, other.connected]);

    const loggedOutAt = Date.now();
    const out = await http().post('/v1/auth/logout').set('authorization', `Bearer ${erin.token}`);
    expect(out.status).toBe(204);
    const closed = await closeOf(socket);
    expect(closed.code).toBe(4403);
    expect(closed.at - loggedOutAt).toBeLessThan(1000);
    const me = await http().get('/v1/me').set('authorization', `Bearer ${erin.token}`);
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('UNAUTHENTICATED');
    expect(errorCode(await gql(app, erin.token, '{ me { id } }'))).toBe('UNAUTHENTICATED');
    expect((await closeOf(open(erin.token))).code).toBe(4403);

    // the second session is untouched, until its own logout (over GraphQL)
    expect((await run(other.client, '{ me { username } }')).data).toEqual({ me: { username: erin.username } });
    expect((await http().get('/v1/me').set('authorization', `Bearer ${second}`)).status).toBe(200);
    expect(await gqlOk(app, second, 'mutation { logout }')).toEqual({ logout: true });
    expect((await closeOf(other)).code).toBe(4403);
    expect((await http().get('/v1/me').set('authorization', `Bearer ${second}`)).status).toBe(401);
  });

  it('logout everywhere ends every session of the account on HTTP and its sockets; API tokens and later logins still work', async () => {
    const fay = await register(app, 'everywhere');
    const bystander = await register(app, 'bystander');
    const second = await login(fay);
    const pat = (
      await http()
        .post('/v1/tokens')
        .set('authorization', `Bearer ${fay.token}`)
        .send({ name: 'bot', scopes: ['read'] })
    ).body.token as string;
    const sockets = [open(fay.token), open(second)];
    const patSocket = open(pat);
    const otherAccount = open(bystander.token);
    await Promise.all([...sockets, patSocket, otherAccount].map((s) => s.connected));

    const at = Date.now();
    expect(await gqlOk(app, second, 'mutation { logoutEverywhere }')).toEqual({ logoutEverywhere: true });
    for (const s of sockets) {
      const closed = await closeOf(s);
      expect(closed.code).toBe(4403);
      expect(closed.at - at).toBeLessThan(1000);
    }
    for (const token of [fay.token, second]) {
      expect((await http().get('/v1/me').set('authorization', `Bearer ${token}`)).status).toBe(401);
      expect(errorCode(await gql(app, token, '{ me { id } }'))).toBe('UNAUTHENTICATED');
    }
    // the API token's socket and another account's are open and answer
    expect((await run(patSocket.client, '{ me { username } }')).data).toEqual({ me: { username: fay.username } });
    expect((await run(otherAccount.client, '{ me { username } }')).data).toEqual({ me: { username: bystander.username } });
    expect((await http().get('/v1/me').set('authorization', `Bearer ${pat}`)).status).toBe(200);
    const again = await login(fay);
    expect((await http().get('/v1/me').set('authorization', `Bearer ${again}`)).status).toBe(200);

    // REST logout-all, and both need a password session
    expect((await http().post('/v1/auth/logout-all').set('authorization', `Bearer ${pat}`)).status).toBe(403);
    expect((await http().post('/v1/auth/logout').set('authorization', `Bearer ${pat}`)).status).toBe(403);
    expect((await http().post('/v1/auth/logout-all').set('authorization', `Bearer ${again}`)).status).toBe(204);
    expect((await http().get('/v1/me').set('authorization', `Bearer ${again}`)).status).toBe(401);
    expect((await http().post('/v1/auth/logout')).status).toBe(401);
  });
});
