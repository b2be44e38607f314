/**
 * Analysis workers on PostgreSQL (docs/analysis.md): the service queues the
 * jobs (ANALYSIS_WORKERS=0 there), `npm run worker` processes run them.
 * - a finished match is analysed through the API, asked twice: one result;
 * - two worker processes share 20 queued analyses, each done exactly once;
 * - a worker SIGKILLed mid-job: its job times out, is retried by the other
 *   worker and done once.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { openDatabase } from '../src/database/database';
import type { Database } from '../src/database/database';
import { MatchStore } from '../src/match-store/match-store';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { startInstance } from './support/instances';
import { finishedMatch, until } from './support/analysis-fixtures';
import { freshPgDatabase } from './store/helpers';

jest.setTimeout(600_000);

// Jobs time out after 60 s (a worker killed mid-job); the short analyses here take well under a second, the long one
// about 10 s (up to 30 s under load).
/** The two seats of a finished match, named after `i`. */
const pair = (i: number) => [`pga${i}`, `pgb${i}`];

const QUEUE_ENV = { ANALYSIS_JOB_TIMEOUT_SECONDS: '60', ANALYSIS_MAINTENANCE_SECONDS: '1', ANALYSIS_RETRY_DELAY_SECONDS: '1', ANALYSIS_POLL_SECONDS: '0.5' };

interface Worker {
  child: ChildProcess;
  lines: string[];
  done: string[];
}

function startWorker(url: string): Promise<Worker> {
  const child = spawn(process.execPath, ['dist/jobs/worker.js'], {
    env: { ...process.env, ...QUEUE_ENV, DATABASE_URL: url, ANALYSIS_WORKERS: '1', REDIS_URL: '', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const w: Worker = { child, lines: [], done: [] };
  let buffer = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        w.lines.push(line);
        const m = /^analysis (\S+) of match \S+ done by/.exec(line);
        if (m) w.done.push(m[1]);
        if (line.includes('ready')) resolve(w);
      }
    });
  });
}

async function stopWorker(w: Worker): Promise<void> {
  if (w.child.exitCode !== null || w.child.signalCode !== null) return;
  const exited = new Promise((r) => w.child.once('exit', r));
  w.child.kill('SIGTERM');
  await exited;
}

describe('analysis workers on PostgreSQL', () => {
  let fresh: { url: string; drop(): Promise<void> };
  let db: Database;
  let store: MatchStore;
  let app: INestApplication;
  let alice: Account;
  const workers: Worker[] = [];
  const http = () => request(app.getHttpServer());
  const auth = () => ({ authorization: `Bearer ${alice.token}` });
  const rows = async () =>
    (
      await db.pool!.query<{ id: string; match_id: string; status: string; attempts: number; finished_by: string | null; analyzer: string }>(
        'SELECT id::text, match_id::text, status, attempts, finished_by, analyzer FROM match_analyses',
      )
    ).rows;

  beforeAll(async () => {
    fresh = await freshPgDatabase();
    db = await openDatabase({ url: fresh.url, poolSize: 4 });
    store = new MatchStore(db.prisma);
    // The service queues, the workers run: nothing runs in the service (ANALYSIS_WORKERS=0).
    ({ app } = await startInstance(fresh.url, { ...QUEUE_ENV, ANALYSIS_WORKERS: '0', ANALYSIS_ITERATIONS: '8', ANALYSIS_QUEUE_PER_ACCOUNT: '50' }));
    alice = await register(app, 'pgan');
  });
  afterAll(async () => {
    await Promise.all(workers.map(stopWorker));
    await app?.close();
    await db?.close();
    await fresh?.drop();
  });

  it('two worker processes share 20 queued analyses, each done exactly once; asking again gives the same result', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await finishedMatch(store, pair(i)));
    for (const id of ids) {
      const res = await http().post(`/v1/matches/${id}/analysis`).set(auth()).send({});
      expect([res.status, res.body.status]).toEqual([202, 'queued']);
    }
    workers.push(await startWorker(fresh.url), await startWorker(fresh.url));
    await until('20 analyses done', rows, (r) => r.length === 20 && r.every((x) => x.status === 'done'));
    const all = await rows();
    // Exactly once: one result line per analysis over both workers, one run each, and both workers took a share.
    const done = workers.flatMap((w) => w.done);
    expect(done.sort()).toEqual(all.map((r) => r.id).sort());
    expect(all.every((r) => r.attempts === 1)).toBe(true);
    expect(workers.every((w) => w.done.length > 0)).toBe(true);
    expect(new Set(all.map((r) => r.finished_by)).size).toBe(2);

    const first = await http().get(`/v1/matches/${ids[0]}/analysis`).set(auth());
    expect(first.body.status).toBe('done');
    const again = await http().post(`/v1/matches/${ids[0]}/analysis`).set(auth()).send({});
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('a worker killed mid-job leaves its job to be retried by the other, and done once', async () => {
    const id = await finishedMatch(store, pair(99));
    // A longer analysis (another analyzer key): long enough to be killed in the middle of it.
    const { app: slow } = await startInstance(fresh.url, { ...QUEUE_ENV, ANALYSIS_WORKERS: '0', ANALYSIS_ITERATIONS: '2000' });
    try {
      const bob = await register(slow, 'pgslow');
      const [a, b] = workers;
      // Only worker A is running when the job is queued...
      await stopWorker(b);
      const asked = await request(slow.getHttpServer())
        .post(`/v1/matches/${id}/analysis`)
        .set({ authorization: `Bearer ${bob.token}` })
        .send({});
      expect(asked.status).toBe(202);
      const running = await until(
        'the analysis under way on A',
        async () => (await rows()).find((r) => r.match_id === id && r.analyzer.includes('iterations=2000')),
        (r) => r !== undefined && r.status !== 'queued',
      );
      expect(running!.status).toBe('running');
      await until(
        'some progress',
        async () => (await db.pool!.query<{ done: number }>('SELECT done FROM match_analyses WHERE id = $1', [running!.id])).rows[0].done,
        (n) => n > 0,
      );
      expect((await rows()).find((r) => r.id === running!.id)!.status).toBe('running');
      // ... then A dies mid-job, and another worker comes up.
      a.child.kill('SIGKILL');
      await new Promise((r) => a.child.once('exit', r));
      const c = await startWorker(fresh.url);
      workers.push(c);
      const row = await until(
        'the retried analysis',
        async () => (await rows()).find((r) => r.id === running!.id)!,
        (r) => r.status === 'done',
      );
      expect(row.attempts).toBe(2);
      expect(a.done).not.toContain(row.id);
      expect(c.done.filter((x) => x === row.id)).toHaveLength(1);
      expect(row.finished_by).toBe(c.lines.find((l) => l.includes('ready'))!.split(' ')[2]);
    } finally {
      await slow.close();
    }
  });
});
