import { crashAndCheck } from './store/crash';
import { freshPgDatabase } from './store/helpers';

it('keeps every acknowledged move and a sound chain after a writer is SIGKILLed mid-stream (PostgreSQL)', async () => {
  const fresh = await freshPgDatabase();
  try {
    const r = await crashAndCheck({ DATABASE_URL: fresh.url, MATCHES: '30' }, { url: fresh.url }, 600);
    expect(r.acked).toBeGreaterThanOrEqual(600);
  } finally {
    await fresh.drop();
  }
}, 120_000);
