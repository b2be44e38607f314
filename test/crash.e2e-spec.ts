import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crashAndCheck } from './store/crash';

it('keeps every acknowledged move and a sound chain after a writer is SIGKILLed mid-stream (PGlite data folder)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'scopa-crash-'));
  try {
    const dataDir = path.join(dir, 'data');
    const r = await crashAndCheck({ DATABASE_URL: '', DATA_DIR: dataDir, MATCHES: '5' }, { dataDir }, 80);
    expect(r.acked).toBeGreaterThanOrEqual(80);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
