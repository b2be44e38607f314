import { jest } from '@jest/globals';
import { openDatabase } from '../src/database/database';
import { pgliteTemplate } from './support/db-template';
import { describeClockRace } from './async-play/clock-race';

jest.setTimeout(300_000);

describeClockRace('PGlite, one process', async () => {
  const db = await openDatabase({ dataDir: 'memory', loadDataDir: await pgliteTemplate() });
  return { a: db.prisma, b: db.prisma, matches: 8, close: () => db.close() };
});
