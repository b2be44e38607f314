/**
 * The analysis queue's bounds on the embedded database (docs/analysis.md,
 * "The jobs: pg-boss on the service's own database"; issue 42):
 * - 8 concurrent requests of one account on 8 finished matches: exactly
 *   ANALYSIS_QUEUE_PER_ACCOUNT (3) queued, the others ANALYSIS_QUEUE_FULL;
 * - with 6 places left under ANALYSIS_QUEUE_MAX (12), 12 concurrent requests:
 *   exactly 6 queued;
 * - a match of more decisions than ANALYSIS_MAX_DECISIONS: 422
 *   ANALYSIS_TOO_LARGE over REST and GraphQL, nothing queued;
 * - a short analysis asked after a large one (above ANALYSIS_LARGE_DECISIONS)
 *   started is done while the large one still runs: the large ones have
 *   workers of their own.
 * The same on PostgreSQL with two instances: test/analysis-bounds.pg-spec.ts.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { MatchStore } from '../src/match-store/match-store';
import { createTestApp } from './support/app';
import { errorCode, gql, register } from './support/clients';
import type { Account } from './support/clients';
import { finishedMatch, until } from './support/analysis-fixtures';

jest.setTimeout(600_000);

const auth = (a: Account) => ({ authorization: `Bearer ${a.token}` });

/** The two seats of a finished match, named after `tag`. */
const seatsOf = (tag: string) => [`bd${tag}x0`, `bd${tag}x1`];

const KEYS = [
  'ANALYSIS_WORKERS',
  'ANALYSIS_LARGE_WORKERS',
  'ANALYSIS_QUEUE_MAX',
  'ANALYSIS_MAX_DECISIONS',
  'ANALYSIS_LARGE_DECISIONS',
  'ANALYSIS_ITERATIONS',
  'ANALYSIS_POLL_SECONDS',
];

describe('analysis bounds (e2e, PGlite)', () => {
  describe('the queue caps, under concurrency', () => {
    let app: INestApplication;
    let store: MatchStore;
    const http = () => request(app.getHttpServer());

    beforeAll(async () => {
      // Nothing runs (ANALYSIS_WORKERS=0): what is queued stays queued.
      app = await createTestApp({ ANALYSIS_WORKERS: '0', ANALYSIS_QUEUE_MAX: '12', ANALYSIS_ITERATIONS: '8' });
      store = app.get(MatchStore);
    });
    afterAll(async () => {
      for (const k of KEYS) delete process.env[k];
      await app?.close();
    });

    it('8 concurrent requests of one account on 8 finished matches: exactly 3 queued (ANALYSIS_QUEUE_PER_ACCOUNT), the others ANALYSIS_QUEUE_FULL', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push(await finishedMatch(store, seatsOf(`a${i}`), { target: 1, players: 2 }));
      const alice = await register(app, 'bda');
      const answers = await Promise.all(ids.map((id) => http().post(`/v1/matches/${id}/analysis`).set(auth(alice)).send({})));
      const queued = answers.filter((r) => r.status === 202);
      const refused = answers.filter((r) => r.status !== 202);
      expect(queued).toHaveLength(3);
      for (const r of queued) expect(r.body.status).toBe('queued');
      for (const r of refused) expect([r.status, r.body.code, r.body.scope, r.body.limit]).toEqual([429, 'ANALYSIS_QUEUE_FULL', 'account', 3]);
      // The refused ones changed nothing: nobody asked for those analyses.
      for (const [i, r] of answers.entries())
        if (r.status !== 202) expect((await http().get(`/v1/matches/${ids[i]}/analysis`).set(auth(alice))).status).toBe(404);
    });

    it('with 6 places left under ANALYSIS_QUEUE_MAX (12), 12 concurrent requests of 4 accounts: exactly 6 queued, the others ANALYSIS_QUEUE_FULL (total)', async () => {
      // 3 live from the test above; 3 more by bob: 6 live, 6 places left.
      const bob = await register(app, 'bdb');
      for (let i = 0; i < 3; i++)
        expect(
          (
            await http()
              .post(`/v1/matches/${await finishedMatch(store, seatsOf(`b${i}`), { target: 1, players: 2 })}/analysis`)
              .set(auth(bob))
              .send({})
          ).status,
        ).toBe(202);
      const accounts = await Promise.all([0, 1, 2, 3].map((i) => register(app, `bdt${i}`)));
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await finishedMatch(store, seatsOf(`t${i}`), { target: 1, players: 2 }));
      const answers = await Promise.all(
        ids.map((id, i) =>
          http()
            .post(`/v1/matches/${id}/analysis`)
            .set(auth(accounts[i % 4]))
            .send({}),
        ),
      );
      expect(answers.filter((r) => r.status === 202)).toHaveLength(6);
      for (const r of answers.filter((x) => x.status !== 202))
        expect([r.status, r.body.code, r.body.scope, r.body.limit]).toEqual([429, 'ANALYSIS_QUEUE_FULL', 'total', 12]);
    });
  });

  describe('the size bound and the large queue', () => {
    let app: INestApplication;
    let store: MatchStore;
    const http = () => request(app.getHttpServer());

    beforeAll(async () => {
      // Here a match to 11 (about 180 decisions) is large (above 100) and a match to 1 (about 36) short; the bound on
      // decisions is lowered to 250 so that a match to 21 (about 290) is beyond it. One worker for each queue.
      app = await createTestApp({
        ANALYSIS_WORKERS: '1',
        ANALYSIS_LARGE_WORKERS: '1',
        ANALYSIS_LARGE_DECISIONS: '100',
        ANALYSIS_MAX_DECISIONS: '250',
        ANALYSIS_ITERATIONS: '1500',
        ANALYSIS_POLL_SECONDS: '0.5',
      });
      store = app.get(MatchStore);
    });
    afterAll(async () => {
      for (const k of KEYS) delete process.env[k];
      await app?.close();
    });

    it('a match of more decisions than ANALYSIS_MAX_DECISIONS is refused with 422 ANALYSIS_TOO_LARGE over REST and GraphQL, and nothing is queued', async () => {
      const id = await finishedMatch(store, seatsOf('big'), { target: 21, players: 2 });
      const plays = (await store.eventsFrom(id, 1, 5000)).filter((e) => e.type === 'CardPlayed').length;
      expect(plays).toBeGreaterThan(250);
      const carol = await register(app, 'bdc');
      const rest = await http().post(`/v1/matches/${id}/analysis`).set(auth(carol)).send({});
      expect(rest.status).toBe(422);
      expect(rest.headers['content-type']).toContain('application/problem+json');
      expect(rest.body).toMatchObject({ code: 'ANALYSIS_TOO_LARGE', status: 422, decisions: plays, limit: 250 });
      const graphql = await gql(app, carol.token, 'mutation($m: ID!) { requestAnalysis(matchId: $m) { status } }', { m: id });
      expect(errorCode(graphql)).toBe('ANALYSIS_TOO_LARGE');
      expect(graphql.errors?.[0]?.extensions).toMatchObject({ status: 422, decisions: plays, limit: 250 });
      expect((await http().get(`/v1/matches/${id}/analysis`).set(auth(carol))).status).toBe(404);
    });

    it('a short analysis asked while a large one runs is done before it: the large one holds only its own worker', async () => {
      const large = await finishedMatch(store, seatsOf('large'), { target: 11, players: 2 });
      const short = await finishedMatch(store, seatsOf('short'), { target: 1, players: 2 });
      const dave = await register(app, 'bdd');
      const read = async (id: string) => (await http().get(`/v1/matches/${id}/analysis`).set(auth(dave))).body;
      expect((await http().post(`/v1/matches/${large}/analysis`).set(auth(dave)).send({})).status).toBe(202);
      const started = await until(
        'the large analysis under way',
        () => read(large),
        (b) => b.status === 'running' && b.done > 0,
      );
      expect(started.total).toBeGreaterThan(100);
      const asked = Date.now();
      expect((await http().post(`/v1/matches/${short}/analysis`).set(auth(dave)).send({})).status).toBe(202);
      const done = await until(
        'the short analysis',
        () => read(short),
        (b) => b.status === 'done',
        120_000,
      );
      const took = Date.now() - asked;
      // It did not wait for the large one: that one is still running when the short one is done.
      const meanwhile = await read(large);
      expect(meanwhile.status).toBe('running');
      expect(meanwhile.done).toBeLessThan(meanwhile.total);
      expect(done.total).toBeLessThanOrEqual(100);
      // docs/analysis.md: a short analysis takes at most twice its own time while a large one shares the core; here
      // its own is a few seconds.
      expect(took).toBeLessThan(60_000);
      const finished = await until(
        'the large analysis',
        () => read(large),
        (b) => b.status === 'done',
      );
      expect(new Date(finished.finishedAt).getTime()).toBeGreaterThan(new Date(done.finishedAt).getTime());
    });
  });
});
