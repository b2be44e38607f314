import { HealthIndicatorService } from '@nestjs/terminus';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import { assertWritable } from '../database/database';
import type { PrismaService } from '../database/prisma.service';
import { ReadinessService } from './readiness.service';

/** A database that answers `pg_is_in_recovery()` with `recovery` (or never answers). */
function fakeDatabase(recovery: boolean | 'hangs' | 'refuses'): PrismaService {
  const queryRawUnsafe = (sql: string) => {
    if (recovery === 'hangs') return new Promise(() => undefined);
    if (recovery === 'refuses') return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    return Promise.resolve(/pg_is_in_recovery/.test(sql) ? [{ recovery }] : [{ '?column?': 1 }]);
  };
  const db = { $queryRawUnsafe: queryRawUnsafe };
  return { writable: () => assertWritable(db as never, 'pg') } as unknown as PrismaService;
}

async function ready(recovery: boolean | 'hangs' | 'refuses') {
  const service = new ReadinessService(new HealthIndicatorService(), fakeDatabase(recovery));
  return Promise.all(service.checks().map((check) => (check as () => Promise<HealthIndicatorResult>)()));
}

describe('readiness', () => {
  it('is up on a writable primary', async () => {
    expect(await ready(false)).toEqual([{ database: { status: 'up' } }]);
  });

  it('is down on a standby (a demoted primary, or the proxy still on one)', async () => {
    const [result] = await ready(true);
    expect(result.database.status).toBe('down');
    expect(result.database.message).toMatch(/standby/);
  });

  it('is down when the database refuses connections', async () => {
    expect((await ready('refuses'))[0].database.status).toBe('down');
  });

  it('is down within its 2 s bound when the database does not answer', async () => {
    const started = Date.now();
    const [result] = await ready('hangs');
    expect(result.database).toMatchObject({ status: 'down', message: 'timed out' });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
