import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import request from 'supertest';
import { MatchStore } from '../src/match-store/match-store';
import { cardCodes } from '../src/engine';
import { createTestApp } from './support/app';
import { errorCode, gql, register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(300_000);

describe('authorization, rate limits and malformed input (e2e)', () => {
  let app: INestApplication;
  let alice: Account;
  let bob: Account;
  let eve: Account;
  let matchId: string;
  const http = () => request(app.getHttpServer());
  const bearer = (t: string) => `Bearer ${t}`;

  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT: '100000' });
    [alice, bob, eve] = await Promise.all([register(app, 'alice'), register(app, 'bob'), register(app, 'eve')]);
    const created = await http()
      .post('/v1/matches')
      .set('authorization', bearer(alice.token))
      .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] });
    matchId = created.body.id;
    await http().post(`/v1/matches/${matchId}/join`).set('authorization', bearer(bob.token)).send({});
    await http().post(`/v1/matches/${matchId}/start`).set('authorization', bearer(alice.token)).send({});
  });
  afterAll(async () => {
    await app?.close();
  });

  async function state() {
    return app.get(MatchStore).state(matchId);
  }

  it('a reserved seat refuses others; a seat cannot play for another', async () => {
    const s = await state();
    const notToMove = s.turn === 0 ? bob : alice;
    const toMoveHand = cardCodes(s.hands[s.turn]);
    const before = (await http().get(`/v1/matches/${matchId}`).set('authorization', bearer(eve.token))).body.seq;
    // the seat not to move plays a card of the seat to move
    const res = await http().post(`/v1/matches/${matchId}/plays`).set('authorization', bearer(notToMove.token)).send({ card: toMoveHand[0], capture: [] });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('NOT_YOUR_TURN');
    // an outsider cannot play at all
    const outsider = await gql(app, eve.token, 'mutation($id: ID!) { play(matchId: $id, input: { card: "1D", capture: [] }) { seq } }', { id: matchId });
    expect(errorCode(outsider)).toBe('NOT_SEATED');
    const after = (await http().get(`/v1/matches/${matchId}`).set('authorization', bearer(eve.token))).body.seq;
    expect(after).toBe(before);
  });

  it("nobody reads another seat's hand: a spectator sees none, each seat only its own", async () => {
    const s = await state();
    const asEve = await http().get(`/v1/matches/${matchId}`).set('authorization', bearer(eve.token));
    expect(asEve.body.view.viewer).toBeNull();
    expect(asEve.body.view.hand).toEqual([]);
    expect(asEve.body.reveal).toBeNull();
    const asBob = await http().get(`/v1/matches/${matchId}`).set('authorization', bearer(bob.token));
    expect(asBob.body.view.hand.sort()).toEqual(cardCodes(s.hands[1]).sort());
    for (const c of cardCodes(s.hands[0])) expect(asBob.text).not.toMatch(new RegExp(`"${c}"`));
    const replay = await http().get(`/v1/matches/${matchId}?atSeq=3`).set('authorization', bearer(bob.token));
    expect(replay.body.view.hand).toEqual([]);
    expect(replay.body.reveal).toBeNull();
    const legal = await http().get(`/v1/matches/${matchId}/legal-plays`).set('authorization', bearer(eve.token));
    expect(legal.status).toBe(403);
    const exported = await http().get(`/v1/matches/${matchId}/export`).set('authorization', bearer(eve.token));
    expect(exported.status).toBe(403);
  });

  it('token scopes are enforced: a read token cannot play, a play-only token cannot read', async () => {
    const mk = async (scopes: string[]) =>
      (
        await http()
          .post('/v1/tokens')
          .set('authorization', bearer(alice.token))
          .send({ name: scopes.join('+'), scopes })
      ).body.token as string;
    const read = await mk(['read']);
    const play = await mk(['play']);
    const view = await http().get(`/v1/matches/${matchId}`).set('authorization', bearer(read));
    expect(view.status).toBe(200);
    const s = await state();
    const denied = await http().post(`/v1/matches/${matchId}/resign`).set('authorization', bearer(read)).send({});
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'match:play' });
    expect(errorCode(await gql(app, read, 'mutation($id: ID!) { resign(matchId: $id) { seq } }', { id: matchId }))).toBe('FORBIDDEN');
    expect((await http().get(`/v1/matches/${matchId}`).set('authorization', bearer(play))).status).toBe(403);
    expect((await state()).phase).toBe(s.phase);
  });

  it('If-Match with a stale ETag is 412 VERSION_CONFLICT; an idempotent retry changes nothing', async () => {
    const s = await state();
    const mover = s.turn === 0 ? alice : bob;
    const legal = (await http().get(`/v1/matches/${matchId}/legal-plays`).set('authorization', bearer(mover.token))).body;
    const p = legal.plays[0];
    const stale = await http()
      .post(`/v1/matches/${matchId}/plays`)
      .set('authorization', bearer(mover.token))
      .set('if-match', `"${legal.seq - 1}"`)
      .send({ card: p.card, capture: p.capture });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 'VERSION_CONFLICT', currentSeq: legal.seq });
    const send = () =>
      http()
        .post(`/v1/matches/${matchId}/plays`)
        .set('authorization', bearer(mover.token))
        .set('if-match', `"${legal.seq}"`)
        .send({ card: p.card, capture: p.capture, idempotencyKey: 'once' });
    const first = await send();
    expect(first.status).toBe(200);
    expect(first.headers.etag).toBe(`"${first.body.seq}"`);
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.body.seq).toBe(first.body.seq);
  });

  it('fuzz: random REST bodies and GraphQL variables give 4xx / errors, never a 5xx, and change nothing', async () => {
    const before = (await http().get(`/v1/matches/${matchId}`).set('authorization', bearer(eve.token))).body.seq;
    const anyJson = fc.oneof(fc.jsonValue(), fc.object(), fc.array(fc.anything()), fc.string());
    const paths = [
      '/v1/matches',
      `/v1/matches/${matchId}/plays`,
      `/v1/matches/${matchId}/join`,
      `/v1/matches/${matchId}/resign`,
      '/v1/auth/login',
      '/v1/tokens',
      '/v1/custom-rulesets',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), anyJson, fc.constantFrom(eve.token, 'garbage'), async (path, body, token) => {
        const res = await http()
          .post(path)
          .set('authorization', bearer(token))
          .set('content-type', 'application/json')
          .send(JSON.stringify(body ?? null));
        return res.status >= 400 && res.status < 500;
      }),
      { numRuns: 150 },
    );
    const ops = [
      ['mutation($id: ID!, $i: PlayInput!) { play(matchId: $id, input: $i) { seq } }', 'i'],
      ['mutation($i: CreateMatchInput!) { createMatch(input: $i) { id } }', 'i'],
      ['query($id: ID!, $s: Int) { match(id: $id, atSeq: $s) { seq } }', 's'],
      ['query($id: ID!, $s: Int, $l: Int) { matchEvents(matchId: $id, fromSeq: $s, limit: $l) { seq } }', 'l'],
    ] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ops), anyJson, fc.oneof(fc.constant(matchId), fc.string(), fc.uuid()), async ([query, name], value, id) => {
        const res = await http()
          .post('/graphql')
          .set('authorization', bearer(eve.token))
          .send({ query, variables: { id, [name]: value } });
        if (res.status >= 500) return false;
        // eve holds no seat: whatever she sends, a play or a new match is refused or harmless
        return !(res.body?.errors ?? []).some((e: { extensions?: { code?: string } }) => e.extensions?.code === 'INTERNAL');
      }),
      { numRuns: 150 },
    );
    const after = (await http().get(`/v1/matches/${matchId}`).set('authorization', bearer(eve.token))).body.seq;
    expect(after).toBe(before);
  });
});

describe('rate limits (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT: '5', RATE_LIMIT_WINDOW_MS: '60000' });
  });
  afterAll(async () => {
    await app?.close();
    process.env.RATE_LIMIT = '100000';
  });

  it('REST: RateLimit-* headers, then 429 with Retry-After; GraphQL: RATE_LIMITED with the same figures', async () => {
    const a = await register(app, 'busy'); // 1
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await request(app.getHttpServer()).get('/v1/me').set('authorization', `Bearer ${a.token}`);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5).filter((s) => s === 200)).toHaveLength(5);
    last = await request(app.getHttpServer()).get('/v1/me').set('authorization', `Bearer ${a.token}`);
    expect(last.status).toBe(429);
    expect(last.headers['retry-after']).toMatch(/^\d+$/);
    expect(last.headers['ratelimit-limit']).toBe('5');
    expect(last.body).toMatchObject({ code: 'RATE_LIMITED', limit: 5, remaining: 0 });
    const g = await gql(app, a.token, '{ me { id } }');
    expect(g.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 5, remaining: 0 });
    expect(g.errors?.[0]?.extensions?.retryAfter).toEqual(expect.any(Number));
  });
});
