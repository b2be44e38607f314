/**
 * One process per embedded database (issue 14, item 11), with real
 * processes: a second process on a DATA_DIR in use refuses to open it, naming
 * the owner's pid, and leaves the owner's files alone; the owner's data
 * survives; the lock is released at shutdown, and a lock left by a SIGKILLed
 * owner is taken over.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { openDatabase } from '../src/database/database';
import { LOCK_FILE } from '../src/database/data-dir-lock';

jest.setTimeout(180_000);

interface Holder {
  child: ChildProcess;
  /** Resolves when the child printed `ready`, or with its exit code and stderr if it exited first. */
  started: Promise<{ ready: true } | { ready: false; code: number | null; stderr: string }>;
  exited: Promise<number | null>;
}

function holder(dataDir: string): Holder {
  // node itself (not the tsx launcher, which would run the script in a grandchild a SIGKILL misses)
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/data-dir-holder.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = new Promise<{ ready: true } | { ready: false; code: number | null; stderr: string }>((resolve) => {
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (/^ready$/m.test(stdout)) resolve({ ready: true });
    });
    void exited.then((code) => setImmediate(() => resolve({ ready: false, code, stderr })));
  });
  return { child, started, exited };
}

async function stop(h: Holder): Promise<number | null> {
  if (h.child.exitCode === null && h.child.signalCode === null) h.child.kill('SIGTERM');
  return h.exited;
}

describe('one process per embedded database (e2e, PGlite data folder)', () => {
  let dir: string;
  let dataDir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scopa-lock-'));
    dataDir = path.join(dir, 'data');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a second process on a DATA_DIR in use, naming the owner, and leaves the owner its files and its data', async () => {
    const first = holder(dataDir);
    try {
      expect(await first.started).toEqual({ ready: true });
      expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(true);

      const second = holder(dataDir);
      const refused = await second.started;
      expect(refused).toMatchObject({ ready: false, code: 1 });
      expect((refused as { stderr: string }).stderr).toContain(`in use by process ${first.child.pid}`);
      // the refused process touched nothing of the owner's
      expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(true);
      expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(true);
    } finally {
      expect(await stop(first)).toBe(0);
    }
    // released at shutdown; the next owner sees what the first one wrote
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    const db = await openDatabase({ dataDir, migrate: false });
    try {
      const rows = await db.pglite!.query<{ pid: number }>('SELECT pid FROM holders');
      expect(rows.rows).toEqual([{ pid: first.child.pid }]);
    } finally {
      await db.close();
    }
  });

  it('takes over the lock of an owner that was SIGKILLed', async () => {
    const killed = holder(dataDir);
    expect(await killed.started).toEqual({ ready: true });
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(true); // stale: its pid is dead

    const next = holder(dataDir);
    try {
      expect(await next.started).toEqual({ ready: true });
    } finally {
      expect(await stop(next)).toBe(0);
    }
  });
});
