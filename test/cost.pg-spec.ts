/**
 * Issue 42, item 1, on PostgreSQL: the anonymous flood of 60-alias standings
 * documents against a 256-player Swiss (test/cost/flood-suite.ts), refused
 * by its cost while /health answers within 100 ms; the anonymous budget.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { TOURNAMENT_MAX_PLAYERS } from '../src/tournaments/tournaments.service';
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';
import { floodCases, get, graphql, standingsDocument, startedSwiss } from './cost/flood-suite';
import type { Field } from './cost/flood-suite';

jest.setTimeout(600_000);

describe('the cost of what a GraphQL document reads: a 256-player Swiss (PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let app: INestApplication;
  let http: string;
  let field: Field;
  beforeAll(async () => {
    db = await freshPgDatabase();
    ({ app, http } = await startInstance(db.url, {
      RATE_LIMIT: '100000',
      ARGON2_MEMORY_KIB: '8',
      ARGON2_PASSES: '1',
      CLOCK_POLL_MS: '0',
      WEBHOOK_POLL_MS: '0',
    }));
    field = await startedSwiss(http, TOURNAMENT_MAX_PLAYERS, 'pf');
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  floodCases(
    () => ({ http }),
    () => field,
    TOURNAMENT_MAX_PLAYERS,
  );

  it('an anonymous document is held to 20 units, one with a credential to 50', async () => {
    const { tournamentId, players } = field;
    const three = standingsDocument(3, 'rank player'); // 24 units
    const anonymous = await graphql(http, three, { id: tournamentId });
    expect(anonymous.body.data ?? null).toBeNull();
    for (const e of anonymous.body.errors) expect(e.extensions).toMatchObject({ code: 'VALIDATION_FAILED', cost: 24, maxCost: 20, anonymous: true });
    const mine = Number((await get(http, '/v1/me', players[3].token)).headers.get('ratelimit-remaining'));
    const paid = await graphql(http, three, { id: tournamentId }, players[3].token);
    expect(paid.body.errors).toBeUndefined();
    expect(paid.body.data.t1.standings).toHaveLength(256);
    expect(Number(paid.headers.get('ratelimit-remaining'))).toBe(mine - 24);
  });
});
