/**
 * A turn deadline fires within the documented delay (docs/async-play.md
 * "Turn clocks"): one instance on PGlite, its own scan and job worker.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createTestApp } from './support/app';
import { DEADLINE_BOUND_MS, DEADLINE_ENV, measureDeadlineDelays, summary } from './async-play/deadline-delay';

jest.setTimeout(120_000);

describe('turn deadline delay (e2e, PGlite, one instance)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createTestApp(DEADLINE_ENV);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('fires every deadline after it, woken at the deadline, long before the workers poll (JOB_POLL_SECONDS)', async () => {
    const delays = await measureDeadlineDelays([app], 6, 300);
    console.log(summary('PGlite, one instance', delays));
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(DEADLINE_BOUND_MS);
    }
  });
});
