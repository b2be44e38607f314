/**
 * Per-account bounds on PostgreSQL with two instances on one database (no
 * Redis: the database alone arbitrates; docs/security.md "Per-account
 * bounds", docs/analysis.md; issue 42):
 * - 8 concurrent analysis requests of one account on 8 finished matches,
 *   through both instances: exactly ANALYSIS_QUEUE_PER_ACCOUNT (3) queued,
 *   three rounds;
 * - with 6 places left under ANALYSIS_QUEUE_MAX (12), 12 concurrent requests
 *   of 4 accounts through both: exactly 6 queued;
 * - 8 concurrent bots-only match creations of one account through both:
 *   exactly BOT_MATCHES_PER_ACCOUNT (3) made; 14 concurrent webhook
 *   creations: exactly 10;
 * - a 6-player bots-only scopa-fr match to 100 (about 4,500 decisions) is
 *   refused with 422 ANALYSIS_TOO_LARGE (default ANALYSIS_MAX_DECISIONS, 2000),
 *   nothing queued;
 * - an `npm run worker` process apart and no Redis: analysisProgress on both
 *   instances hears the job to its `done`, and analysisReady reaches the
 *   requester's event stream on both (LISTEN/NOTIFY).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { jest } from '@jest/globals';
import { createClient } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { openDatabase } from '../src/database/database';
import type { Database } from '../src/database/database';
import { MatchStore } from '../src/match-store/match-store';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { startInstance } from './support/instances';
import { openNdjson } from './support/ndjson-stream';
import { finishedMatch, until } from './support/analysis-fixtures';
import { freshPgDatabase } from './store/helpers';

jest.setTimeout(900_000);

type Instance = Awaited<ReturnType<typeof startInstance>>;
const auth = (a: Account) => ({ authorization: `Bearer ${a.token}` });

/** The two seats of a finished match, named after `tag`. */
const pair = (tag: string) => [`bpa${tag}`, `bpb${tag}`];

const QUEUE_ENV = { ANALYSIS_MAINTENANCE_SECONDS: '1', ANALYSIS_RETRY_DELAY_SECONDS: '1', ANALYSIS_POLL_SECONDS: '0.5', ANALYSIS_ITERATIONS: '8' };

function startWorker(url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/jobs/worker.js'], {
    env: { ...process.env, ...QUEUE_ENV, DATABASE_URL: url, ANALYSIS_WORKERS: '1', REDIS_URL: '', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffer = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      if (buffer.includes(' ready (')) resolve(child);
    });
  });
}

describe('per-account bounds on PostgreSQL, two instances', () => {
  let fresh: { url: string; drop(): Promise<void> };
  let db: Database;
  let store: MatchStore;
  let a: Instance;
  let b: Instance;
  let worker: ChildProcess | null = null;
  const via = (i: number) => request((i % 2 ? b : a).app.getHttpServer());

  beforeAll(async () => {
    fresh = await freshPgDatabase();
    db = await openDatabase({ url: fresh.url, poolSize: 4 });
    store = new MatchStore(db.prisma);
    // The instances run no analysis (ANALYSIS_WORKERS=0): what is queued stays queued until a worker process runs it.
    const env = { ...QUEUE_ENV, ANALYSIS_WORKERS: '0', ANALYSIS_QUEUE_MAX: '12', REDIS_URL: '', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '0' };
    a = await startInstance(fresh.url, { ...env, INSTANCE_ID: 'a' });
    b = await startInstance(fresh.url, { ...env, INSTANCE_ID: 'b' });
  });
  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker!.once('exit', r));
      worker.kill('SIGTERM');
      await exited;
    }
    await a?.app.close();
    await b?.app.close();
    await db?.close();
    await fresh?.drop();
  });

  it('8 concurrent analysis requests of one account through both instances: exactly 3 queued, three rounds', async () => {
    for (let round = 0; round < 3; round++) {
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push(await finishedMatch(store, pair(`r${round}m${i}`)));
      const who = await register(a.app, `bpr${round}`);
      const answers = await Promise.all(ids.map((id, i) => via(i).post(`/v1/matches/${id}/analysis`).set(auth(who)).send({})));
      expect(answers.map((r) => r.status).sort()).toEqual([202, 202, 202, 429, 429, 429, 429, 429]);
      for (const r of answers.filter((x) => x.status === 429)) expect([r.body.code, r.body.scope, r.body.limit]).toEqual(['ANALYSIS_QUEUE_FULL', 'account', 3]);
      const live = await db.pool!.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM match_analyses WHERE requested_by = $1 AND status IN ('queued', 'running')`,
        [who.username],
      );
      expect(live.rows[0].n).toBe(3);
      // Only the first two rounds stay queued (9 > 6 would leave no room for the total test): the third's are taken away.
      if (round === 2) await db.pool!.query(`UPDATE match_analyses SET status = 'failed', error = 'test' WHERE requested_by = $1`, [who.username]);
    }
  });

  it('with 6 places left under ANALYSIS_QUEUE_MAX (12), 12 concurrent requests of 4 accounts through both: exactly 6 queued', async () => {
    const live = await db.pool!.query<{ n: number }>(`SELECT count(*)::int AS n FROM match_analyses WHERE status IN ('queued', 'running')`);
    expect(live.rows[0].n).toBe(6);
    const accounts = await Promise.all([0, 1, 2, 3].map((i) => register(i % 2 ? b.app : a.app, `bpt${i}`)));
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await finishedMatch(store, pair(`t${i}`)));
    const answers = await Promise.all(
      ids.map((id, i) =>
        via(i)
          .post(`/v1/matches/${id}/analysis`)
          .set(auth(accounts[i % 4]))
          .send({}),
      ),
    );
    expect(answers.filter((r) => r.status === 202)).toHaveLength(6);
    for (const r of answers.filter((x) => x.status !== 202))
      expect([r.status, r.body.code, r.body.scope, r.body.limit]).toEqual([429, 'ANALYSIS_QUEUE_FULL', 'total', 12]);
    const after = await db.pool!.query<{ n: number }>(`SELECT count(*)::int AS n FROM match_analyses WHERE status IN ('queued', 'running')`);
    expect(after.rows[0].n).toBe(12);
  });

  it('8 concurrent bots-only match creations of one account through both instances: exactly 3 made (BOT_MATCHES_PER_ACCOUNT)', async () => {
    const erin = await register(a.app, 'bpbots');
    const body = {
      preset: 'scopa',
      seats: [
        { type: 'bot', bot: 'greedy' },
        { type: 'bot', bot: 'greedy' },
      ],
    };
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => via(i).post('/v1/matches').set(auth(erin)).send(body)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((x) => x.status === 409)) expect(r.body).toMatchObject({ code: 'LIMIT_REACHED', limit: 3 });
    const made = await db.pool!.query<{ n: number }>(`SELECT count(*)::int AS n FROM matches WHERE created_by = $1`, [erin.username]);
    expect(made.rows[0].n).toBe(3);
  });

  it('14 concurrent webhook creations of one account through both instances: exactly 10 made (MAX_WEBHOOKS)', async () => {
    const hal = await register(b.app, 'bphooks');
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        via(i)
          .post('/v1/webhooks')
          .set(auth(hal))
          .send({ url: `http://127.0.0.1:9/hook${i}`, events: ['your_turn'] }),
      ),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(10);
    for (const r of answers.filter((x) => x.status !== 201)) expect([r.status, r.body.code]).toEqual([409, 'CONFLICT']);
    expect((await request(a.app.getHttpServer()).get('/v1/webhooks').set(auth(hal))).body).toHaveLength(10);
  });

  it('a 6-player bots-only scopa-fr match to 100 is refused with 422 ANALYSIS_TOO_LARGE (ANALYSIS_MAX_DECISIONS 2000), nothing queued', async () => {
    const frank = await register(a.app, 'bpbig');
    const http = request(a.app.getHttpServer());
    const seats = Array.from({ length: 6 }, () => ({ type: 'bot', bot: 'greedy' }));
    const m = await http
      .post('/v1/matches')
      .set(auth(frank))
      .send({ preset: 'scopa-fr', overrides: { players: 6, target: 100 }, seats });
    expect(m.status).toBe(201);
    expect((await http.post(`/v1/matches/${m.body.id}/start`).set(auth(frank)).send({})).status).toBe(200);
    await until(
      'the bots’ match',
      async () => (await http.get(`/v1/matches/${m.body.id}`).set(auth(frank))).body.status,
      (s) => s === 'over',
      600_000,
    );
    const plays = (await db.pool!.query<{ n: number }>(`SELECT count(*)::int AS n FROM match_events WHERE match_id = $1 AND type = 'CardPlayed'`, [m.body.id]))
      .rows[0].n;
    expect(plays).toBeGreaterThan(2000);
    const before = (await db.pool!.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job`)).rows[0].n;
    for (const [i, g] of [
      [0, false],
      [1, true],
    ] as const) {
      if (!g) {
        const r = await via(i).post(`/v1/matches/${m.body.id}/analysis`).set(auth(frank)).send({});
        expect(r.status).toBe(422);
        expect(r.body).toMatchObject({ code: 'ANALYSIS_TOO_LARGE', limit: 2000, decisions: plays });
      } else {
        const r = await via(i)
          .post('/graphql')
          .set(auth(frank))
          .send({ query: 'mutation($m: ID!) { requestAnalysis(matchId: $m) { status } }', variables: { m: m.body.id } });
        expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'ANALYSIS_TOO_LARGE', status: 422, limit: 2000 });
      }
    }
    expect((await db.pool!.query(`SELECT 1 FROM match_analyses WHERE match_id = $1`, [m.body.id])).rowCount).toBe(0);
    expect((await db.pool!.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job`)).rows[0].n).toBe(before);
  });

  it('a worker process apart, no Redis: analysisProgress on both instances hears the job to done, analysisReady reaches the event stream on both', async () => {
    const gina = await register(b.app, 'bpready');
    const id = await finishedMatch(store, pair('ready'));
    // The queue is full from the tests above: their jobs are taken away (not this test's subject).
    await db.pool!.query(`DELETE FROM pgboss.job WHERE name LIKE 'analysis%'`);
    await db.pool!.query(`UPDATE match_analyses SET status = 'failed', error = 'test'`);
    const events = await Promise.all([a, b].map((x) => openNdjson(`${x.http}/v1/stream/events`, gina.token)));
    const follow = (x: Instance) => {
      const client = createClient({ url: x.ws, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${gina.token}` }, retryAttempts: 0 });
      const seen: { status: string; done: number; total: number; share: number }[] = [];
      let subscribed!: () => void;
      const ready = new Promise<void>((r) => (subscribed = r));
      const ended = new Promise<void>((resolve, reject) => {
        client.subscribe(
          { query: 'subscription($m: ID!) { analysisProgress(matchId: $m) { status done total share } }', variables: { m: id } },
          { next: (msg) => seen.push((msg.data as { analysisProgress: (typeof seen)[number] }).analysisProgress), error: reject, complete: resolve },
        );
        client.on('connected', () => setTimeout(subscribed, 300));
      });
      return { client, seen, ready, ended };
    };
    const followers = [follow(a), follow(b)];
    try {
      await Promise.all(followers.map((f) => f.ready));
      const asked = await request(a.app.getHttpServer()).post(`/v1/matches/${id}/analysis`).set(auth(gina)).send({});
      expect(asked.status).toBe(202);
      worker = await startWorker(fresh.url);
      await Promise.race([
        Promise.all(followers.map((f) => f.ended)),
        new Promise((_, reject) => setTimeout(() => reject(new Error('analysisProgress did not end')), 300_000)),
      ]);
      const row = await until(
        'the analysis row',
        async () => (await request(b.app.getHttpServer()).get(`/v1/matches/${id}/analysis`).set(auth(gina))).body,
        (x) => x.status === 'done',
      );
      for (const f of followers) {
        expect(f.seen.at(-1)).toEqual({ status: 'done', done: row.total, total: row.total, share: 1 });
        expect(f.seen.some((p) => p.status === 'running')).toBe(true);
      }
      for (const stream of events) {
        const notice = await stream.waitFor(
          (line) => (line as { type?: string }).type === 'analysisReady' && (line as { matchId?: string }).matchId === id,
          30_000,
        );
        expect(notice).toMatchObject({ type: 'analysisReady', matchId: id, analyzer: row.analyzer });
      }
    } finally {
      await Promise.all(followers.map((f) => f.client.dispose()));
      for (const s of events) s.close();
    }
  });
});
