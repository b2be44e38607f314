/**
 * On PostgreSQL the store's hot statements are prepared once per connection
 * (src/database/prepared-statements.ts): after a few plays, the connection
 * holds the append as a named statement, and Prisma's own queries stay unnamed.
 * The service's store sends them straight through the driver
 * (Database.statements), a store over a bare client through Prisma's adapter:
 * on one connection the two share the statement by its name.
 */
import { openDatabase } from '../src/database/database';
import type { Database } from '../src/database/database';
import { APPEND_SQL } from '../src/events/event-store';
import { MatchArchive } from '../src/events/match-archive';
import { MatchStore } from '../src/events/match-store';
import { freshPgDatabase, players, randomCommand } from './store/helpers';
import { mulberry32 } from '../src/engine';

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
});
