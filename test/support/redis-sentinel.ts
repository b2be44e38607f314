/**
 * A Redis master, its replicas and Sentinels on this machine, from the
 * Debian packages (redis-server, redis-sentinel), each a child process on its
 * own port with its files in a temporary folder: the topology a test kills
 * the master of (SIGKILL) to watch Sentinel promote a replica.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

export interface SentinelTopologyOptions {
  /** The master group's name (REDIS_SENTINEL_NAME). */
  name: string;
  masterPort: number;
  replicaPorts: number[];
  /** At least three, for a quorum of 2 that survives one. */
  sentinelPorts: number[];
  quorum?: number;
  /** Sentinel's down-after-milliseconds (default 1000) and failover-timeout (default 3000). */
  downAfterMs?: number;
  failoverTimeoutMs?: number;
}

interface Node {
  port: number;
  child: ChildProcess;
  stderr: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function launch(command: string, args: string[], port: number): Node {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  const keep = (chunk: Buffer) => {
    stderr.push(...chunk.toString().split('\n').filter(Boolean));
    if (stderr.length > 40) stderr.splice(0, stderr.length - 40);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { port, child, stderr };
}

/** One command to the server on `port`, on a connection of its own (no retries: a dead server is an error at once). */
async function ask(port: number, ...args: (string | number)[]): Promise<unknown> {
  const r = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  r.on('error', () => undefined);
  try {
    await r.connect();
    return await r.call(String(args[0]), ...args.slice(1).map(String));
  } finally {
    r.disconnect();
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export class SentinelTopology {
  private readonly dir = mkdtempSync(join(tmpdir(), 'scopa-sentinel-'));
  private readonly servers = new Map<number, Node>();
  private readonly sentinels: Node[] = [];

  constructor(readonly options: SentinelTopologyOptions) {}

  /** REDIS_SENTINELS for the service. */
  get sentinelsEnv(): string {
    return this.options.sentinelPorts.map((p) => `127.0.0.1:${p}`).join(',');
  }

  /** Starts the master, the replicas (in sync) and the Sentinels (each knowing the others and every replica). */
  async start(): Promise<void> {
    const { name, masterPort, replicaPorts, sentinelPorts } = this.options;
    const server = (port: number, extra: string[]) =>
      launch(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir, '--dbfilename', `dump-${port}.rdb`, ...extra],
        port,
      );
    this.servers.set(masterPort, server(masterPort, []));
    await until(`redis-server :${masterPort}`, async () => (await ask(masterPort, 'PING')) === 'PONG', 10_000);
    for (const port of replicaPorts) this.servers.set(port, server(port, ['--replicaof', '127.0.0.1', String(masterPort)]));
    for (const port of replicaPorts) {
      await until(`replica :${port} in sync`, async () => /master_link_status:up/.test(String(await ask(port, 'INFO', 'replication'))), 15_000);
    }
    for (const port of sentinelPorts) {
      const file = join(this.dir, `sentinel-${port}.conf`);
      writeFileSync(
        file,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${this.dir}`,
          `sentinel monitor ${name} 127.0.0.1 ${masterPort} ${this.options.quorum ?? 2}`,
          `sentinel down-after-milliseconds ${name} ${this.options.downAfterMs ?? 1000}`,
          `sentinel failover-timeout ${name} ${this.options.failoverTimeoutMs ?? 3000}`,
          `sentinel parallel-syncs ${name} 1`,
          '',
        ].join('\n'),
      );
      this.sentinels.push(launch('redis-sentinel', [file], port));
    }
    // A failover needs a majority of Sentinels that know one another, and a replica they all know.
    for (const port of sentinelPorts) {
      await until(
        `sentinel :${port} knowing its peers and the replicas`,
        async () =>
          ((await ask(port, 'SENTINEL', 'SENTINELS', name)) as unknown[]).length === sentinelPorts.length - 1 &&
          ((await ask(port, 'SENTINEL', 'REPLICAS', name)) as unknown[]).length === replicaPorts.length,
        30_000,
      );
    }
  }

  /** The master's port as the Sentinels report it (the first that answers). */
  async masterPort(): Promise<number> {
    for (const port of this.options.sentinelPorts) {
      try {
        const [, p] = (await ask(port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', this.options.name)) as [string, string];
        return Number(p);
      } catch {
        // next Sentinel
      }
    }
    throw new Error('no Sentinel answers');
  }

  /** SIGKILLs the current master; returns its port. */
  async killMaster(): Promise<number> {
    const port = await this.masterPort();
    const node = this.servers.get(port);
    if (!node) throw new Error(`no server of ours on ${port}`);
    node.child.kill('SIGKILL');
    return port;
  }

  /** Resolves with the new master's port once every Sentinel names a master other than `old` and that server says it is one. */
  async promoted(old: number, timeoutMs = 30_000): Promise<number> {
    let port = old;
    await until(
      'a replica promoted',
      async () => {
        const named = await Promise.all(
          this.options.sentinelPorts.map(async (s) => Number(((await ask(s, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', this.options.name)) as string[])[1])),
        );
        if (named.some((p) => p !== named[0]) || named[0] === old) return false;
        port = named[0];
        return /role:master/.test(String(await ask(port, 'INFO', 'replication')));
      },
      timeoutMs,
    );
    return port;
  }

  /** The last lines of every process, for a failure's report. */
  logs(): string {
    return [...this.servers.values(), ...this.sentinels].map((n) => `:${n.port}\n  ${n.stderr.slice(-8).join('\n  ')}`).join('\n');
  }

  async stop(): Promise<void> {
    const all = [...this.servers.values(), ...this.sentinels];
    await Promise.all(
      all.map(
        (n) =>
          new Promise<void>((resolve) => {
            if (n.child.exitCode !== null || n.child.signalCode !== null) return resolve();
            n.child.once('exit', () => resolve());
            n.child.kill('SIGKILL');
          }),
      ),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
