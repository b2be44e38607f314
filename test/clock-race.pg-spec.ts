import { jest } from '@jest/globals';
import { openDatabase } from '../src/database/database';
import { freshPgDatabase } from './store/helpers';
import { jobDatabase } from '../src/jobs/job-database';
import { describeClockRace } from './async-play/clock-race';

jest.setTimeout(300_000);

describeClockRace('PostgreSQL, two pools', async () => {
  const fresh = await freshPgDatabase();
  const a = await openDatabase({ url: fresh.url, poolSize: 4 });
  const b = await openDatabase({ url: fresh.url, poolSize: 4, migrate: false });
  return {
    a: a.prisma,
    b: b.prisma,
    jobsA: jobDatabase(a),
    jobsB: jobDatabase(b),
    matches: 30,
    close: async () => {
      await a.close();
      await b.close();
      await fresh.drop();
    },
  };
});
