/**
 * Web Push (issue 48, docs/notifications.md), end to end on PGlite: a push service on loopback over HTTPS (a
 * self-signed certificate made here, trusted through the push module's TLS option, since NODE_EXTRA_CA_CERTS is read
 * only at a process's start: a process of its own running the service's sender shows that one too; PUSH_ALLOW_PRIVATE
 * for the loopback address) takes the push of `yourTurn` within 2 s
 * of the opponent's play; this test decrypts it as a browser does (RFC 8291 aes128gcm, with keys it made), checks the
 * VAPID header's ES256 JWT with the service's public key, finds only public facts in it, then answers 410 and sees the
 * subscription dropped. Without PUSH_ALLOW_PRIVATE, bad input (not https, a private or loopback address, an unknown
 * kind, bad keys) is refused with VALIDATION_FAILED over REST and GraphQL and stores nothing; the kinds are switched
 * by registering the same endpoint again; the scope push:write guards the writes.
 */
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AppModule } from '../src/app.module';
import { configureApp } from '../src/app.setup';
import { PrismaService } from '../src/database/prisma.service';
import { PUSH_TLS } from '../src/push/push-tokens';
import { PUSH_KINDS } from '../src/push/push-kinds';
import { pgliteTemplate } from './support/db-template';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';
import { browserKeys, decryptPush, pushReceiver, selfSignedCertificate, verifyVapid } from './support/web-push-receiver';
import type { PushReceiver } from './support/web-push-receiver';

jest.setTimeout(120_000);

const SUBJECT = 'mailto:push-test@example.com';

/** The application as createTestApp builds it, with the env given and, when `ca` is, that CA trusted by its push requests. */
async function pushApp(env: Record<string, string | undefined>, ca?: string): Promise<INestApplication> {
  process.env.JWT_SECRET ??= 'test-secret-for-e2e';
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  const template = await pgliteTemplate();
  let builder = Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(PrismaService)
    .useFactory({ factory: () => new PrismaService({ dataDir: 'memory', loadDataDir: template }) });
  if (ca) builder = builder.overrideProvider(PUSH_TLS).useValue({ ca });
  const app = configureApp((await builder.compile()).createNestApplication({ logger: ['error'], bodyParser: false }));
  await app.init();
  return app;
}

const saved = Object.fromEntries(['PUSH_ALLOW_PRIVATE', 'VAPID_SUBJECT'].map((k) => [k, process.env[k]]));
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const auth = (a: Account | string) => `Bearer ${typeof a === 'string' ? a : a.token}`;

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Web Push to a loopback push service (PUSH_ALLOW_PRIVATE)', () => {
  let app: INestApplication;
  let push: PushReceiver;
  let alice: Account;
  let bob: Account;
  const http = () => request(app.getHttpServer());

  let tls: { key: string; cert: string };

  beforeAll(async () => {
    tls = selfSignedCertificate();
    push = await pushReceiver(tls);
    app = await pushApp({ PUSH_ALLOW_PRIVATE: 'true', VAPID_SUBJECT: SUBJECT }, tls.cert);
    alice = await register(app, 'pusha');
    bob = await register(app, 'pushb');
  });
  afterAll(async () => {
    // The last push's job completes after the push service answered it: let it, before the database closes.
    if (app) {
      const prisma = app.get(PrismaService);
      await until(
        () => prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'push-delivery' AND state = 'active'`),
        ([r]) => r.n === 0,
        5000,
      );
    }
    await app?.close();
    await push?.close();
  });

  /** The match as alice sees it, and whose turn it is. */
  async function turnOf(matchId: string): Promise<{ seq: number; turnPlayer: string; aliceSeat: number }> {
    const m = (await http().get(`/v1/matches/${matchId}`).set('authorization', auth(alice)).expect(200)).body;
    const seats = m.view.seats as { seat: number; player: string | null }[];
    return { seq: m.seq, turnPlayer: seats.find((s) => s.seat === m.view.turn)!.player!, aliceSeat: seats.find((s) => s.player === alice.username)!.seat };
  }

  async function play(who: Account, matchId: string): Promise<number> {
    const legal = (await http().get(`/v1/matches/${matchId}/legal-plays`).set('authorization', auth(who)).expect(200)).body;
    const res = await http()
      .post(`/v1/matches/${matchId}/plays`)
      .set('authorization', auth(who))
      .send({ ...legal.plays[0], expectedSeq: legal.seq });
    expect(res.status).toBe(200);
    return res.body.seq as number;
  }

  it("delivers yourTurn within 2 s of the opponent's play, encrypted for the browser's keys and VAPID-signed; a 410 drops the subscription", async () => {
    const { publicKey } = (await http().get('/v1/push/vapid-public-key').expect(200)).body;
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);

    const keys = browserKeys();
    const endpoint = `${push.origin}/push/${alice.username}`;
    const sub = await http().post('/v1/account/push-subscriptions').set('authorization', auth(alice)).send(keys.json(endpoint));
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ endpoint, kinds: [...PUSH_KINDS] });

    const m = (
      await http()
        .post('/v1/matches')
        .set('authorization', auth(alice))
        .send({ preset: 'scopa', turnTimeLimit: 'P1D', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] })
        .expect(201)
    ).body;
    await http().post(`/v1/matches/${m.id}/join`).set('authorization', auth(bob)).send({}).expect(200);
    await http().post(`/v1/matches/${m.id}/start`).set('authorization', auth(alice)).send({}).expect(200);
    // Alice may move first (that turn is pushed too): then she plays, and it is bob's.
    if ((await turnOf(m.id)).turnPlayer === alice.username) {
      await push.next(0, 5000);
      await play(alice, m.id);
    }
    expect((await turnOf(m.id)).turnPlayer).toBe(bob.username);

    const before = push.got.length;
    const playedAt = Date.now();
    const seq = await play(bob, m.id);
    const got = await push.next(before, 2000);
    expect(got.at - playedAt).toBeLessThan(2000);
    expect(got.path).toBe(`/push/${alice.username}`);

    // What a browser reads: the payload, decrypted with the keys only it holds.
    expect(got.headers['content-encoding']).toBe('aes128gcm');
    const payload = JSON.parse(decryptPush(got.body, keys).toString('utf8'));
    const { aliceSeat } = await turnOf(m.id);
    expect(payload).toEqual({
      v: 1,
      kind: 'yourTurn',
      matchId: m.id,
      data: { matchId: m.id, seq, seat: aliceSeat, deadline: expect.any(String) },
      url: `/#/match/${m.id}`,
      sentAt: expect.any(String),
    });
    const deadline = Date.parse(payload.data.deadline);
    expect(deadline).toBeGreaterThan(Date.now() + 23 * 3600_000);
    // Headers of RFC 8030: how long it may wait (until the deadline, at most a day), how urgent, and its match's topic.
    expect(Number(got.headers.ttl)).toBeGreaterThan(0);
    expect(Number(got.headers.ttl)).toBeLessThanOrEqual(24 * 3600);
    expect(got.headers.urgency).toBe('high');
    expect(got.headers.topic).toBe(m.id.replace(/-/g, ''));

    // Signed by the service (RFC 8292): its public key, a JWT for this push service's origin, not long-lived.
    const claims = verifyVapid(got.headers.authorization, publicKey);
    expect(claims.aud).toBe(push.origin);
    expect(claims.sub).toBe(SUBJECT);
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000 + 60_000);
    // Nothing else crosses: the plaintext is exactly the payload above (no hand, no seed).
    expect(decryptPush(got.body, keys).toString('utf8')).not.toMatch(/hand|seed|stock|cards/i);

    // The browser unsubscribed: the push service answers 410, and the subscription is dropped.
    push.answer(410);
    await play(alice, m.id);
    const gone = push.got.length;
    await play(bob, m.id);
    await push.next(gone, 2000);
    const list = await until(
      async () => (await http().get('/v1/account/push-subscriptions').set('authorization', auth(alice)).expect(200)).body as unknown[],
      (l) => l.length === 0,
      5000,
    );
    expect(list).toEqual([]);
    // ...and told nothing more.
    push.answer(201);
    await play(alice, m.id);
    const after = push.got.length;
    await play(bob, m.id);
    await new Promise((r) => setTimeout(r, 1500));
    expect(push.got.length).toBe(after);
  });

  it("trusts the push service's certificate through NODE_EXTRA_CA_CERTS, read at the start of the sending process", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'scopa-push-ca-'));
    try {
      const caFile = path.join(dir, 'ca.pem');
      writeFileSync(caFile, tls.cert);
      const keys = browserKeys();
      const { endpoint, keys: k } = keys.json(`${push.origin}/push/extra-ca`);
      // node itself with tsx's loader (PushSender has no decorators), so the variable is the process's own from its start.
      const sendOnce = (extra: Record<string, string>) =>
        new Promise<string>((resolve, reject) =>
          execFile(
            process.execPath,
            ['--import', 'tsx', 'test/support/push-send-once.ts'],
            { env: { ...process.env, NODE_EXTRA_CA_CERTS: '', PUSH_TEST_ENDPOINT: endpoint, PUSH_TEST_P256DH: k.p256dh, PUSH_TEST_AUTH: k.auth, ...extra } },
            (err, stdout) => (err ? reject(new Error(`push-send-once: ${err.message}`)) : resolve(stdout.trim())),
          ),
        );
      const before = push.got.length;
      expect(JSON.parse(await sendOnce({}))).toEqual({ status: 'retry', code: null, reason: 'connection failed' });
      expect(JSON.parse(await sendOnce({ NODE_EXTRA_CA_CERTS: caFile }))).toEqual({ status: 'delivered', code: 201 });
      const got = push.got.slice(before).filter((g) => g.path === '/push/extra-ca');
      expect(got).toHaveLength(1);
      expect(JSON.parse(decryptPush(got[0].body, keys).toString('utf8'))).toMatchObject({ kind: 'analysisReady', matchId: 'm-1', url: '/#/replay/m-1' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a subscription whose kinds leave out yourTurn is not told of turns', async () => {
    const keys = browserKeys();
    const endpoint = `${push.origin}/push/kinds-${alice.username}`;
    const first = await http().post('/v1/account/push-subscriptions').set('authorization', auth(alice)).send(keys.json(endpoint)).expect(201);
    // The same endpoint again switches the kinds: same subscription.
    const switched = await http()
      .post('/v1/account/push-subscriptions')
      .set('authorization', auth(alice))
      .send({ ...keys.json(endpoint), kinds: ['analysisReady', 'challengeReceived'] })
      .expect(201);
    expect(switched.body).toMatchObject({ id: first.body.id, kinds: ['challengeReceived', 'analysisReady'] });

    const m = (
      await http()
        .post('/v1/matches')
        .set('authorization', auth(bob))
        .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: alice.username }] })
        .expect(201)
    ).body;
    await http().post(`/v1/matches/${m.id}/join`).set('authorization', auth(alice)).send({}).expect(200);
    await http().post(`/v1/matches/${m.id}/start`).set('authorization', auth(bob)).send({}).expect(200);
    const before = push.got.length;
    if ((await turnOf(m.id)).turnPlayer === alice.username) await play(alice, m.id);
    await play(bob, m.id);
    await new Promise((r) => setTimeout(r, 1500));
    expect(push.got.slice(before).filter((g) => g.path === `/push/kinds-${alice.username}`)).toEqual([]);

    // challengeReceived is on: a challenge from bob reaches this browser.
    await http().post('/v1/challenges').set('authorization', auth(bob)).send({ username: alice.username, preset: 'scopa' }).expect(201);
    const got = await push.next(push.got.length, 2000);
    expect(got.path).toBe(`/push/kinds-${alice.username}`);
    const payload = JSON.parse(decryptPush(got.body, keys).toString('utf8'));
    expect(payload).toMatchObject({ kind: 'challengeReceived', matchId: null, data: { from: bob.username, preset: 'scopa', rated: false }, url: '/#/lobby' });
  });
});

describe('push subscriptions: what is refused, and the GraphQL operations (PUSH_ALLOW_PRIVATE unset)', () => {
  let app: INestApplication;
  let prisma: PrismaService;
  let owner: Account;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    app = await pushApp({ PUSH_ALLOW_PRIVATE: undefined });
    prisma = app.get(PrismaService);
    owner = await register(app, 'pushv');
  });
  afterAll(async () => {
    await app?.close();
  });

  const keys = browserKeys();
  const good = keys.json('https://8.8.8.8/push/abc');

  it('refuses a non-https endpoint, a private or loopback address, an unknown kind and bad keys with VALIDATION_FAILED, storing nothing', async () => {
    const bad: [string, unknown, RegExp][] = [
      ['http', { ...good, endpoint: 'http://8.8.8.8/push' }, /only https/],
      ['not a URL', { ...good, endpoint: 'push-me' }, /not a URL/],
      ['loopback', { ...good, endpoint: 'https://127.0.0.1:8443/push' }, /push endpoints may only target public addresses/],
      ['localhost', { ...good, endpoint: 'https://localhost/push' }, /push endpoints may only target public addresses/],
      ['IPv6 loopback', { ...good, endpoint: 'https://[::1]/push' }, /push endpoints may only target public addresses/],
      ['private', { ...good, endpoint: 'https://10.1.2.3/push' }, /push endpoints may only target public addresses/],
      ['metadata', { ...good, endpoint: 'https://169.254.169.254/latest' }, /push endpoints may only target public addresses/],
      ['unknown kind', { ...good, kinds: ['yourTurn', 'gameOver'] }, /kinds: one or more of yourTurn, challengeReceived/],
      ['no kind', { ...good, kinds: [] }, /kinds/],
      ['short p256dh', { ...good, keys: { ...good.keys, p256dh: keys.ecdh.getPublicKey().subarray(0, 64).toString('base64url') } }, /keys.p256dh/],
      [
        'p256dh off the curve',
        { ...good, keys: { ...good.keys, p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url') } },
        /keys.p256dh/,
      ],
      ['short auth', { ...good, keys: { ...good.keys, auth: Buffer.alloc(15).toString('base64url') } }, /keys.auth/],
      ['no keys', { endpoint: good.endpoint }, /keys/],
      ['an unknown field', { ...good, extra: 1 }, /extra/],
    ];
    for (const [what, body, detail] of bad) {
      const res = await http()
        .post('/v1/account/push-subscriptions')
        .set('authorization', auth(owner))
        .send(body as object);
      expect({ what, status: res.status, code: res.body.code }).toEqual({ what, status: 400, code: 'VALIDATION_FAILED' });
      expect({ what, detail: res.body.detail }).toEqual({ what, detail: expect.stringMatching(detail) });
    }
    const gqlBad = await gql(app, owner.token, 'mutation($i: AddPushSubscriptionInput!) { addPushSubscription(input: $i) { id } }', {
      i: { ...good, endpoint: 'https://192.168.1.20/push' },
    });
    expect(errorCode(gqlBad)).toBe('VALIDATION_FAILED');
    const gqlKind = await gql(app, owner.token, 'mutation($i: AddPushSubscriptionInput!) { addPushSubscription(input: $i) { id } }', {
      i: { ...good, kinds: ['gameOver'] },
    });
    expect(errorCode(gqlKind)).toBeDefined();
    expect(gqlKind.data?.addPushSubscription ?? null).toBeNull();
    expect(await prisma.pushSubscription.count({ where: { accountId: owner.id } })).toBe(0);
    expect((await http().get('/v1/account/push-subscriptions').set('authorization', auth(owner)).expect(200)).body).toEqual([]);
  });

  it('adds, lists, switches kinds (the same endpoint again) and removes over GraphQL; an unknown id is NOT_FOUND', async () => {
    const q = 'mutation($i: AddPushSubscriptionInput!) { addPushSubscription(input: $i) { id endpoint kinds } }';
    const added = (await gqlOk(app, owner.token, q, { i: { ...good, kinds: ['clockLow', 'yourTurn'] } })).addPushSubscription;
    expect(added).toEqual({ id: expect.any(String), endpoint: good.endpoint, kinds: ['yourTurn', 'clockLow'] });
    const again = (await gqlOk(app, owner.token, q, { i: { ...good, kinds: ['tournamentRoundPaired'] } })).addPushSubscription;
    expect(again).toEqual({ ...added, kinds: ['tournamentRoundPaired'] });
    expect((await gqlOk(app, owner.token, '{ pushSubscriptions { id kinds } }')).pushSubscriptions).toEqual([
      { id: added.id, kinds: ['tournamentRoundPaired'] },
    ]);
    expect((await gqlOk(app, null, '{ pushVapidPublicKey }')).pushVapidPublicKey).toBe(
      (await http().get('/v1/push/vapid-public-key').expect(200)).body.publicKey,
    );
    // Another account sees none of it and cannot remove it.
    const other = await register(app, 'pusho');
    expect((await gqlOk(app, other.token, '{ pushSubscriptions { id } }')).pushSubscriptions).toEqual([]);
    const foreign = await http().delete(`/v1/account/push-subscriptions/${added.id}`).set('authorization', auth(other));
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });

    expect((await gqlOk(app, owner.token, 'mutation($id: ID!) { removePushSubscription(id: $id) }', { id: added.id })).removePushSubscription).toBe(true);
    expect(errorCode(await gql(app, owner.token, 'mutation($id: ID!) { removePushSubscription(id: $id) }', { id: added.id }))).toBe('NOT_FOUND');
    const rest = await http().delete(`/v1/account/push-subscriptions/${added.id}`).set('authorization', auth(owner));
    expect({ status: rest.status, code: rest.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('the writes need the scope push:write (an API token without it is refused, nothing stored); the list needs profile:read', async () => {
    const mk = async (scopes: string[]) =>
      (
        await http()
          .post('/v1/tokens')
          .set('authorization', auth(owner))
          .send({ name: scopes.join('+'), scopes })
          .expect(201)
      ).body.token as string;
    const readOnly = await mk(['profile:read', 'match:read']);
    const writer = await mk(['push:write']);
    const denied = await http().post('/v1/account/push-subscriptions').set('authorization', auth(readOnly)).send(good);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'push:write' });
    expect(errorCode(await gql(app, readOnly, 'mutation($i: AddPushSubscriptionInput!) { addPushSubscription(input: $i) { id } }', { i: good }))).toBe(
      'FORBIDDEN',
    );
    expect(await prisma.pushSubscription.count({ where: { accountId: owner.id } })).toBe(0);
    const made = await http().post('/v1/account/push-subscriptions').set('authorization', auth(writer)).send(good).expect(201);
    expect((await http().get('/v1/account/push-subscriptions').set('authorization', auth(writer))).body).toMatchObject({
      code: 'FORBIDDEN',
      requiredScope: 'profile:read',
    });
    await http().delete(`/v1/account/push-subscriptions/${made.body.id}`).set('authorization', auth(writer)).expect(204);
  });
});
