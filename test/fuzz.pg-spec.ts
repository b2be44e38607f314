/** The fuzz suite (see fuzz.e2e-spec.ts) against an instance on the real PostgreSQL. */
import type { INestApplication } from '@nestjs/common';
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';
import { FUZZ_ENV, fuzzSettings, expectFuzzClean } from './fuzz/fuzz-suite';

describe('fuzzing the contracts on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let instance: { app: INestApplication; http: string };

  beforeAll(async () => {
    db = await freshPgDatabase();
    instance = await startInstance(db.url, FUZZ_ENV);
  });
  afterAll(async () => {
    await instance?.app.close();
    await db?.drop();
  });

  it('answers every generated request without a 5xx or INTERNAL, keeps /health up, and leaves every match sound', async () => {
    await expectFuzzClean(instance.http, fuzzSettings(3000));
  }, 300_000);
});
