/**
 * A PostgreSQL 15 primary and a streaming hot standby of it (pg_basebackup -R), from the machine's
 * /usr/lib/postgresql/15/bin, in a temporary folder, on two given ports of 127.0.0.1 with trust
 * authentication. As root, the server programs run as the `postgres` user (runuser). The standby logs
 * every statement with its application_name (`log_line_prefix = '%a|'`), so a test can see which reads
 * reached it; `pauseReplay()` holds its replay (pg_wal_replay_pause) to make its lag visible.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const BIN = '/usr/lib/postgresql/15/bin';

export interface StreamingStandby {
  primaryUrl: string;
  standbyUrl: string;
  /** The standby's log (every statement, prefixed `<application_name>|`) from byte `from` on. */
  standbyLog(from?: number): string;
  standbyLogSize(): number;
  query<T extends pg.QueryResultRow>(which: 'primary' | 'standby', sql: string, params?: unknown[]): Promise<T[]>;
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the standby has replayed everything the primary had written when it was called. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops the standby alone (fast shutdown). */
  stopStandby(): Promise<void>;
  stop(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

function run(program: string, args: string[]): string {
  const file = path.join(BIN, program);
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

function ownedByPostgres(dir: string): void {
  if (!asRoot) return;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
}

export async function startStreamingStandby(ports: { primary: number; standby: number }, database = 'scopa'): Promise<StreamingStandby> {
  const root = mkdtempSync(path.join(tmpdir(), 'scopa-standby-'));
  ownedByPostgres(root);
  const primaryDir = path.join(root, 'primary');
  const standbyDir = path.join(root, 'standby');
  const primaryLog = path.join(root, 'primary.log');
  const standbyLog = path.join(root, 'standby.log');
  const started: string[] = [];
  const stop = async () => {
    for (const dir of started.reverse()) {
      try {
        run('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
    }
    started.length = 0;
    rmSync(root, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
    appendFileSync(
      path.join(primaryDir, 'postgresql.conf'),
      [`port = ${ports.primary}`, `listen_addresses = '127.0.0.1'`, `unix_socket_directories = '${root}'`, 'fsync = off', 'wal_level = replica', ''].join('\n'),
    );
    run('pg_ctl', ['-D', primaryDir, '-l', primaryLog, '-w', 'start']);
    started.push(primaryDir);
    const admin = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${ports.primary}/postgres` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(ports.primary), '-U', 'postgres', '-D', standbyDir, '-R', '-X', 'stream', '-c', 'fast']);
    appendFileSync(
      path.join(standbyDir, 'postgresql.conf'),
      [`port = ${ports.standby}`, 'hot_standby = on', `log_statement = 'all'`, `log_line_prefix = '%a|'`, ''].join('\n'),
    );
    run('pg_ctl', ['-D', standbyDir, '-l', standbyLog, '-w', 'start']);
    started.push(standbyDir);
  } catch (err) {
    const logs = [primaryLog, standbyLog].filter(existsSync).map((f) => readFileSync(f, 'utf8').slice(-2000));
    await stop();
    throw new Error(`the primary and standby did not start: ${(err as Error).message}\n${logs.join('\n')}`);
  }
  const primaryUrl = `postgresql://postgres@127.0.0.1:${ports.primary}/${database}`;
  const standbyUrl = `postgresql://postgres@127.0.0.1:${ports.standby}/${database}`;
  const query = async <T extends pg.QueryResultRow>(which: 'primary' | 'standby', sql: string, params: unknown[] = []): Promise<T[]> => {
    const c = new pg.Client({ connectionString: which === 'primary' ? primaryUrl : standbyUrl, application_name: 'test' });
    await c.connect();
    try {
      return (await c.query<T>(sql, params)).rows;
    } finally {
      await c.end();
    }
  };
  return {
    primaryUrl,
    standbyUrl,
    standbyLog: (from = 0) => readFileSync(standbyLog).subarray(from).toString('utf8'),
    standbyLogSize: () => statSync(standbyLog).size,
    query,
    pauseReplay: async () => {
      await query('standby', 'SELECT pg_wal_replay_pause()');
    },
    resumeReplay: async () => {
      await query('standby', 'SELECT pg_wal_replay_resume()');
    },
    caughtUp: async (timeoutMs = 30_000) => {
      const [{ lsn }] = await query<{ lsn: string }>('primary', 'SELECT pg_current_wal_lsn()::text AS lsn');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [{ done }] = await query<{ done: boolean }>('standby', 'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn]);
        if (done) return;
        if (Date.now() > deadline) throw new Error(`the standby did not replay up to ${lsn}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stopStandby: async () => {
      run('pg_ctl', ['-D', standbyDir, '-m', 'fast', '-w', 'stop']);
      started.splice(started.indexOf(standbyDir), 1);
    },
    stop,
  };
}
