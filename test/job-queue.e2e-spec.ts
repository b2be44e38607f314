/**
 * The one job queue (src/jobs) on the embedded database: the SQL writer the
 * append's trigger and the service's transactions use (scopa_enqueue_job)
 * writes the row pg-boss's own send writes, with the id both sides compute;
 * a job committed with its cause runs once; a job that fails for good is
 * kept with its error and listed; the depth and age per kind are read, and
 * shown on /metrics with the retries and failures for good.
 */
import { jest } from '@jest/globals';
import { openDatabase } from '../src/database/database';
import type { Database } from '../src/database/database';
import { jobDatabase } from '../src/jobs/job-database';
import { jobId } from '../src/jobs/job-ids';
import { JobQueue } from '../src/jobs/job-queue';
import type { Job } from '../src/jobs/job-queue';
import { enqueueInTransaction } from '../src/jobs/enqueue';
import { JOB_KIND_NAMES } from '../src/jobs/job-kinds';
import { JobMetrics } from '../src/jobs/job-metrics';
import { MetricsService } from '../src/observability/metrics.service';
import { pgliteTemplate } from './support/pglite-template';

jest.setTimeout(60_000);

const COLUMNS =
  'name, data, priority, state, retry_limit, retry_count, retry_delay, retry_backoff, singleton_key, singleton_on, expire_in::text AS expire_in, dead_letter, policy';

describe('the job queue (PGlite)', () => {
  let db: Database;
  let queue: JobQueue;
  let metrics: MetricsService;

  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory', loadDataDir: await pgliteTemplate() });
    queue = new JobQueue(jobDatabase(db), { workers: false, pollingSeconds: 0.5, maintenanceSeconds: 30 });
    await queue.start();
    metrics = new MetricsService();
    new JobMetrics(metrics, queue);
  });
  afterAll(async () => {
    await queue?.stop();
    await db?.close();
  });

  it('has a queue for every kind, and pg-boss at the schema version scopa_enqueue_job mirrors (24)', async () => {
    const names = (await db.prisma.$queryRawUnsafe<{ name: string }[]>('SELECT name FROM pgboss.queue ORDER BY name')).map((r) => r.name);
    expect(names).toEqual([...JOB_KIND_NAMES].sort());
    expect(await db.prisma.$queryRawUnsafe('SELECT version FROM pgboss.version')).toEqual([{ version: 24 }]);
  });

  it('computes the same job id in SQL and in TypeScript', async () => {
    const rows = await db.prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT scopa_job_id('match-rating', 'abc:7')::text AS id`);
    expect(rows[0].id).toBe(jobId('match-rating', 'abc:7'));
  });

  it('writes in SQL the row boss.send writes (the queue policy, retention, expiry), and the same key twice is one job', async () => {
    const viaSql = jobId('tournament-result', 'sql:1');
    const viaBoss = jobId('tournament-result', 'boss:1');
    expect(await db.prisma.$transaction((tx) => enqueueInTransaction(tx, 'tournament-result', 'sql:1', { matchId: 'm' }))).toBe(true);
    expect(await db.prisma.$transaction((tx) => enqueueInTransaction(tx, 'tournament-result', 'sql:1', { matchId: 'm' }))).toBe(false);
    await queue.send('tournament-result', { matchId: 'm' }, { id: viaBoss });
    const read = (id: string) =>
      db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(
        `SELECT ${COLUMNS}, (keep_until - start_after)::text AS kept, abs(extract(epoch from start_after - created_on)) < 5 AS now_ish FROM pgboss.job WHERE id = $1::uuid`,
        id,
      );
    const [a] = await read(viaSql);
    const [b] = await read(viaBoss);
    expect(a).toBeDefined();
    expect(a).toEqual(b);
    expect(a).toMatchObject({ retry_limit: 10, retry_delay: 1, retry_backoff: true, policy: 'standard', state: 'created' });
  });

  it('a job queued by a transaction that rolls back does not exist', async () => {
    await expect(
      db.prisma.$transaction(async (tx) => {
        await enqueueInTransaction(tx, 'match-rating', 'rolled:1', {});
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await queue.state('match-rating', jobId('match-rating', 'rolled:1'))).toBeNull();
  });

  it('runs a due job once; a job still waiting for its start time is not run; a failing job is retried, then kept failed with its error', async () => {
    const seen: string[] = [];
    let failures = 0;
    await queue.handle<{ n: number }>('match-deadline', async (job: Job<{ n: number }>) => {
      if (job.data.n === 3) {
        failures++;
        throw new Error('the receiver is down');
      }
      seen.push(`n${job.data.n}`);
    });
    await queue.send('match-deadline', { n: 1 }, { id: jobId('match-deadline', 'one') });
    await queue.send('match-deadline', { n: 1 }, { id: jobId('match-deadline', 'one') });
    await queue.send('match-deadline', { n: 2 }, { id: jobId('match-deadline', 'later'), startAfter: new Date(Date.now() + 3_600_000) });
    expect(await queue.runDue('match-deadline')).toEqual(['completed']);
    expect(await queue.runDue('match-deadline')).toEqual([]);
    expect(seen).toEqual(['n1']);

    // A kind with no retry delay to wait for: its policy says 0 retries here.
    await db.prisma.$executeRawUnsafe(`UPDATE pgboss.queue SET retry_limit = 1, retry_delay = 0, retry_backoff = false WHERE name = 'match-deadline'`);
    await queue.send('match-deadline', { n: 3 }, { id: jobId('match-deadline', 'bad') });
    expect(await queue.runDue('match-deadline')).toEqual(['failed']);
    expect(await queue.state('match-deadline', jobId('match-deadline', 'bad'))).toBe('retry');
    expect(await queue.runDue('match-deadline')).toEqual(['failed']);
    expect(failures).toBe(2);
    expect(await queue.state('match-deadline', jobId('match-deadline', 'bad'))).toBe('failed');
    const failed = await queue.failed({ limit: 10 });
    expect(failed).toEqual([
      expect.objectContaining({ id: jobId('match-deadline', 'bad'), kind: 'match-deadline', state: 'failed', data: { n: 3 }, retryCount: 1, retryLimit: 1 }),
    ]);
    expect(JSON.stringify(failed[0].error)).toContain('the receiver is down');

    const stats = await queue.stats();
    expect(stats.map((s) => s.kind)).toEqual(JOB_KIND_NAMES);
    expect(stats.find((s) => s.kind === 'match-deadline')).toMatchObject({ waiting: 1, active: 0, failed: 1 });
    expect(stats.find((s) => s.kind === 'tournament-result')).toMatchObject({ waiting: 2 });
    expect(stats.find((s) => s.kind === 'tournament-result')!.oldestWaitingSeconds).toBeGreaterThanOrEqual(0);

    // /metrics: the queue's figures per kind, and this process's retries and failures for good.
    const text = await metrics.render();
    expect(text).toContain('scopa_jobs_failed{kind="match-deadline"} 1');
    expect(text).toContain('scopa_jobs_waiting{kind="match-deadline"} 1');
    expect(text).toContain('scopa_jobs_waiting{kind="tournament-result"} 2');
    expect(text).toContain('scopa_job_retries_total{kind="match-deadline"} 1');
    expect(text).toContain('scopa_job_failures_total{kind="match-deadline"} 1');
    expect(text).toMatch(/scopa_jobs_oldest_waiting_seconds\{kind="tournament-result"\} [0-9.e-]+/);
  });

  it('waitingBefore orders by creation time to the microsecond, then by the uuid of the named data field, as ratings:rebuild does', async () => {
    // Four rating jobs ended within one millisecond: a JS Date (milliseconds) cannot tell them apart, nor the job ids (hashes) a tie.
    const ids = {
      early: '00000000-0000-4000-8000-00000000000c',
      tieLow: '00000000-0000-4000-8000-00000000000a',
      tieHigh: '00000000-0000-4000-8000-00000000000b',
      later: '00000000-0000-4000-8000-000000000001',
    };
    const at: Record<keyof typeof ids, string> = {
      early: '2026-12-02 10:00:00.000100+00',
      tieLow: '2026-12-02 10:00:00.000500+00',
      tieHigh: '2026-12-02 10:00:00.000500+00',
      later: '2026-12-02 10:00:00.000900+00',
    };
    for (const [name, matchId] of Object.entries(ids) as [keyof typeof ids, string][]) {
      await db.prisma.$transaction((tx) => enqueueInTransaction(tx, 'match-rating', `order:${name}`, { matchId, seq: 9 }));
      await db.prisma.$executeRawUnsafe(
        `UPDATE pgboss.job SET created_on = $1::timestamptz WHERE id = $2::uuid`,
        at[name],
        jobId('match-rating', `order:${name}`),
      );
    }
    const job = (name: keyof typeof ids): Job<{ matchId: string }> => ({
      id: jobId('match-rating', `order:${name}`),
      name: 'match-rating',
      data: { matchId: ids[name] },
      retryCount: 0,
      retryLimit: 10,
      createdOn: new Date('2026-12-02T10:00:00.000Z'),
    });
    const before = async (name: keyof typeof ids) => (await queue.waitingBefore(job(name), 'matchId')).map((j) => j.data.matchId);
    expect(await before('later')).toEqual([ids.early, ids.tieLow, ids.tieHigh]);
    expect(await before('tieHigh')).toEqual([ids.early, ids.tieLow]);
    expect(await before('tieLow')).toEqual([ids.early]);
    expect(await before('early')).toEqual([]);
    // PGlite has one session: no other transaction is open, so the writes before any job have settled at once.
    await queue.writesSettledBefore(job('later'), 1000);
    await db.prisma.$executeRawUnsafe(`DELETE FROM pgboss.job WHERE name = 'match-rating' AND data->>'seq' = '9'`);
  });
});

describe('a worker woken at a due time (PGlite)', () => {
  let db: Database;
  let queue: JobQueue;

  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory', loadDataDir: await pgliteTemplate() });
    // Its workers poll every 30 s: only the wake-up can run the job within the test's bound.
    queue = new JobQueue(jobDatabase(db), { workers: true, pollingSeconds: 30, maintenanceSeconds: 30 });
  });
  afterAll(async () => {
    await queue?.stop();
    await db?.close();
  });

  it('runs a job at its start time when wakeAt names it, with no poll in between', async () => {
    const ran: number[] = [];
    await queue.handle('match-deadline', async () => {
      ran.push(Date.now());
    });
    await queue.start();
    // The workers' first fetch (at start) found nothing: they now wait 30 s.
    await new Promise((r) => setTimeout(r, 300));
    const due = new Date(Date.now() + 1500);
    await queue.send('match-deadline', { matchId: 'woken' }, { id: jobId('match-deadline', 'woken'), startAfter: due });
    queue.wakeAt('match-deadline', due);
    for (const until = Date.now() + 10_000; ran.length === 0 && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
    expect(ran).toHaveLength(1);
    expect(ran[0]).toBeGreaterThanOrEqual(due.getTime());
    expect(ran[0] - due.getTime()).toBeLessThan(1000);
  });
});
