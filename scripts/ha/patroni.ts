/**
 * Two PostgreSQL 15 nodes under Patroni over etcd (v3 API). Patroni elects the
 * primary and keeps the other node a synchronous hot standby; nothing here
 * decides a role. The YAML is generated per node.
 */
import { chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { stringify } from 'yaml';
import { Daemon, waitFor } from './processes';

/** Debian's postgresql-15 (the Debian package patroni runs it from its bin_dir). */
export const PG_BIN = '/usr/lib/postgresql/15/bin';
export const PATRONI_SCOPE = 'scopa-ha';

export interface PgNode {
  name: string;
  pgPort: number;
  apiPort: number;
  dataDir: string;
  daemon: Daemon;
}

/** A member as GET /cluster lists it. */
export interface PatroniMember {
  name: string;
  /** leader, sync_standby, replica (or standby_leader) */
  role: string;
  state: string;
  port: number;
  api_url: string;
  lag?: number | string;
  timeline?: number;
}

/**
 * The DCS settings every node bootstraps with (Patroni writes them once to etcd).
 * ttl/loop_wait/retry_timeout: a lost leader's key expires within 10 s and the standby, polling every 2 s, takes it.
 * synchronous_mode: a commit is acknowledged once it is on the standby too; Patroni promotes only a node that was
 * synchronous. synchronous_mode_strict stays off: with two nodes, strict mode would stop every write while the only
 * standby is down (including the seconds after a failover, before the old primary has rejoined); off, the primary
 * goes on alone meanwhile and nothing acknowledged is lost unless the primary also dies in that window (a second
 * failure). docs/operations.md, "High availability", says so.
 * primary_start_timeout 0: a primary whose PostgreSQL crashed is failed over at once (the standby holds every
 * acknowledged commit), not restarted in place for up to 300 s.
 */
export function dcsSettings() {
  return {
    ttl: 10,
    loop_wait: 2,
    retry_timeout: 4,
    maximum_lag_on_failover: 1048576,
    primary_start_timeout: 0,
    synchronous_mode: true,
    synchronous_mode_strict: false,
    postgresql: {
      use_pg_rewind: true,
      use_slots: true,
      parameters: {
        wal_level: 'replica',
        hot_standby: 'on',
        wal_log_hints: 'on',
        max_wal_senders: 10,
        max_replication_slots: 10,
        max_connections: 200,
        // a replica query conflicting with the primary's cleanup waits this long rather than failing at once
        max_standby_streaming_delay: '5s',
        hot_standby_feedback: 'on',
      },
    },
  };
}

export function patroniConfig(node: { name: string; pgPort: number; apiPort: number; dataDir: string; home: string }, etcdClientPort: number) {
  return {
    scope: PATRONI_SCOPE,
    namespace: '/service/',
    name: node.name,
    log: { level: 'INFO' },
    restapi: { listen: `127.0.0.1:${node.apiPort}`, connect_address: `127.0.0.1:${node.apiPort}` },
    etcd3: { hosts: [`127.0.0.1:${etcdClientPort}`] },
    bootstrap: {
      dcs: dcsSettings(),
      initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }, 'data-checksums'],
    },
    postgresql: {
      listen: `127.0.0.1:${node.pgPort}`,
      connect_address: `127.0.0.1:${node.pgPort}`,
      data_dir: node.dataDir,
      bin_dir: PG_BIN,
      pgpass: path.join(node.home, 'pgpass'),
      // loopback only, trust: a topology for one machine (a real deployment sets passwords and scram-sha-256)
      authentication: {
        superuser: { username: 'postgres', password: 'postgres' },
        replication: { username: 'replicator', password: 'replicator' },
        rewind: { username: 'postgres', password: 'postgres' },
      },
      pg_hba: ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust'],
      parameters: { unix_socket_directories: node.home },
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  };
}

/** Creates the node's folder (owned by postgres when we are root) and its YAML; returns the node, not started. */
export function preparePgNode(root: string, name: string, pgPort: number, apiPort: number, etcdClientPort: number): PgNode {
  const home = path.join(root, name);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const dataDir = path.join(home, 'data');
  const config = path.join(home, 'patroni.yml');
  writeFileSync(config, stringify(patroniConfig({ name, pgPort, apiPort, dataDir, home }, etcdClientPort)));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(home, uid, gid);
    chownSync(config, uid, gid);
  }
  const daemon = new Daemon({ name: `patroni-${name}`, command: 'patroni', args: [config], log: path.join(root, `patroni-${name}.log`), user: 'postgres' });
  return { name, pgPort, apiPort, dataDir, daemon };
}

async function getJson<T>(url: string, timeoutMs = 1500): Promise<{ status: number; body: T }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** The cluster as any answering node's REST API sees it. */
export async function clusterMembers(nodes: PgNode[]): Promise<PatroniMember[]> {
  let last: unknown = null;
  for (const node of nodes) {
    try {
      return (await getJson<{ members: PatroniMember[] }>(`http://127.0.0.1:${node.apiPort}/cluster`)).body.members ?? [];
    } catch (err) {
      last = err;
    }
  }
  throw new Error(`no Patroni REST API answered: ${(last as Error)?.message}`);
}

/** The node whose REST API says it is the writable primary (GET /primary: 200), if any. */
export async function currentPrimary(nodes: PgNode[]): Promise<PgNode | null> {
  for (const node of nodes) {
    try {
      if ((await fetch(`http://127.0.0.1:${node.apiPort}/primary`, { signal: AbortSignal.timeout(1000) })).status === 200) return node;
    } catch {
      // down
    }
  }
  return null;
}

/** The leader's running PostgreSQL and a streaming synchronous standby. */
export async function waitHealthy(nodes: PgNode[], timeoutMs: number): Promise<{ leader: string; standby: string }> {
  return waitFor(
    'Patroni: a running leader and a streaming sync_standby',
    async () => {
      const members = await clusterMembers(nodes);
      const leader = members.find((m) => m.role === 'leader' && m.state === 'running');
      const standby = members.find((m) => m.role === 'sync_standby' && (m.state === 'streaming' || m.state === 'running'));
      return leader && standby ? { leader: leader.name, standby: standby.name } : undefined;
    },
    timeoutMs,
    500,
  );
}

/** The postmaster's pid, from its data folder (postmaster.pid's first line), or null when it is not running. */
export function postmasterPid(node: PgNode): number | null {
  const file = path.join(node.dataDir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** Stops Patroni (which stops its PostgreSQL), then ends a postmaster left behind (Patroni runs it in a session of its own). */
export async function stopPgNode(node: PgNode): Promise<void> {
  await node.daemon.stop(15_000);
  const pid = postmasterPid(node);
  if (pid !== null) {
    try {
      process.kill(pid, 'SIGQUIT'); // immediate shutdown: the postmaster ends its backends
    } catch {
      // gone
    }
    await waitFor(`${node.name}: postmaster ${pid} gone`, async () => postmasterPid(node) === null, 10_000).catch(() => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    });
  }
}
