/**
 * The fuzz suite on the embedded database: a few thousand requests generated
 * from the contracts (test/fuzz/), seeded (FUZZ_SEED) and bounded
 * (FUZZ_RUNS, FUZZ_SECONDS). No answer may be a 5xx or an INTERNAL error,
 * /health must keep answering, and every match the run touched must still
 * audit sound.
 */
import type { INestApplication } from '@nestjs/common';
import { createTestApp, listenOnLoopback } from './support/app';
import { FUZZ_ENV, fuzzSettings, expectFuzzClean } from './fuzz/fuzz-suite';

describe('fuzzing the contracts on PGlite', () => {
  let app: INestApplication;
  let baseUrl: string;

  beforeAll(async () => {
    app = await createTestApp(FUZZ_ENV);
    baseUrl = (await listenOnLoopback(app)).http;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers every generated request without a 5xx or INTERNAL, keeps /health up, and leaves every match sound', async () => {
    await expectFuzzClean(baseUrl, fuzzSettings(3000));
  }, 300_000);
});
