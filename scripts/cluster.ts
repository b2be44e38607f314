/**
 * npm run cluster: the docker-compose topology on this machine, from the local
 * PostgreSQL and Redis: two service instances (ports 3001, 3002) and a TCP
 * round-robin balancer in front (PORT, default 8080) that passes WebSockets
 * through and skips an instance that refuses connections.
 *
 *   DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/scopa, created if missing)
 *   REDIS_URL    (default redis://127.0.0.1:6379; none when REDIS_SENTINELS is set)
 *   REDIS_SENTINELS, REDIS_SENTINEL_NAME (optional: Redis through Sentinel, passed on to the instances)
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { SERVICE_ENVIRONMENT, SERVICE_NODE_FLAGS } from '../src/node-flags';

const DATABASE_URL = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/scopa';
// With REDIS_SENTINELS (and REDIS_SENTINEL_NAME) set, the instances find Redis through Sentinel: no URL beside it (blank is unset).
const REDIS_URL = process.env.REDIS_SENTINELS ? '' : process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const PORT = Number(process.env.PORT || 8080);
const BACKENDS = [3001, 3002];

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

function startInstance(port: number): ChildProcess {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
    env: { ...SERVICE_ENVIRONMENT, ...process.env, PORT: String(port), DATABASE_URL, REDIS_URL, INSTANCE_ID: `app${port}` },
    stdio: 'inherit',
  });
  child.on('exit', (code, signal) => console.error(`instance :${port} exited (${signal ?? code})`));
  return child;
}

/** Round-robin over the backends at the TCP level; a refused backend is skipped for this connection. */
function startBalancer(): net.Server {
  let next = 0;
  return net
    .createServer((downstream) => {
      const order = BACKENDS.map((_, i) => BACKENDS[(next + i) % BACKENDS.length]);
      next = (next + 1) % BACKENDS.length;
      const attempt = (k: number) => {
        if (k >= order.length) return downstream.destroy();
        const upstream = net.connect(order[k], '127.0.0.1');
        upstream.once('error', () => (upstream.bytesWritten === 0 ? attempt(k + 1) : downstream.destroy()));
        upstream.once('connect', () => {
          downstream.pipe(upstream).pipe(downstream);
          downstream.on('error', () => upstream.destroy());
          upstream.on('close', () => downstream.destroy());
          downstream.on('close', () => upstream.destroy());
        });
      };
      attempt(0);
    })
    .listen(PORT, '127.0.0.1', () => console.log(`balancer on http://127.0.0.1:${PORT} -> ${BACKENDS.map((p) => `:${p}`).join(', ')}`));
}

async function main(): Promise<void> {
  if (!existsSync('dist/main.js')) throw new Error('run `npm run build` first (npm run cluster does it)');
  await ensureDatabase(DATABASE_URL);
  const children = BACKENDS.map(startInstance);
  const balancer = startBalancer();
  const stop = () => {
    balancer.close();
    for (const child of children) child.kill('SIGTERM');
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
