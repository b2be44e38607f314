/**
 * Exactly-once clock expiries with two schedulers racing on one database and
 * one job queue, written once: on PGlite in npm test
 * (test/clock-race.e2e-spec.ts, one process, two stores, schedulers and
 * pg-boss instances over one client), on PostgreSQL in npm run test:pg
 * (test/clock-race.pg-spec.ts, two connection pools: two instances as far as
 * the database can tell). The deadlines are 'match-deadline' jobs
 * (src/clocks/clock-scheduler.ts): pg-boss hands a job to one worker, a job
 * whose worker died is retried elsewhere once it expires, and the append's
 * seq guard and command key make even a double run append once.
 */
import type { Prisma } from '../../src/database/database';
import { ClockScheduler } from '../../src/clocks/clock-scheduler';
import type { ExpiryOutcome } from '../../src/clocks/clock-scheduler';
import { PENDING_START_SQL } from '../../src/clocks/pending-starts';
import type { Command } from '../../src/engine';
import type { JobDatabase } from '../../src/jobs/job-database';
import { JobQueue } from '../../src/jobs/job-queue';
import { MatchArchive } from '../../src/match-store/match-archive';
import { MatchStore } from '../../src/match-store/match-store';
import type { CommandResult, ExecuteOptions } from '../../src/match-store/match-store';

export interface RaceDatabase {
  /** Two clients of one database (may be the same client), and the job queue's access through each. */
  a: Prisma;
  b: Prisma;
  jobsA: JobDatabase;
  jobsB: JobDatabase;
  matches: number;
  close(): Promise<void>;
}

async function timedMatch(store: MatchStore, onExpiry: 'autoPlay' | 'forfeit'): Promise<{ id: string; seq: number }> {
  const created = await store.create({
    preset: 'scopa',
    seats: [{ player: 'ann' }, { player: 'bob' }],
    createdBy: 'ann',
    settings: { turnTimeLimit: 'PT1H', onExpiry },
  });
  const started = await store.execute(created.matchId, { type: 'start', player: 'ann' }, { actor: 'ann' });
  return { id: created.matchId, seq: started.seq };
}

/** A store whose commands wait until released: the worker that runs a job through it "dies" mid-job, holding it. */
class HeldStore extends MatchStore {
  private release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  private enter!: () => void;
  /** Resolves once a command is waiting at the gate. */
  readonly entered = new Promise<void>((resolve) => (this.enter = resolve));

  override async execute(matchId: string, command: Command, options: ExecuteOptions): Promise<CommandResult> {
    this.enter();
    await this.gate;
    return super.execute(matchId, command, options);
  }

  resume(): void {
    this.release();
  }
}

const jobIdOf = (db: Prisma, matchId: string) =>
  db.$queryRawUnsafe<{ id: string; state: string }[]>(
    `SELECT id::text, state::text FROM pgboss.job WHERE name = 'match-deadline' AND data->>'matchId' = $1`,
    matchId,
  );

export function describeClockRace(name: string, open: () => Promise<RaceDatabase>): void {
  describe(`turn clocks: exactly-once expiry with two schedulers on one job queue (${name})`, () => {
    let db: RaceDatabase;
    let storeA: MatchStore;
    let storeB: MatchStore;
    const queues: JobQueue[] = [];
    /** A pg-boss instance of its own (an instance's queue), running jobs only when a tick asks; `maintains`: it also fails expired jobs back, every second. */
    const queue = (jobs: JobDatabase, maintains = false) => {
      const q = new JobQueue(jobs, { workers: false, pollingSeconds: 0.5, maintenanceSeconds: 1, supervise: maintains });
      queues.push(q);
      return q;
    };
    beforeAll(async () => {
      db = await open();
      storeA = new MatchStore(db.a);
      storeB = new MatchStore(db.b);
    });
    afterAll(async () => {
      for (const q of queues) await q.stop();
      await db?.close();
    });

    const expireAll = (ids: string[]) =>
      db.a.$executeRawUnsafe(`UPDATE match_clocks SET deadline = now() - interval '1 second' WHERE match_id = ANY($1::uuid[])`, ids);

    it('every due deadline is handled once, whichever scheduler runs its job', async () => {
      const matches = [];
      for (let i = 0; i < db.matches; i++) matches.push(await timedMatch(storeA, i % 2 === 0 ? 'autoPlay' : 'forfeit'));
      await expireAll(matches.map((m) => m.id));
      const schedA = new ClockScheduler(db.a, storeA, { jobs: queue(db.jobsA), batch: 3, workers: 0 });
      const schedB = new ClockScheduler(db.b, storeB, { jobs: queue(db.jobsB), batch: 3, workers: 0 });
      const run = async (s: ClockScheduler) => {
        const outcomes: ExpiryOutcome[] = [];
        for (let idle = 0; idle < 2;) {
          const got = await s.tick();
          outcomes.push(...got);
          idle = got.length === 0 ? idle + 1 : 0;
        }
        return outcomes;
      };
      const [oa, ob] = await Promise.all([run(schedA), run(schedB)]);
      const all = [...oa, ...ob];
      expect(all.filter((o) => o === 'error')).toEqual([]);
      expect(all.filter((o) => o === 'expired')).toHaveLength(matches.length);
      for (const [i, m] of matches.entries()) {
        const after = await storeA.eventsFrom(m.id, m.seq + 1, 1000);
        if (i % 2 === 0) {
          expect(after.filter((e) => e.type === 'CardPlayed' && e.payload.auto === true)).toHaveLength(1);
          expect(after[0]).toMatchObject({ type: 'CardPlayed', actor: null });
          // the next turn has its own (future) deadline
          const rows = await db.a.$queryRawUnsafe<{ seq: number }[]>('SELECT seq FROM match_clocks WHERE match_id = $1::uuid', m.id);
          expect(rows).toEqual([{ seq: after[after.length - 1].seq }]);
        } else {
          expect(after.map((e) => e.type)).toEqual(['SeatForfeited', 'MatchEnded']);
          expect(after[1].payload.reason).toBe('forfeit');
        }
        expect((await new MatchArchive(db.a).verify(m.id)).sound).toBe(true);
        // one job per deadline, completed
        expect((await jobIdOf(db.a, m.id)).map((j) => j.state)).toEqual(['completed']);
      }
    });

    it('a job held by a crashed worker is taken over once it expires; even the double run appends once', async () => {
      const m = await timedMatch(storeA, 'autoPlay');
      await expireAll([m.id]);
      const held = new HeldStore(db.a);
      const crashed = new ClockScheduler(db.a, held, { jobs: queue(db.jobsA), workers: 0 });
      const survivor = new ClockScheduler(db.b, storeB, { jobs: queue(db.jobsB, true), workers: 0 });
      const crashedRun = crashed.tick(); // fetches the job, then hangs in its append
      await held.entered;
      const [job] = await jobIdOf(db.a, m.id);
      expect(job.state).toBe('active');
      expect(await survivor.tick()).toEqual([]); // held by the other worker
      // Its expiry (60 s for match-deadline) passes: pg-boss's maintenance fails it back to the queue for a retry.
      await db.a.$executeRawUnsafe(`UPDATE pgboss.job SET started_on = now() - interval '1 hour' WHERE name = 'match-deadline' AND id = $1::uuid`, job.id);
      const taken: ExpiryOutcome[] = [];
      for (const until = Date.now() + 30_000; taken.length === 0 && Date.now() < until;) {
        taken.push(...(await survivor.tick()));
        if (taken.length === 0) await new Promise((r) => setTimeout(r, 200));
      }
      expect(taken).toEqual(['expired']);
      // The "dead" worker wakes up and finishes its run of the same deadline: the same command key, nothing appended.
      held.resume();
      expect(await crashedRun).toEqual(['stale']);
      const after = await storeA.eventsFrom(m.id, m.seq + 1, 1000);
      expect(after.filter((e) => e.type === 'CardPlayed')).toHaveLength(1);
      expect((await jobIdOf(db.a, m.id)).find((j) => j.id === job.id)?.state).toBe('completed');
    });

    it('a pending start (waiting for client seeds) raced by two schedulers starts the match once, and becomes its first turn clock', async () => {
      const created = await storeA.create({
        preset: 'scopa',
        seats: [{ player: 'ann' }, { player: 'bob' }],
        createdBy: 'ann',
        settings: { turnTimeLimit: 'PT1H', onExpiry: 'autoPlay' },
      });
      const id = created.matchId;
      await db.a.$executeRawUnsafe(PENDING_START_SQL, id, created.seq, 0, 'bob', 'go'); // due at once, asked with bob's idempotency key 'go'
      // An append while the match is open (a client seed) leaves the pending start alone (and gets a due-now check of the seeds: bob's is missing).
      await storeB.execute(id, { type: 'setClientSeed', player: 'ann', clientSeed: 'c0ffee' }, { actor: 'ann' });
      const first = new ClockScheduler(db.a, storeA, { jobs: queue(db.jobsA), workers: 0 });
      const second = new ClockScheduler(db.b, storeB, { jobs: queue(db.jobsB), workers: 0 });
      const pending = (await second.pendingStart(id))!;
      expect(pending).toMatchObject({ kind: 'start', startBy: 'bob', commandKey: 'go' });
      const [a, b] = await Promise.all([first.tick(), second.tick()]);
      const all = [...a, ...b];
      expect(all.filter((o) => o === 'error')).toEqual([]);
      expect(all.filter((o) => o === 'expired')).toHaveLength(1);
      // A second run of the start (its job retried after its worker died, or the last seed's own start) changes nothing.
      expect(await first.expire(pending)).toBe('stale');
      const log = await storeA.eventsFrom(id, 1, 1000);
      expect(log.filter((e) => e.type === 'MatchStarted')).toEqual([expect.objectContaining({ actor: 'bob' })]);
      const rows = await db.a.$queryRawUnsafe<{ kind: string; seq: number }[]>('SELECT kind, seq FROM match_clocks WHERE match_id = $1::uuid', id);
      expect(rows).toEqual([{ kind: 'turn', seq: log[log.length - 1].seq }]);
    });
  });
}
