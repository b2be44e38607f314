/**
 * One process per embedded database: a lock file in the PGlite data folder
 * (`scopa.lock`, created with O_EXCL) holds the owner's pid and a nonce. A
 * second process finds it and refuses to start, naming the owner; a lock
 * whose pid is dead (a crash, a SIGKILL) is taken over. Release removes the
 * file only while it is still this lock (same nonce): a process never deletes
 * what another one owns. Two PGlite instances on one folder each write its
 * postmaster.pid and WAL as if alone, and lose each other's commits.
 *
 * Not proper-lockfile: it judges staleness by an mtime it keeps touching on a
 * timer, and cannot say which process holds the folder. Liveness is per
 * machine: a folder shared over the network by two hosts is not protected.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'scopa.lock';

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly ownerPid: number,
  ) {
    super(
      `the data folder ${dir} is in use by process ${ownerPid} (lock file ${path.join(dir, LOCK_FILE)}): one process owns an embedded database; ` +
        'stop that process, use another DATA_DIR, or set DATABASE_URL to share a PostgreSQL server between instances',
    );
  }
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still this lock; idempotent. */
  release(): void;
}

/** Nonces of the locks this process holds (a lock with our pid and another nonce is a previous process's). */
const held = new Map<string, string>();

interface Owner {
  pid: number;
  nonce: string;
}

function readOwner(file: string): Owner | null | 'gone' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw err;
  }
  const m = /^(\d+) (\S+)\n$/.exec(text);
  return m ? { pid: Number(m[1]), nonce: m[2] } : null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by another user
  }
}

function ownedElsewhere(owner: Owner): boolean {
  if (owner.pid === process.pid) return held.has(owner.nonce); // ours now, or left by an earlier process that had our pid (a container restart)
  return alive(owner.pid);
}

/** Takes the folder's lock (creating the folder), or throws DataDirLockedError naming the live owner. */
export function lockDataDir(dir: string): DataDirLock {
  const resolved = path.resolve(dir);
  mkdirSync(resolved, { recursive: true });
  const file = path.join(resolved, LOCK_FILE);
  const nonce = randomUUID();
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      try {
        writeSync(fd, `${process.pid} ${nonce}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = readOwner(file);
    if (owner === 'gone') continue; // released meanwhile
    if (owner && ownedElsewhere(owner)) throw new DataDirLockedError(resolved, owner.pid);
    // An unreadable lock is being written right now (open and write are two calls) or was left by a crash between them.
    if (!owner && attempt < 20) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      continue;
    }
    if (attempt >= 25) throw new Error(`cannot take the lock ${file}: it keeps changing`);
    // Stale: remove it only if it is still the same stale lock (another starter may have taken it over meanwhile).
    const again = readOwner(file);
    if (again !== 'gone' && JSON.stringify(again) === JSON.stringify(owner)) {
      try {
        unlinkSync(file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
  }
  held.set(nonce, file);
  const release = () => {
    if (!held.delete(nonce)) return;
    process.off('exit', release);
    const owner = readOwner(file);
    if (owner !== 'gone' && owner?.nonce === nonce) {
      try {
        unlinkSync(file);
      } catch {
        // already gone
      }
    }
  };
  // A process that exits without closing the database (process.exit, a fatal error) still frees the folder.
  process.on('exit', release);
  return { file, release };
}
