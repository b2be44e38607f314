/**
 * Inputs that once answered 500 (issue "Hardening", item 6): each is now a
 * typed 400 (or 404) and changes nothing, over REST and GraphQL.
 */
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createTestApp } from './support/app';
import { errorCode, gql, register } from './support/clients';
import type { Account } from './support/clients';
import { deepJson } from './fuzz/arbitraries';

describe('bad input is refused as such, never a 500 (e2e)', () => {
  let app: INestApplication;
  let alice: Account;
  let matchId: string;

  beforeAll(async () => {
    app = await createTestApp();
    alice = await register(app, 'alice');
    const created = await request(app.getHttpServer())
      .post('/v1/matches')
      .set('authorization', `Bearer ${alice.token}`)
      .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'random' }] });
    expect(created.status).toBe(201);
    matchId = created.body.id;
  });
  afterAll(async () => {
    await app?.close();
  });

  const http = () => request(app.getHttpServer());
  const auth = (r: request.Test) => r.set('authorization', `Bearer ${alice.token}`);

  async function myMatchCount(): Promise<number> {
    const res = await auth(http().get('/v1/matches'));
    expect(res.status).toBe(200);
    return res.body.length;
  }

  it('refuses a NUL byte in an id, a username, a token name or a ruleset name with VALIDATION_FAILED', async () => {
    const tokensBefore = (await auth(http().get('/v1/tokens'))).body.length;
    const answers = [
      await auth(http().get(`/v1/matches/${encodeURIComponent('a\u0000b')}`)),
      await auth(http().get(`/v1/matches/${encodeURIComponent('\u0000')}/hint?level=random`)),
      await http().post('/v1/auth/register').send({ username: 'nul\u0000name', password: 'a-long-enough-password' }),
      await http().post('/v1/auth/login').send({ username: 'alice\u0000', password: 'a-long-enough-password' }),
      await auth(http().post('/v1/tokens')).send({ name: 'bot\u0000', scopes: ['read'] }),
      await auth(http().post('/v1/custom-rulesets')).send({ name: 'quick\u0000', preset: 'scopa' }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.detail).toMatch(/NUL/);
    }
    expect((await auth(http().get('/v1/tokens'))).body.length).toBe(tokensBefore);
    const viaGraphql = await gql(app, alice.token, 'query($id: ID!) { match(id: $id) { id } }', { id: 'x\u0000' });
    expect(errorCode(viaGraphql)).toBe('VALIDATION_FAILED');
  });

  it('refuses an empty or malformed rulesetId with VALIDATION_FAILED and creates nothing', async () => {
    const before = await myMatchCount();
    for (const rulesetId of ['', 'not-a-uuid']) {
      const res = await auth(http().post('/v1/matches')).send({ rulesetId });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect(await myMatchCount()).toBe(before);
  });

  it('refuses the same bad match settings on a new match, a seek and a challenge, naming the field, and makes none of them', async () => {
    const bob = await register(app, 'bob');
    const seeksBefore = (await auth(http().get('/v1/seeks'))).body.length;
    const challengesBefore = (await auth(http().get('/v1/challenges'))).body.out.length;
    const matchesBefore = await myMatchCount();
    const bad: Record<string, unknown>[] = [
      { preset: 42 },
      { preset: 'p'.repeat(51) },
      { rulesetId: 'not-a-uuid' },
      { overrides: 'target=5' },
      { turnTimeLimit: 3600 },
      { turnTimeLimit: 'P'.repeat(41) },
      { onExpiry: 'never' },
      { rated: 'yes' },
    ];
    const routes: [string, Record<string, unknown>][] = [
      ['/v1/matches', { preset: 'scopa' }],
      ['/v1/seeks', { preset: 'scopa' }],
      ['/v1/challenges', { username: bob.username, preset: 'scopa' }],
    ];
    for (const [route, base] of routes) {
      for (const fields of bad) {
        const res = await auth(http().post(route)).send({ ...base, ...fields });
        expect({ route, fields, status: res.status, code: res.body.code }).toEqual({ route, fields, status: 400, code: 'VALIDATION_FAILED' });
        expect(res.body.detail).toContain(Object.keys(fields)[0]);
      }
    }
    expect((await auth(http().get('/v1/seeks'))).body.length).toBe(seeksBefore);
    expect((await auth(http().get('/v1/challenges'))).body.out.length).toBe(challengesBefore);
    expect(await myMatchCount()).toBe(matchesBefore);
  });

  it('refuses a turn time limit outside PT10S..P30D at creation, so that no match is made that can never start', async () => {
    const before = await myMatchCount();
    for (const turnTimeLimit of ['P999999999Y', 'PT99999999999999999999S', 'P2147483648D', 'PT0S', 'PT9S', 'P31D']) {
      const res = await auth(http().post('/v1/matches')).send({ preset: 'scopa', turnTimeLimit });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/turnTimeLimit/);
    }
    expect(await myMatchCount()).toBe(before);
    const edge = await auth(http().post('/v1/matches')).send({
      preset: 'scopa',
      turnTimeLimit: 'P30D',
      seats: [{ type: 'creator' }, { type: 'bot', bot: 'random' }],
    });
    expect(edge.status).toBe(201);
    const started = await auth(http().post(`/v1/matches/${edge.body.id}/start`)).send({});
    expect(started.status).toBe(200);
  });

  it('refuses JSON nested 1,500 deep in overrides, seats or capture with VALIDATION_FAILED', async () => {
    const before = await myMatchCount();
    const bodies = [
      `{"preset":"scopa","overrides":{"target":${deepJson(1500, 'array')}}}`,
      `{"preset":"scopa","seats":${deepJson(1500, 'array')}}`,
      `{"preset":"scopa","overrides":${deepJson(1500, 'object')}}`,
    ];
    for (const body of bodies) {
      const res = await auth(http().post('/v1/matches')).set('content-type', 'application/json').send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect(await myMatchCount()).toBe(before);
    const play = await auth(http().post(`/v1/matches/${matchId}/plays`))
      .set('content-type', 'application/json')
      .send(`{"card":"7D","capture":${deepJson(1500, 'array')}}`);
    expect(play.status).toBe(400);
    expect(play.body.code).toBe('VALIDATION_FAILED');
    const viaGraphql = await gql(app, alice.token, 'mutation($i: CreateMatchInput!) { createMatch(input: $i) { id } }', {
      i: { preset: 'scopa', overrides: JSON.parse(`{"target":${deepJson(1500, 'array')}}`) },
    });
    expect(errorCode(viaGraphql)).toBe('VALIDATION_FAILED');
    expect(await myMatchCount()).toBe(before);
  });

  it('answers a subscription sent over plain HTTP with a 400 that points to graphql-ws', async () => {
    const res = await gql(app, alice.token, 'subscription { myTurn { matchId } }');
    expect(res.status).toBe(400);
    expect(errorCode(res)).toBe('VALIDATION_FAILED');
    expect(res.errors?.[0].message).toMatch(/graphql-ws/);
  });
});
