import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { EMBEDDED_NODE_FLAGS, SERVICE_ENVIRONMENT, SERVICE_NODE_FLAGS } from '../src/node-flags';

// No Docker engine runs on the CI machines: check the file's topology instead.
const compose = parse(readFileSync(join(process.cwd(), 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<
    string,
    {
      image?: string;
      build?: string;
      environment?: Record<string, string>;
      ports?: string[];
      healthcheck?: { test: string[] };
      depends_on?: Record<string, { condition: string }>;
      volumes?: string[];
    }
  >;
};

describe('docker-compose.yml', () => {
  const { services } = compose;

  it('runs postgres, redis, two replicas and a load balancer, each with a health check', () => {
    expect(Object.keys(services).sort()).toEqual(['app1', 'app2', 'lb', 'postgres', 'redis']);
    expect(services.postgres.image).toMatch(/^postgres:\d+/);
    expect(services.redis.image).toMatch(/^redis:\d+/);
    expect(services.lb.image).toMatch(/^nginx:/);
    for (const [name, service] of Object.entries(services)) expect([name, service.healthcheck?.test.length]).toEqual([name, expect.any(Number)]);
  });

  it('points both replicas at the shared PostgreSQL and Redis', () => {
    for (const name of ['app1', 'app2']) {
      const app = services[name];
      expect(app.build).toBe('.');
      expect(app.environment).toMatchObject({
        DATABASE_URL: 'postgresql://scopa:scopa@postgres:5432/scopa',
        REDIS_URL: 'redis://redis:6379',
        PORT: '3000',
        INSTANCE_ID: name,
      });
      expect(app.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
      expect(app.ports).toBeUndefined(); // reached through the load balancer only
    }
  });

  it('exposes only the load balancer, which balances over both replicas', () => {
    expect(services.lb.ports).toEqual(['8080:80']);
    expect(services.lb.depends_on).toEqual({ app1: { condition: 'service_healthy' }, app2: { condition: 'service_healthy' } });
    const nginx = readFileSync(join(process.cwd(), 'deploy', 'nginx.conf'), 'utf8');
    expect(nginx).toMatch(/server app1:3000/);
    expect(nginx).toMatch(/server app2:3000/);
    expect(nginx).toMatch(/proxy_set_header Upgrade \$http_upgrade/);
    // each proxied WebSocket takes two of a worker's connections: nginx's default (512) held 256 sockets
    expect(Number(/^\s*worker_connections (\d+);/m.exec(nginx)?.[1])).toBeGreaterThanOrEqual(2 * 20_000);
    expect(Number(/^worker_rlimit_nofile (\d+);/m.exec(nginx)?.[1])).toBeGreaterThanOrEqual(2 * Number(/worker_connections (\d+);/.exec(nginx)?.[1]));
    expect(services.lb.volumes).toContain('./deploy/nginx.conf:/etc/nginx/nginx.conf:ro');
  });

  it("starts the replicas' image (PostgreSQL) with the service's Node flags and environment, as npm start does", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(process.cwd(), 'Dockerfile'), 'utf8'))?.[1];
    expect(JSON.parse(cmd ?? 'null')).toEqual(['node', ...SERVICE_NODE_FLAGS, 'dist/main.js']);
    const environment = Object.entries(SERVICE_ENVIRONMENT);
    for (const [name, value] of environment) expect(readFileSync(join(process.cwd(), 'Dockerfile'), 'utf8')).toMatch(new RegExp(`^ENV ${name}=${value}$`, 'm'));
  });

  it('npm start runs scripts/start.sh, which adds the embedded flags only without a DATABASE_URL', () => {
    const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('bash scripts/start.sh');
    // A stand-in `node` first on PATH prints what the script would start the service with.
    const bin = mkdtempSync(join(tmpdir(), 'scopa-start-'));
    writeFileSync(join(bin, 'node'), '#!/usr/bin/env bash\necho "MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX $*"\n', { mode: 0o755 });
    const started = (env: Record<string, string>) => {
      // Nothing else of this process's environment: bash and the stand-in need only the system folders.
      return execFileSync('bash', ['scripts/start.sh'], { env: { PATH: `${bin}:/usr/bin:/bin`, ...env }, encoding: 'utf8' }).trim();
    };
    const arena = `MALLOC_ARENA_MAX=${SERVICE_ENVIRONMENT.MALLOC_ARENA_MAX}`;
    try {
      expect(started({})).toBe([arena, ...SERVICE_NODE_FLAGS, ...EMBEDDED_NODE_FLAGS, 'dist/main.js'].join(' '));
      expect(started({ DATABASE_URL: ' ' })).toBe([arena, ...SERVICE_NODE_FLAGS, ...EMBEDDED_NODE_FLAGS, 'dist/main.js'].join(' '));
      expect(started({ DATABASE_URL: 'postgresql://scopa@127.0.0.1/scopa' })).toBe([arena, ...SERVICE_NODE_FLAGS, 'dist/main.js'].join(' '));
      expect(started({ MALLOC_ARENA_MAX: '4', DATABASE_URL: 'postgresql://scopa@127.0.0.1/scopa' })).toBe(
        ['MALLOC_ARENA_MAX=4', ...SERVICE_NODE_FLAGS, 'dist/main.js'].join(' '),
      );
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
