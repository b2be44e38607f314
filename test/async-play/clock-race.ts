/**
 * Exactly-once clock expiries with two schedulers racing on one database,
 * written once: on PGlite in npm test (test/clock-race.e2e-spec.ts, one
 * process, two stores and schedulers over one client), on PostgreSQL in
 * npm run test:pg (test/clock-race.pg-spec.ts, two connection pools: two
 * instances as far as the database can tell).
 */
import type { Prisma } from '../../src/database/database';
import { ClockScheduler } from '../../src/clocks/clock-scheduler';
import type { ExpiryOutcome } from '../../src/clocks/clock-scheduler';
import { PENDING_START_SQL } from '../../src/clocks/pending-starts';
import { MatchArchive } from '../../src/match-store/match-archive';
import { MatchStore } from '../../src/match-store/match-store';

export interface RaceDatabase {
  /** Two clients of one database (may be the same client). */
  a: Prisma;
  b: Prisma;
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

export function describeClockRace(name: string, open: () => Promise<RaceDatabase>): void {
  describe(`turn clocks: exactly-once expiry with two schedulers (${name})`, () => {
    let db: RaceDatabase;
    let storeA: MatchStore;
    let storeB: MatchStore;
    beforeAll(async () => {
      db = await open();
      storeA = new MatchStore(db.a);
      storeB = new MatchStore(db.b);
    });
    afterAll(async () => {
      await db?.close();
    });

    const expireAll = (ids: string[]) =>
      db.a.$executeRawUnsafe(`UPDATE match_clocks SET deadline = now() - interval '1 second' WHERE match_id = ANY($1::uuid[])`, ids);

    it('every due deadline is handled once, whichever scheduler claims it', async () => {
      const matches = [];
      for (let i = 0; i < db.matches; i++) matches.push(await timedMatch(storeA, i % 2 === 0 ? 'autoPlay' : 'forfeit'));
      await expireAll(matches.map((m) => m.id));
      const schedA = new ClockScheduler(db.a, storeA, { batch: 3 });
      const schedB = new ClockScheduler(db.b, storeB, { batch: 3 });
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
      }
    });

    it('a claim left by a crashed instance is taken over once its lease runs out; even a double claim appends once', async () => {
      const m = await timedMatch(storeA, 'autoPlay');
      await expireAll([m.id]);
      const crashed = new ClockScheduler(db.a, storeA, { leaseMs: 60_000 });
      const survivor = new ClockScheduler(db.b, storeB);
      const claimed = await crashed.claim(); // ...and never handled
      expect(claimed.map((c) => c.matchId)).toContain(m.id);
      expect(await survivor.tick()).toEqual([]); // leased
      await db.a.$executeRawUnsafe(`UPDATE match_clocks SET claimed_until = now() - interval '1 second' WHERE match_id = $1::uuid`, m.id);
      // both now hold a claim on the same deadline: only one append can succeed at its seq
      const again = await survivor.claim();
      const mine = claimed.find((c) => c.matchId === m.id)!;
      const theirs = again.find((c) => c.matchId === m.id)!;
      const outcomes = await Promise.all([crashed.expire(mine), survivor.expire(theirs)]);
      expect(outcomes.sort()).toEqual(['expired', 'stale']);
      const after = await storeA.eventsFrom(m.id, m.seq + 1, 1000);
      expect(after.filter((e) => e.type === 'CardPlayed')).toHaveLength(1);
    });

    it('a pending start (waiting for client seeds) claimed by both schedulers starts the match once, and becomes its first turn clock', async () => {
      const created = await storeA.create({
        preset: 'scopa',
        seats: [{ player: 'ann' }, { player: 'bob' }],
        createdBy: 'ann',
        settings: { turnTimeLimit: 'PT1H', onExpiry: 'autoPlay' },
      });
      const id = created.matchId;
      await db.a.$executeRawUnsafe(PENDING_START_SQL, id, created.seq, 0, 'bob', 'go'); // due at once, asked with bob's idempotency key 'go'
      // An append while the match is open (a client seed) leaves the pending start alone.
      await storeB.execute(id, { type: 'setClientSeed', player: 'ann', clientSeed: 'c0ffee' }, { actor: 'ann' });
      const first = new ClockScheduler(db.a, storeA, { leaseMs: 60_000 });
      const second = new ClockScheduler(db.b, storeB);
      const mine = (await first.claim()).find((c) => c.matchId === id)!;
      expect(mine).toMatchObject({ kind: 'start', startBy: 'bob', commandKey: 'go' });
      expect(await second.claimStart(id)).toBeNull(); // leased
      await db.a.$executeRawUnsafe(`UPDATE match_clocks SET claimed_until = now() - interval '1 second' WHERE match_id = $1::uuid`, id);
      const theirs = (await second.claimStart(id))!;
      expect(theirs).not.toBeNull();
      const outcomes = await Promise.all([first.expire(mine), second.expire(theirs)]);
      expect(outcomes.sort()).toEqual(['expired', 'stale']);
      const log = await storeA.eventsFrom(id, 1, 1000);
      expect(log.filter((e) => e.type === 'MatchStarted')).toEqual([expect.objectContaining({ actor: 'bob' })]);
      const rows = await db.a.$queryRawUnsafe<{ kind: string; seq: number }[]>('SELECT kind, seq FROM match_clocks WHERE match_id = $1::uuid', id);
      expect(rows).toEqual([{ kind: 'turn', seq: log[log.length - 1].seq }]);
    });
  });
}
