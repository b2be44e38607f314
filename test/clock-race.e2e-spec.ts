import { jest } from '@jest/globals';
import { openDatabase } from '../src/database/database';
import { pgliteTemplate } from './support/db-template';
import { jobDatabase } from '../src/jobs/job-database';
import { describeClockRace } from './async-play/clock-race';

jest.setTimeout(300_000);

describeClockRace('PGlite, one process', async () => {
  const db = await openDatabase({ dataDir: 'memory', loadDataDir: await pgliteTemplate() });
  return { a: db.prisma, b: db.prisma, jobsA: jobDatabase(db), jobsB: jobDatabase(db), matches: 8, close: () => db.close() };
});
