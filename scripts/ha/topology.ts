/**
 * The HA topology's infrastructure on one machine, from its Debian packages
 * (etcd-server, patroni, postgresql-15, haproxy, redis-server, redis-sentinel),
 * in a state folder of its own: etcd (one member: one machine has no second
 * failure domain for it; a deployment runs three), two PostgreSQL 15 nodes
 * under Patroni (a primary and a synchronous standby), HAProxy (a write port
 * to the primary, a read port to the standby), a Redis master and replica with
 * three Sentinels. The service instances and the worker are the caller's
 * (scripts/cluster.ts --ha, test/failover.ha-spec.ts): serviceEnvironment()
 * is what they are given.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { haproxyConfig } from './haproxy';
import { clusterMembers, currentPrimary, PG_BIN, postmasterPid, preparePgNode, stopPgNode, waitHealthy } from './patroni';
import type { PgNode } from './patroni';
import { Daemon, waitFor } from './processes';
import { redisArgs, redisCommand, SENTINEL_NAME, sentinelConfig, sentinelMasterPort } from './redis';

export interface HaLayout {
  pgPorts: [number, number];
  patroniPorts: [number, number];
  etcdClientPort: number;
  etcdPeerPort: number;
  haproxyWritePort: number;
  haproxyReadPort: number;
  haproxyStatsPort: number;
  redisPorts: [number, number];
  sentinelPorts: [number, number, number];
  database: string;
}

/** The ports of this checkout's HA topology (HA_* variables override none: change them here). */
export const DEFAULT_LAYOUT: HaLayout = {
  pgPorts: [5470, 5471],
  patroniPorts: [8470, 8471],
  etcdClientPort: 2379,
  etcdPeerPort: 2380,
  haproxyWritePort: 5480,
  haproxyReadPort: 5481,
  haproxyStatsPort: 8480,
  redisPorts: [6480, 6481],
  sentinelPorts: [26480, 26481, 26482],
  database: 'scopa',
};

/** The Debian packages' programs the topology runs; a missing one is named (`.ci/run` installs them). */
export function missingPrograms(): string[] {
  const programs = [
    '/usr/bin/etcd',
    '/usr/bin/patroni',
    '/usr/sbin/haproxy',
    '/usr/bin/redis-server',
    '/usr/bin/redis-sentinel',
    path.join(PG_BIN, 'postgres'),
  ];
  return programs.filter((p) => !existsSync(p));
}

export class HaTopology {
  readonly etcd: Daemon;
  readonly nodes: PgNode[];
  readonly haproxy: Daemon;
  readonly redis: Daemon[];
  readonly sentinels: Daemon[];
  private started = false;

  private constructor(
    readonly layout: HaLayout,
    readonly root: string,
  ) {
    const l = layout;
    mkdirSync(path.join(root, 'etcd'), { recursive: true });
    this.etcd = new Daemon({
      name: 'etcd',
      command: 'etcd',
      args: [
        '--name=ha0',
        `--data-dir=${path.join(root, 'etcd')}`,
        `--listen-client-urls=http://127.0.0.1:${l.etcdClientPort}`,
        `--advertise-client-urls=http://127.0.0.1:${l.etcdClientPort}`,
        `--listen-peer-urls=http://127.0.0.1:${l.etcdPeerPort}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${l.etcdPeerPort}`,
        `--initial-cluster=ha0=http://127.0.0.1:${l.etcdPeerPort}`,
        '--initial-cluster-state=new',
        '--initial-cluster-token=scopa-ha',
      ],
      log: path.join(root, 'etcd.log'),
    });
    this.nodes = [0, 1].map((i) => preparePgNode(root, `pg${i}`, l.pgPorts[i], l.patroniPorts[i], l.etcdClientPort));
    const haproxyCfg = path.join(root, 'haproxy.cfg');
    writeFileSync(
      haproxyCfg,
      haproxyConfig({
        writePort: l.haproxyWritePort,
        readPort: l.haproxyReadPort,
        statsPort: l.haproxyStatsPort,
        nodes: this.nodes.map((n) => ({ name: n.name, pgPort: n.pgPort, apiPort: n.apiPort })),
      }),
    );
    // -db: in the foreground, not a daemon (stop() ends it)
    this.haproxy = new Daemon({ name: 'haproxy', command: 'haproxy', args: ['-db', '-f', haproxyCfg], log: path.join(root, 'haproxy.log') });
    this.redis = l.redisPorts.map((port, i) => {
      const dir = path.join(root, `redis-${port}`);
      mkdirSync(dir, { recursive: true });
      return new Daemon({
        name: `redis-${port}`,
        command: 'redis-server',
        args: redisArgs(port, dir, i === 0 ? null : l.redisPorts[0]),
        log: path.join(root, `redis-${port}.log`),
      });
    });
    this.sentinels = l.sentinelPorts.map((port) => {
      const dir = path.join(root, `sentinel-${port}`);
      mkdirSync(dir, { recursive: true });
      const conf = path.join(dir, 'sentinel.conf');
      writeFileSync(conf, sentinelConfig(port, l.redisPorts[0], dir));
      return new Daemon({ name: `sentinel-${port}`, command: 'redis-sentinel', args: [conf], log: path.join(root, `sentinel-${port}.log`) });
    });
  }

  /** A state folder under the system's temp folder (readable by postgres, whose nodes' folders are its own). */
  static create(layout: HaLayout = DEFAULT_LAYOUT, root?: string): HaTopology {
    const dir = root ?? mkdtempSync(path.join(tmpdir(), 'scopa-ha-'));
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o755);
    return new HaTopology(layout, dir);
  }

  get writeUrl(): string {
    return `postgresql://postgres@127.0.0.1:${this.layout.haproxyWritePort}/${this.layout.database}`;
  }

  get readUrl(): string {
    return `postgresql://postgres@127.0.0.1:${this.layout.haproxyReadPort}/${this.layout.database}`;
  }

  /** What a service instance or worker of this topology is started with. */
  serviceEnvironment(): Record<string, string> {
    return {
      DATABASE_URL: this.writeUrl,
      DATABASE_READ_URL: this.readUrl,
      REDIS_SENTINELS: this.layout.sentinelPorts.map((p) => `127.0.0.1:${p}`).join(','),
      REDIS_SENTINEL_NAME: SENTINEL_NAME,
    };
  }

  /** Starts everything and resolves once PostgreSQL has a primary and a sync standby behind HAProxy and Redis has its master, replica and Sentinels. */
  async start(log: (line: string) => void = () => undefined): Promise<void> {
    this.started = true;
    // should the caller exit without stop() (a test runner ending its worker), nothing is left running
    process.once('exit', this.killNow);
    const t0 = Date.now();
    const l = this.layout;
    this.etcd.start();
    // GET /version answers once etcd serves (its /health: a path the test suites' contract check takes for the service's)
    await waitFor('etcd serving', async () => (await fetch(`http://127.0.0.1:${l.etcdClientPort}/version`)).ok, 20_000);
    log(`etcd up on :${l.etcdClientPort} (${Date.now() - t0} ms)`);
    // the first node bootstraps (initdb); the second then clones it (pg_basebackup) as the standby
    this.nodes[0].daemon.start();
    await waitFor('pg0 bootstrapped as the leader', async () => (await currentPrimary(this.nodes)) !== null, 60_000, 500);
    this.nodes[1].daemon.start();
    this.haproxy.start();
    for (const r of this.redis) r.start();
    await waitFor('redis master', async () => (await redisCommand(l.redisPorts[0], 'PING')).includes('PONG'), 10_000);
    for (const s of this.sentinels) s.start();
    const { leader, standby } = await waitHealthy(this.nodes, 60_000);
    log(`patroni: leader ${leader}, sync standby ${standby} (${Date.now() - t0} ms)`);
    await waitFor('the database through HAProxy', () => this.ensureDatabase(), 30_000, 500);
    await waitFor(
      'redis replica in sync and the Sentinels agreeing on the master',
      async () => {
        const role = await redisCommand(l.redisPorts[1], 'ROLE');
        if (!role.includes('connected')) return false;
        const masters = await Promise.all(l.sentinelPorts.map((p) => sentinelMasterPort(p)));
        return masters.every((m) => m === l.redisPorts[0]);
      },
      30_000,
      300,
    );
    log(`redis master :${l.redisPorts[0]}, replica :${l.redisPorts[1]}, sentinels ${l.sentinelPorts.join(', ')} (${Date.now() - t0} ms)`);
  }

  /** Creates the service's database on the primary (through the write port) unless it exists. */
  private async ensureDatabase(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.writeUrl.replace(/\/[^/]*$/, '/postgres'), connectionTimeoutMillis: 2000 });
    await client.connect();
    try {
      const primary = await client.query<{ primary: boolean }>('SELECT NOT pg_is_in_recovery() AS primary');
      if (!primary.rows[0].primary) return false;
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [this.layout.database]);
      if (found.rowCount === 0) await client.query(`CREATE DATABASE "${this.layout.database}"`);
      return true;
    } finally {
      await client.end();
    }
  }

  /** The Patroni members (for a report). */
  members() {
    return clusterMembers(this.nodes);
  }

  /** SIGKILL to every process group and postmaster, synchronously (at exit). */
  private readonly killNow = (): void => {
    for (const d of [this.etcd, ...this.nodes.map((n) => n.daemon), this.haproxy, ...this.redis, ...this.sentinels]) d.kill();
    for (const n of this.nodes) {
      const pid = postmasterPid(n);
      if (pid !== null) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
  };

  /** Every process stopped, then the state folder removed (unless keep). Safe to call after a failed start. */
  async stop(keep = false): Promise<void> {
    process.removeListener('exit', this.killNow);
    if (this.started) {
      await Promise.allSettled([this.haproxy.stop(), ...this.sentinels.map((s) => s.stop()), ...this.redis.map((r) => r.stop())]);
      await Promise.allSettled(this.nodes.map((n) => stopPgNode(n)));
      await this.etcd.stop();
    }
    if (!keep) rmSync(this.root, { recursive: true, force: true });
  }

  /** The last lines of every log, for a failure's report. */
  tails(lines = 15): string {
    return [this.etcd, ...this.nodes.map((n) => n.daemon), this.haproxy, ...this.redis, ...this.sentinels]
      .map((d) => `--- ${d.options.name}\n${d.tail(lines)}`)
      .join('\n');
  }
}
