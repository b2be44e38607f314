/**
 * Post-game analysis through the API on the embedded database (PGlite): the
 * job runs on pg-boss in the service's own worker; a finished match is
 * analysed, asking again returns the same result; who may ask and read; the
 * queue's per-account bound (ANALYSIS_QUEUE_FULL); analysisReady reaches the
 * players' webhooks; an imported match is analysed like a match played here.
 */
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { createTestApp, listenOnLoopback } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';
import { reissue } from './support/exports';
import { playToEnd, restTransport } from './support/play';
import { until } from './support/analysis-fixtures';

jest.setTimeout(300_000);

const auth = (a: Account) => ({ authorization: `Bearer ${a.token}` });

describe('post-game analysis (e2e, PGlite)', () => {
  let app: INestApplication;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let ws: string;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    // A small budget: the numbers' quality is the unit tests' (src/analysis/analyzer.spec.ts); this is the plumbing.
    // Webhook deliveries stay pending (no delivery worker): the test reads them.
    app = await createTestApp({
      ANALYSIS_ITERATIONS: '8',
      ANALYSIS_WORKERS: '1',
      ANALYSIS_POLL_SECONDS: '0.5',
      WEBHOOK_POLL_MS: '0',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    ({ ws } = await listenOnLoopback(app));
    [alice, bob, carol] = await Promise.all([register(app, 'ana'), register(app, 'anb'), register(app, 'anc')]);
  });
  afterAll(async () => {
    for (const k of ['ANALYSIS_ITERATIONS', 'ANALYSIS_WORKERS', 'ANALYSIS_POLL_SECONDS', 'WEBHOOK_POLL_MS', 'WEBHOOK_ALLOW_PRIVATE']) delete process.env[k];
    await app?.close();
  });

  it('analyses a finished private match for its players: 202 queued, then done; asking again gives the same result; others are refused', async () => {
    const rest = restTransport(app, () => undefined);
    const hook = await http()
      .post('/v1/webhooks')
      .set(auth(bob))
      .send({ url: 'http://127.0.0.1:9/hook', events: ['analysis_ready'] });
    expect(hook.status).toBe(201);
    const created = await rest.create(alice, {
      preset: 'scopa',
      overrides: { target: 1 },
      visibility: 'private',
      seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }],
    });
    const id = created.id as string;
    await rest.join(bob, id);
    await rest.start(alice, id);

    // Not over yet: refused, nothing queued.
    const early = await http().post(`/v1/matches/${id}/analysis`).set(auth(alice)).send({});
    expect([early.status, early.body.code]).toEqual([409, 'CONFLICT']);

    await playToEnd(rest, [alice, bob], id);

    const outsider = await http().post(`/v1/matches/${id}/analysis`).set(auth(carol)).send({});
    expect([outsider.status, outsider.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await http().get(`/v1/matches/${id}/analysis`).set(auth(alice))).status).toBe(404); // nobody asked yet

    // analysisProgress (graphql-ws) from before the request: queued, running with its share, done; then it ends.
    const client = createClient({ url: ws, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${bob.token}` }, retryAttempts: 0 });
    const progress: { status: string; share: number; done: number; total: number }[] = [];
    let subscribed!: () => void;
    const ready = new Promise<void>((r) => (subscribed = r));
    const ended = new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: 'subscription($m: ID!) { analysisProgress(matchId: $m) { matchId status done total share } }', variables: { m: id } },
        { next: (msg) => progress.push((msg.data as { analysisProgress: (typeof progress)[number] }).analysisProgress), error: reject, complete: resolve },
      );
      client.on('connected', () => setTimeout(subscribed, 300)); // the subscription is set up right after the connection
    });
    await ready;

    const asked = await http().post(`/v1/matches/${id}/analysis`).set(auth(alice)).send({});
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ matchId: id, analyzer: 'ismcts/1?iterations=8&exploration=2.5', result: null });
    expect(['queued', 'running']).toContain(asked.body.status);

    const done = await until(
      'the analysis',
      async () => (await http().get(`/v1/matches/${id}/analysis`).set(auth(bob))).body,
      (b) => b.status === 'done',
    );
    expect(done.share).toBe(1);
    await ended;
    await client.dispose();
    // Its first message is the analysis as it stood when it was set up (none yet: the request's queued).
    expect(['queued', 'running']).toContain(progress[0].status);
    expect(progress.at(-1)).toMatchObject({ status: 'done', share: 1, done: done.total, total: done.total });
    const running = progress.filter((p) => p.status === 'running');
    expect(running.length).toBeGreaterThan(0);
    for (const p of running) expect(p.share).toBeCloseTo(p.done / p.total, 2);
    expect(done.done).toBe(done.total);
    const result = done.result;
    expect(result.matchId).toBe(id);
    expect(result.analyzer).toMatchObject({ id: 'ismcts/1', budget: { iterationsPerOption: 8 } });
    expect(result.players.map((p: { player: string }) => p.player)).toEqual([alice.username, bob.username]);
    const plays = (await http().get(`/v1/matches/${id}/events?limit=1000`).set(auth(alice))).body.filter((e: { type: string }) => e.type === 'CardPlayed');
    expect(result.decisions.filter((d: { kind: string }) => d.kind === 'play').map((d: { seq: number }) => d.seq)).toEqual(
      plays.map((e: { seq: number }) => e.seq),
    );
    for (const d of result.decisions) {
      expect(d.options[d.played]).toBeDefined();
      expect(['best', 'good', 'inaccuracy', 'mistake', 'blunder']).toContain(d.class);
    }

    // Asked again, by either player: the same analysis, 200 with the result; nothing queued anew.
    const again = await http().post(`/v1/matches/${id}/analysis`).set(auth(bob)).send({});
    expect(again.status).toBe(200);
    expect(again.body).toEqual(done);
    const gqlAgain = await gqlOk(
      app,
      alice.token,
      'mutation($m: ID!) { requestAnalysis(matchId: $m) { status attempts result { decisions { seq loss class } players { player accuracy totalLoss } } } }',
      { m: id },
    );
    expect(gqlAgain.requestAnalysis.status).toBe('done');
    expect(gqlAgain.requestAnalysis.attempts).toBe(1);
    expect(gqlAgain.requestAnalysis.result.decisions).toEqual(
      result.decisions.map((d: { seq: number; loss: number; class: string }) => ({ seq: d.seq, loss: d.loss, class: d.class })),
    );
    const read = await gqlOk(app, bob.token, 'query($m: ID!) { analysis(matchId: $m) { status share result { players { player accuracy } } } }', { m: id });
    expect(read.analysis).toMatchObject({ status: 'done', share: 1 });
    expect(errorCode(await gql(app, carol.token, 'query($m: ID!) { analysis(matchId: $m) { status } }', { m: id }))).toBe('FORBIDDEN');

    // analysisReady went to the players: bob's webhook has its delivery.
    const deliveries = await until(
      'the analysis_ready delivery',
      async () => (await http().get(`/v1/webhooks/deliveries?webhookId=${hook.body.id}`).set(auth(bob))).body,
      (b) => Array.isArray(b) && b.length > 0,
      30_000,
    );
    expect(deliveries[0]).toMatchObject({ event: 'analysis_ready' });
  });

  it('an imported match is analysed like any other: its importer asks, the decisions are the imported log’s plays', async () => {
    // A public match played out here, exported, and given a new id unsigned (as a copy from elsewhere would
    // come), then imported by someone who did not play it.
    const m = (
      await http()
        .post('/v1/matches')
        .set(auth(alice))
        .send({
          preset: 'scopa',
          overrides: { target: 1 },
          seats: [
            { type: 'bot', bot: 'greedy' },
            { type: 'bot', bot: 'random' },
          ],
        })
    ).body;
    expect((await http().post(`/v1/matches/${m.id}/start`).set(auth(alice)).send({})).status).toBe(200);
    await until(
      'the bots’ match',
      async () => (await http().get(`/v1/matches/${m.id}`).set(auth(alice))).body.status,
      (s) => s === 'over',
    );
    const exported = await http().get(`/v1/matches/${m.id}/export`).set(auth(alice));
    expect(exported.status).toBe(200);
    const copyId = randomUUID();
    const copy = reissue(exported.text, { matchId: copyId });
    const imported = await http().post('/v1/matches/import').set(auth(carol)).set('content-type', 'text/plain').send(copy);
    expect(imported.status).toBe(201);
    const id = imported.body.id as string;
    expect(imported.body).toMatchObject({ sourceId: copyId, created: true, verified: false });

    const asked = await http().post(`/v1/matches/${id}/analysis`).set(auth(carol)).send({});
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ matchId: id, result: null });
    const done = await until(
      'the analysis of the imported match',
      async () => (await http().get(`/v1/matches/${id}/analysis`).set(auth(carol))).body,
      (b) => b.status === 'done' || b.status === 'failed',
    );
    expect(done.status).toBe('done');
    const plays = (await http().get(`/v1/matches/${id}/events?limit=1000`).set(auth(carol))).body.filter((e: { type: string }) => e.type === 'CardPlayed');
    expect(plays.length).toBeGreaterThan(0);
    expect(done.result.matchId).toBe(id);
    expect(done.result.decisions.filter((d: { kind: string }) => d.kind === 'play').map((d: { seq: number }) => d.seq)).toEqual(
      plays.map((e: { seq: number }) => e.seq),
    );
    expect(done.result.players).toHaveLength(2);
  });

  it('a public match is anyone’s to analyse; the queue is bounded per account (ANALYSIS_QUEUE_FULL) and asking twice is one job', async () => {
    const other = await createTestApp({ ANALYSIS_WORKERS: '0', ANALYSIS_QUEUE_PER_ACCOUNT: '1' });
    try {
      const o = () => request(other.getHttpServer());
      const dave = await register(other, 'and');
      const erin = await register(other, 'ane');
      // Two bots-only public matches, played by the bots to their end.
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const m = (
          await o()
            .post('/v1/matches')
            .set(auth(dave))
            .send({
              preset: 'scopa',
              overrides: { target: 1 },
              seats: [
                { type: 'bot', bot: 'greedy' },
                { type: 'bot', bot: 'greedy' },
              ],
            })
        ).body;
        expect((await o().post(`/v1/matches/${m.id}/start`).set(auth(dave)).send({})).status).toBe(200);
        ids.push(m.id);
      }
      for (const id of ids)
        await until(
          'the bots’ match',
          async () => (await o().get(`/v1/matches/${id}`).set(auth(dave))).body.status,
          (s) => s === 'over',
        );

      const first = await o().post(`/v1/matches/${ids[0]}/analysis`).set(auth(erin)).send({});
      expect([first.status, first.body.status]).toEqual([202, 'queued']);
      const twice = await o().post(`/v1/matches/${ids[0]}/analysis`).set(auth(erin)).send({});
      expect([twice.status, twice.body.status, twice.body.requestedAt]).toEqual([202, 'queued', first.body.requestedAt]);
      const full = await o().post(`/v1/matches/${ids[1]}/analysis`).set(auth(erin)).send({});
      expect([full.status, full.body.code, full.body.scope, full.body.limit]).toEqual([429, 'ANALYSIS_QUEUE_FULL', 'account', 1]);
      // Someone else's share is their own.
      expect((await o().post(`/v1/matches/${ids[1]}/analysis`).set(auth(dave)).send({})).status).toBe(202);
      const gqlFull = await gql(other, erin.token, 'mutation($m: ID!) { requestAnalysis(matchId: $m) { status } }', { m: ids[1] });
      expect(gqlFull.data?.requestAnalysis?.status ?? errorCode(gqlFull)).toBe('queued'); // dave queued it: erin gets the same job
    } finally {
      for (const k of ['ANALYSIS_WORKERS', 'ANALYSIS_QUEUE_PER_ACCOUNT']) delete process.env[k];
      await other.close();
    }
  });
});
