/** The bounds on the embedded database's memory (database.ts: pgliteStartParams, initdbApart). */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newPglite, pgliteStartParams } from './database';

import { jest } from '@jest/globals';

jest.setTimeout(120_000);

describe('PGlite memory settings', () => {
  it('starts PostgreSQL in a data folder with the configured shared_buffers (default 16 MB, not 128)', async () => {
    expect(pgliteStartParams()).toEqual(expect.arrayContaining(['-c', 'shared_buffers=16MB']));
    const root = mkdtempSync(path.join(tmpdir(), 'scopa-pglite-buffers-'));
    try {
      const db = newPglite(path.join(root, 'data'), undefined, 8);
      const { rows } = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
      expect(rows[0].shared_buffers).toBe('8MB');
      await db.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("creates a new folder's cluster in a child process, before this process opens it", async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'scopa-pglite-initdb-'));
    const dir = path.join(root, 'data');
    try {
      const db = newPglite(dir);
      // Synchronously on return, before PGlite in this process has run a line of initdb.
      expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
      await db.waitReady;
      const { rows } = await db.query<{ n: number }>('SELECT 1 AS n');
      expect(rows).toEqual([{ n: 1 }]);
      await db.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
