/**
 * On PostgreSQL the store's hot statements are prepared once per connection
 * (src/database/prepared-statements.ts): after a few plays, the connection
 * holds the append as a named statement, and Prisma's own queries stay unnamed.
 * The service's store sends them straight through the driver
 * (Database.statements), a store over a bare client through Prisma's adapter:
 * on one connection the two share the statement by its name.
 * The polls (the clock scan, clock-low; webhook deliveries are jobs, with no poll of their own) have their configuration
 * written into their text, so a connection plans them once (a generic plan)
 * rather than afresh on each of its first five runs (custom plans).
 */
import { openDatabase } from '../src/database/database';
import type { Database } from '../src/database/database';
import { APPEND_SQL } from '../src/match-store/event-store';
import { MatchArchive } from '../src/match-store/match-archive';
import { MatchStore } from '../src/match-store/match-store';
import { freshPgDatabase, players, randomCommand } from './store/helpers';
import { mulberry32 } from '../src/engine';
import { ClockScheduler } from '../src/clocks/clock-scheduler';
import { ClockLowNotifier } from '../src/clocks/clock-low';
import type { PubSubEngine } from '../src/realtime/realtime.module';

describe('prepared statements on PostgreSQL', () => {
  let fresh: { url: string; drop(): Promise<void> };
  let db: Database;

  beforeAll(async () => {
    fresh = await freshPgDatabase();
    // One connection: the statements it has prepared are the ones this test made.
    db = await openDatabase({ url: fresh.url, poolSize: 1 });
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await fresh?.drop();
  });

  it.each([
    ['straight through the driver, as the service', () => new MatchStore(db.prisma, { statements: db.statements })],
    ['through Prisma, as a store over a bare client', () => new MatchStore(db.prisma)],
  ])('prepares the append once per connection and plays through it: %s', async (_, storeOf) => {
    expect(db.statements).toBeDefined();
    const store = storeOf();
    const { matchId } = await store.create({ preset: 'scopa', seats: players(2), createdBy: 'p0' });
    await store.execute(matchId, { type: 'start', player: 'p0' }, { actor: 'p0' });
    const rng = mulberry32(5);
    for (let i = 0; i < 6; i++) {
      const cmd = randomCommand(await store.state(matchId), rng);
      await store.execute(matchId, cmd, { actor: (cmd as { player: string }).player });
    }
    const statements = await db.prisma.$queryRawUnsafe<{ name: string; statement: string }[]>('SELECT name, statement FROM pg_prepared_statements');
    const append = statements.filter((s) => s.statement === APPEND_SQL);
    expect(append).toHaveLength(1);
    expect(append[0].name).toMatch(/^scopa_stmt_\d+$/);
    // only registered texts are named: this query itself is not among them
    expect(statements.every((s) => s.name.startsWith('scopa_stmt_'))).toBe(true);
    expect(statements.some((s) => s.statement.includes('pg_prepared_statements'))).toBe(false);
    expect((await new MatchArchive(db.prisma).verify(matchId)).sound).toBe(true);
  });

  it('plans each poll once per connection: no parameters, so a generic plan from the first run', async () => {
    const store = new MatchStore(db.prisma, { statements: db.statements });
    const clocks = new ClockScheduler(db.prisma, store, { batch: 7, lookaheadMs: 1500 });
    const clockLow = new ClockLowNotifier(db.prisma, { publish: async () => undefined } as unknown as PubSubEngine, 0.25, 9);
    const runs = 7; // more than the five custom plans PostgreSQL tries for a statement with parameters
    for (let i = 0; i < runs; i++) {
      expect(await clocks.scan()).toEqual([]);
      expect(await clockLow.tick()).toBe(0);
    }
    const plans = await db.prisma.$queryRawUnsafe<{ statement: string; generic_plans: bigint; custom_plans: bigint }[]>(
      'SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements',
    );
    const poll = (marker: string) => {
      const found = plans.filter((p) => p.statement.includes(marker));
      expect(found).toHaveLength(1);
      return found[0];
    };
    for (const [marker, configured] of [
      ["scopa_enqueue_job('match-deadline'", ['LIMIT 7::int', 'secs => 1.5::double precision']],
      ['INSERT INTO clock_low_notices', ['LIMIT 9::int', '* 0.25::double precision']],
    ] as const) {
      const p = poll(marker);
      for (const text of configured) expect(p.statement).toContain(text);
      expect(p.statement).not.toMatch(/\$\d/);
      expect(Number(p.custom_plans)).toBe(0);
      expect(Number(p.generic_plans)).toBe(runs);
    }
  });
});
