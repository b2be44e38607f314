/**
 * The embedded database gets the planner's statistics although PGlite has no
 * autovacuum (src/jobs/pglite-statistics.service.ts): ANALYZE once the
 * service has started, then every PGLITE_ANALYZE_MS; 0 turns it off.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { PrismaService } from '../src/database/prisma.service';
import { MatchStore } from '../src/match-store/match-store';
import { createTestApp } from './support/app';

// Loaded, as in CI where every suite runs at once, starting an app and writing the matches takes tens of seconds.
jest.setTimeout(180_000);

/** The planner's row count of a table: -1 until it was ever analyzed. */
async function reltuples(app: INestApplication, table: string): Promise<number> {
  const rows = await app.get(PrismaService).database.rows<{ n: number }>('SELECT reltuples::float8 AS n FROM pg_class WHERE relname = $1', [table]);
  return Number(rows[0].n);
}

async function until(what: string, ok: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('planner statistics on PGlite (e2e)', () => {
  const saved = process.env.PGLITE_ANALYZE_MS;
  let app: INestApplication | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
    if (saved === undefined) delete process.env.PGLITE_ANALYZE_MS;
    else process.env.PGLITE_ANALYZE_MS = saved;
  });

  it('analyzes once started, then again on its period: the planner sees the rows written since', async () => {
    app = await createTestApp({ PGLITE_ANALYZE_MS: '300' });
    await until('the first ANALYZE', async () => (await reltuples(app!, 'match_events')) >= 0);
    const store = app.get(MatchStore);
    for (let i = 0; i < 12; i++) {
      const { matchId } = await store.create({ preset: 'scopa', seats: [{ player: 'ana' }, { player: 'ben' }], createdBy: 'ana' });
      await store.execute(matchId, { type: 'start', player: 'ana' }, { actor: 'ana' });
    }
    await until('a later ANALYZE counting the 12 matches', async () => (await reltuples(app!, 'matches')) >= 12);
  });

  it('PGLITE_ANALYZE_MS=0: never', async () => {
    app = await createTestApp({ PGLITE_ANALYZE_MS: '0' });
    await new Promise((r) => setTimeout(r, 1000));
    expect(await reltuples(app, 'match_events')).toBe(-1);
  });
});
