import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from './data-dir-lock';

describe('data folder lock: one process per embedded database', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = path.join(mkdtempSync(path.join(tmpdir(), 'scopa-lockdir-')), 'data');
    file = path.join(dir, LOCK_FILE);
  });
  afterEach(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

  /** The pid of a process that has exited. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

  it('creates the folder and holds it with this pid; a second lock is refused, naming the owner', () => {
    const lock = lockDataDir(dir);
    expect(readFileSync(file, 'utf8')).toMatch(new RegExp(`^${process.pid} \\S+\\n$`));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${process.pid}`);
    lock.release();
    expect(existsSync(file)).toBe(false);
    lockDataDir(dir).release();
  });

  it('refuses a folder held by another live process and leaves its lock alone', () => {
    lockDataDir(dir).release(); // creates the folder
    const owner = `${process.ppid} someone-else\n`;
    writeFileSync(file, owner);
    let error: unknown;
    try {
      lockDataDir(dir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as DataDirLockedError).ownerPid).toBe(process.ppid);
    expect(readFileSync(file, 'utf8')).toBe(owner);
  });

  it('takes over the lock of a dead process, and one left with our pid by an earlier process (a container restart)', () => {
    lockDataDir(dir).release();
    for (const stale of [`${deadPid()} gone\n`, `${process.pid} earlier-run\n`, '']) {
      writeFileSync(file, stale);
      const lock = lockDataDir(dir);
      expect(readFileSync(file, 'utf8')).toMatch(new RegExp(`^${process.pid} \\S+\\n$`));
      expect(readFileSync(file, 'utf8')).not.toBe(stale);
      lock.release();
    }
  });

  it('never deletes a lock it does not own: release after a takeover leaves the new owner its file', () => {
    const lock = lockDataDir(dir);
    const other = `${process.ppid} new-owner\n`;
    writeFileSync(file, other);
    lock.release();
    expect(readFileSync(file, 'utf8')).toBe(other);
  });
});
