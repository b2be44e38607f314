/**
 * A turn deadline fires within the documented delay (docs/async-play.md
 * "Turn clocks") with two instances on one PostgreSQL database: both scan,
 * both run 'match-deadline' workers, each deadline is handled once.
 */
import { jest } from '@jest/globals';
import { useTwoPgInstances } from './support/two-pg-instances';
import { DEADLINE_BOUND_MS, DEADLINE_ENV, measureDeadlineDelays, summary } from './async-play/deadline-delay';

jest.setTimeout(120_000);

describe('turn deadline delay (PostgreSQL, two instances)', () => {
  const two = useTwoPgInstances(DEADLINE_ENV);

  it('fires every deadline after it, woken at the deadline, long before the workers poll (JOB_POLL_SECONDS)', async () => {
    const delays = await measureDeadlineDelays([two.a.app, two.b.app], 8, 250);
    console.log(summary('PostgreSQL, two instances', delays));
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(DEADLINE_BOUND_MS);
    }
  });
});
