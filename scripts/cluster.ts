/**
 * npm run cluster: the docker-compose topology on this machine, from the local
 * PostgreSQL and Redis: two service instances (ports 3001, 3002) and a TCP
 * round-robin balancer in front (PORT, default 8080) that passes WebSockets
 * through and skips an instance that refuses connections.
 *
 *   DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/scopa, created if missing)
 *   REDIS_URL    (default redis://127.0.0.1:6379; none when REDIS_SENTINELS is set)
 *   REDIS_SENTINELS, REDIS_SENTINEL_NAME (optional: Redis through Sentinel, passed on to the instances)
 *   CLUSTER_INSTANCE_PORTS (default 3001,3002)
 *
 * npm run cluster -- --ha: docker-compose.yml's `ha` profile instead, from the
 * machine's Debian packages (scripts/ha/topology.ts): etcd, two PostgreSQL 15
 * nodes under Patroni (primary + synchronous standby), HAProxy (write port
 * 5480, read port 5481, stats 8480), Redis master + replica with three
 * Sentinels, the two instances (DATABASE_URL through the write port,
 * DATABASE_READ_URL through the read port, REDIS_SENTINELS), a worker
 * (dist/jobs/worker.js) and the balancer. Its state folder (data, generated
 * configs, logs) is a temp folder, printed at start and removed on Ctrl-C.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { SERVICE_ENVIRONMENT, SERVICE_NODE_FLAGS } from '../src/node-flags';
import { startBalancer } from './ha/balancer';
import { HaTopology, missingPrograms } from './ha/topology';

const HA = process.argv.includes('--ha');
const PORT = Number(process.env.PORT || 8080);
const BACKENDS = (process.env.CLUSTER_INSTANCE_PORTS || '3001,3002').split(',').map(Number);

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

function startProcess(script: string, name: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, script], {
    env: { ...SERVICE_ENVIRONMENT, ...process.env, ...env, INSTANCE_ID: name },
    stdio: 'inherit',
  });
  child.on('exit', (code, signal) => console.error(`${name} exited (${signal ?? code})`));
  return child;
}

async function main(): Promise<void> {
  if (!existsSync('dist/main.js')) throw new Error('run `npm run build` first (npm run cluster does it)');
  let topology: HaTopology | null = null;
  let env: Record<string, string>;
  if (HA) {
    const missing = missingPrograms();
    if (missing.length > 0)
      throw new Error(`--ha needs the Debian packages patroni, etcd-server, haproxy, redis-sentinel, postgresql-15: missing ${missing.join(', ')}`);
    topology = HaTopology.create();
    console.log(`HA state folder ${topology.root}`);
    try {
      await topology.start((line) => console.log(line));
    } catch (err) {
      console.error(topology.tails());
      await topology.stop();
      throw err;
    }
    env = topology.serviceEnvironment();
  } else {
    env = {
      DATABASE_URL: process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/scopa',
      // With REDIS_SENTINELS (and REDIS_SENTINEL_NAME) set, the instances find Redis through Sentinel: no URL beside it (blank is unset).
      REDIS_URL: process.env.REDIS_SENTINELS ? '' : process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    };
    await ensureDatabase(env.DATABASE_URL);
  }
  const children = BACKENDS.map((port) => startProcess('dist/main.js', `app${port}`, { ...env, PORT: String(port) }));
  if (HA) children.push(startProcess('dist/jobs/worker.js', 'worker', env));
  const balancer = startBalancer(BACKENDS, PORT);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    balancer.close();
    for (const child of children) child.kill('SIGTERM');
    const exits = children.map((c) => (c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', r))));
    const done = Promise.race([Promise.all(exits), new Promise((r) => setTimeout(r, 3000))]);
    void done.then(() => topology?.stop()).finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
