/**
 * DATABASE_READ_URL on a real streaming standby (docs/operations.md "Read replicas"): a PostgreSQL 15 primary
 * (127.0.0.1:5460) and a hot standby of it (5461, pg_basebackup -R), and two built services on the primary:
 * `replica` (3220) with DATABASE_READ_URL set to the standby, `plain` (3221) without it.
 * - the lag-tolerant reads (archive pages, exports, profiles, leaderboards, crosstables, tournament listings)
 *   reach the standby (its log shows their statements under the replica pool's application_name); the play
 *   path and a player's own matches do not;
 * - with the standby's replay paused: listings lag on `replica` and not on `plain`; plays, own matches and
 *   a tournament's own view do not lag; a match that ends meanwhile is exported (audited sound), batch-exported,
 *   written in notation and analysed at once (the read falls back to the primary); an unfinished one is
 *   FORBIDDEN, never NOT_FOUND;
 * - without DATABASE_READ_URL nothing reaches the standby; with the standby gone, `replica` reads on the primary.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { auditJsonl, parseJsonl } from '../src/match-formats/export';
import { REPLICA_APPLICATION_NAME } from '../src/database/read-replica';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { playOneCardEach } from './support/play';
import { spawnInstance } from './support/process-instance';
import type { ProcessInstance } from './support/process-instance';
import { startStreamingStandby } from './support/streaming-standby';
import type { StreamingStandby } from './support/streaming-standby';
import { until } from './support/analysis-fixtures';

jest.setTimeout(180_000);

const PORTS = { primary: 5460, standby: 5461, replica: 3220, plain: 3221 };

/** What the test helpers need of an app: supertest takes the base URL of a process instance as it takes a server. */
const asApp = (instance: ProcessInstance) => ({ getHttpServer: () => instance.url }) as unknown as INestApplication;
const auth = (who: Account) => `Bearer ${who.token}`;

let pgs: StreamingStandby;
let replica: ProcessInstance;
let plain: ProcessInstance;
let ann: Account;
let bob: Account;

/**
 * The statements in the standby's log from `mark` on, as `application_name|LOG:  statement: ...` (or `execute ...`)
 * entries, a statement's further lines joined to its entry (the server writes each as it starts).
 */
function standbyStatements(mark: number): string[] {
  const entries: string[] = [];
  for (const line of pgs.standbyLog(mark).split('\n')) {
    if (/^[\w.-]*\|[A-Z]+: /.test(line)) entries.push(line);
    else if (entries.length) entries[entries.length - 1] += '\n' + line;
  }
  return entries.filter((e) => /^[\w.-]*\|LOG: {2}(statement|execute)/.test(e));
}

const replicaStatements = (mark: number) => standbyStatements(mark).filter((e) => e.startsWith(`${REPLICA_APPLICATION_NAME}|`));

/** Runs `fn`, then the standby statements it caused (after a moment for the server to write its log). */
async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const mark = pgs.standbyLogSize();
  await fn();
  await new Promise((r) => setTimeout(r, 150));
  return replicaStatements(mark);
}

async function twoPlayerMatch(on: ProcessInstance, rated: boolean): Promise<string> {
  const http = () => request(on.url);
  const created = await http()
    .post('/v1/matches')
    .set('authorization', auth(ann))
    .send({ preset: 'scopa', rated, seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  expect((await http().post(`/v1/matches/${id}/join`).set('authorization', auth(bob)).send({})).status).toBe(200);
  expect((await http().post(`/v1/matches/${id}/start`).set('authorization', auth(ann)).send({})).status).toBe(200);
  await playOneCardEach(asApp(on), [ann, bob], id);
  return id;
}

const resign = async (on: ProcessInstance, id: string) =>
  expect((await request(on.url).post(`/v1/matches/${id}/resign`).set('authorization', auth(bob)).send({})).status).toBe(200);

const archiveIds = async (on: ProcessInstance, who: Account) =>
  (await request(on.url).get(`/v1/users/${who.username}/matches?max=100`).expect(200)).body.matches.map((m: { id: string }) => m.id) as string[];

const tournamentIds = async (on: ProcessInstance) =>
  (await request(on.url).get('/v1/tournaments?first=100').set('authorization', auth(ann)).expect(200)).body.items.map((t: { id: string }) => t.id) as string[];

const games = async (on: ProcessInstance, who: Account) =>
  ((await request(on.url).get(`/v1/users/${who.username}`).expect(200)).body.ratings as { games: number }[]).reduce((n, r) => n + r.games, 0);

beforeAll(async () => {
  pgs = await startStreamingStandby({ primary: PORTS.primary, standby: PORTS.standby });
  const common = { DATABASE_URL: pgs.primaryUrl, JWT_SECRET: 'read-replica-suite', ANALYSIS_ITERATIONS: '20', REDIS_URL: '' };
  replica = await spawnInstance({ ...common, DATABASE_READ_URL: pgs.standbyUrl, PORT: String(PORTS.replica) });
  // The analyses run on `replica` (its input read is under test); `plain` leaves them.
  plain = await spawnInstance({ ...common, DATABASE_READ_URL: '', ANALYSIS_WORKERS: '0', ANALYSIS_LARGE_WORKERS: '0', PORT: String(PORTS.plain) });
  ann = await register(asApp(replica), 'rra');
  bob = await register(asApp(replica), 'rrb');
  await pgs.caughtUp();
});

afterAll(async () => {
  await replica?.stop();
  await plain?.stop();
  await pgs?.stop();
});

describe('DATABASE_READ_URL on a streaming standby', () => {
  let finished: string;

  it('serves the lag-tolerant reads from the standby, and neither the play path nor own matches', async () => {
    finished = await twoPlayerMatch(replica, true);
    await resign(replica, finished);
    await until(
      'the ratings of the finished match',
      () => games(plain, ann),
      (n) => n === 1,
      30_000,
    );
    await pgs.caughtUp();
    const t = await request(replica.url)
      .post('/v1/tournaments')
      .set('authorization', auth(ann))
      .send({ name: 'replica cup', format: 'swiss', preset: 'scopa', overrides: { target: 1 }, rounds: 1 })
      .expect(201);
    await pgs.caughtUp();

    const http = () => request(replica.url);
    const reads: [string, () => Promise<unknown>, RegExp][] = [
      ['archive page', () => http().get(`/v1/users/${ann.username}/matches`).expect(200), /match_players/],
      [
        'archive stream with exports',
        () => http().get(`/v1/users/${ann.username}/matches?withEvents=true`).set('accept', 'application/x-ndjson').expect(200),
        /match_events/,
      ],
      ['export', () => http().get(`/v1/matches/${finished}/export`).set('authorization', auth(ann)).expect(200), /match_events/],
      [
        'batch export',
        () =>
          http()
            .post('/v1/matches/export')
            .set('authorization', auth(ann))
            .send({ ids: [finished] })
            .expect(200),
        /match_events/,
      ],
      ['profile', () => http().get(`/v1/users/${ann.username}`).expect(200), /"ratings"/],
      ['rating history', () => http().get(`/v1/users/${ann.username}/rating-history?ruleset=scopa`).expect(200), /"rating_changes"/],
      ['leaderboard', () => http().get('/v1/leaderboard/scopa').expect(200), /"ratings"/],
      ['crosstable', () => http().get(`/v1/crosstable/${ann.username}/${bob.username}`).expect(200), /rating_changes/],
      ['tournament listing', () => http().get('/v1/tournaments').expect(200), /tournaments/],
    ];
    const missed: string[] = [];
    for (const [name, read, table] of reads) {
      const statements = await statementsOf(read);
      if (!statements.some((s) => table.test(s))) missed.push(`${name}: ${JSON.stringify(statements).slice(0, 300)}`);
    }
    expect(missed).toEqual([]);

    // The play path, a player's own matches and a tournament's own view: none of it on the standby.
    const onPlayPath = await statementsOf(async () => {
      const id = await twoPlayerMatch(replica, false);
      await http().get(`/v1/matches/${id}`).set('authorization', auth(ann)).expect(200);
      await http().get('/v1/matches').set('authorization', auth(ann)).expect(200);
      await http().get(`/v1/tournaments/${t.body.id}`).expect(200);
      await resign(replica, id);
    });
    expect(onPlayPath).toEqual([]);
  });

  it('without DATABASE_READ_URL nothing reaches the standby', async () => {
    const connections = await pgs.query<{ application_name: string }>(
      'standby',
      `SELECT application_name FROM pg_stat_activity WHERE backend_type = 'client backend'`,
    );
    expect(connections.map((c) => c.application_name)).toContain(REPLICA_APPLICATION_NAME);
    const mark = pgs.standbyLogSize();
    const http = () => request(plain.url);
    await http().get(`/v1/users/${ann.username}/matches`).expect(200);
    await http().get(`/v1/matches/${finished}/export`).set('authorization', auth(ann)).expect(200);
    await http().get(`/v1/users/${ann.username}`).expect(200);
    await http().get('/v1/tournaments').expect(200);
    await new Promise((r) => setTimeout(r, 150));
    expect(standbyStatements(mark)).toEqual([]);
  });

  it('while the standby does not replay: listings lag, plays and own matches do not, and a match that ends is exported at once', async () => {
    await pgs.pauseReplay();
    try {
      const http = () => request(replica.url);
      const archived = await archiveIds(replica, ann);
      const gamesBefore = await games(replica, ann);

      // a new tournament: listed at once without the replica, not yet with it; its own view is the primary's
      const t = (
        await http()
          .post('/v1/tournaments')
          .set('authorization', auth(ann))
          .send({ name: 'paused cup', format: 'swiss', preset: 'scopa', overrides: { target: 1 }, rounds: 1 })
          .expect(201)
      ).body;
      expect(await tournamentIds(plain)).toContain(t.id);
      expect(await tournamentIds(replica)).not.toContain(t.id);
      expect((await http().get(`/v1/tournaments/${t.id}`).expect(200)).body.name).toBe('paused cup');

      // the play path and own matches: current
      const id = await twoPlayerMatch(replica, true);
      const mine = (await http().get('/v1/matches').set('authorization', auth(ann)).expect(200)).body as { id: string; status: string; currentSeq: number }[];
      const live = (await http().get(`/v1/matches/${id}`).set('authorization', auth(ann)).expect(200)).body;
      expect(mine.find((m) => m.id === id)).toMatchObject({ status: 'playing', currentSeq: live.seq });
      // not over: FORBIDDEN (the standby has never heard of it: never a 404)
      const early = await http().get(`/v1/matches/${id}/export`).set('authorization', auth(ann));
      expect([early.status, early.body.code]).toEqual([403, 'FORBIDDEN']);

      // it ends; read right away
      await resign(replica, id);
      const exported = await http().get(`/v1/matches/${id}/export`).set('authorization', auth(ann)).expect(200);
      expect(auditJsonl(exported.text)).toMatchObject({ sound: true });
      const { header, events } = parseJsonl(exported.text);
      expect(header.matchId).toBe(id);
      expect(events[events.length - 1].type).toBe('MatchEnded');
      expect(header.seed).toMatch(/^[0-9a-f]{64}$/);
      const reference = await request(plain.url).get(`/v1/matches/${id}/export`).set('authorization', auth(ann)).expect(200);
      expect(parseJsonl(reference.text).events).toEqual(events);
      const notation = await http().get(`/v1/matches/${id}/export`).set('authorization', auth(ann)).set('accept', 'text/plain').expect(200);
      expect(notation.text).toContain(id);
      const batch = await http()
        .post('/v1/matches/export')
        .set('authorization', auth(ann))
        .send({ ids: [id, finished] })
        .expect(200);
      const lines = batch.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; export?: string; error?: unknown });
      expect(lines.map((l) => [l.id, typeof l.export === 'string' && auditJsonl(l.export).sound])).toEqual([
        [id, true],
        [finished, true],
      ]);

      // its analysis reads the log the standby does not have yet
      const asked = await http().post(`/v1/matches/${id}/analysis`).set('authorization', auth(ann));
      expect([200, 202]).toContain(asked.status);
      const analysis = await until(
        'the analysis',
        async () => (await http().get(`/v1/matches/${id}/analysis`).set('authorization', auth(ann))).body,
        (a) => a.status === 'done' || a.status === 'failed',
        60_000,
      );
      expect(analysis.status).toBe('done');
      expect(analysis.result.decisions.length).toBeGreaterThan(0);

      // the listings and the profile lag (a little lag is accepted there); without the replica they do not
      await until(
        'the ratings of the new match',
        () => games(plain, ann),
        (n) => n === gamesBefore + 1,
        30_000,
      );
      expect(await games(replica, ann)).toBe(gamesBefore);
      expect(await archiveIds(plain, ann)).toContain(id);
      expect(await archiveIds(replica, ann)).toEqual(archived);

      await pgs.resumeReplay();
      await pgs.caughtUp();
      expect(await archiveIds(replica, ann)).toContain(id);
      expect(await tournamentIds(replica)).toContain(t.id);
      expect(await games(replica, ann)).toBe(gamesBefore + 1);
    } finally {
      await pgs.resumeReplay().catch(() => undefined);
    }
  });

  it('measures how soon a write shows in a listing read from the standby', async () => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = (
        await request(replica.url)
          .post('/v1/tournaments')
          .set('authorization', auth(ann))
          .send({ name: `lag ${i}`, format: 'swiss', preset: 'scopa', overrides: { target: 1 }, rounds: 1 })
          .expect(201)
      ).body;
      const from = performance.now();
      await until(
        'the new tournament in the listing',
        () => tournamentIds(replica),
        (ids) => ids.includes(t.id),
        10_000,
        2,
      );
      times.push(performance.now() - from);
    }
    const [lag] = await pgs.query<{ replay_lag: string | null }>('primary', 'SELECT replay_lag::text FROM pg_stat_replication');
    process.stdout.write(`replica_listing_visible_ms=${times.map((t) => t.toFixed(1)).join(',')} pg_stat_replication.replay_lag=${lag?.replay_lag}\n`);
    expect(Math.max(...times)).toBeLessThan(5_000);
  });

  it('with the standby gone, the lag-tolerant reads are answered by the primary', async () => {
    await pgs.stopStandby();
    const http = () => request(replica.url);
    expect(await archiveIds(replica, ann)).toEqual(await archiveIds(plain, ann));
    await http().get(`/v1/matches/${finished}/export`).set('authorization', auth(ann)).expect(200);
    expect(await games(replica, ann)).toBe(await games(plain, ann));
    expect(await tournamentIds(replica)).toEqual(await tournamentIds(plain));
  });
});
