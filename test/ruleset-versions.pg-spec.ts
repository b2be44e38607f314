import { jest } from '@jest/globals';
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';
import { describeRulesetRace } from './rulesets/ruleset-race';

jest.setTimeout(300_000);

describeRulesetRace('PostgreSQL, two instances', async () => {
  const db = await freshPgDatabase();
  const a = await startInstance(db.url, { INSTANCE_ID: 'a' });
  const b = await startInstance(db.url, { INSTANCE_ID: 'b' });
  return {
    targets: [a.http, b.http],
    saves: 120,
    creations: 60,
    spreadMs: 1000,
    close: async () => {
      await a.app.close();
      await b.app.close();
      await db.drop();
    },
  };
});
