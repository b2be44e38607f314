import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { EMBEDDED_NODE_FLAGS, SERVICE_ENVIRONMENT, SERVICE_NODE_FLAGS } from '../src/node-flags';
import { dcsSettings } from '../scripts/ha/patroni';

// No Docker engine runs on the CI machines: check the file's topology instead.
const compose = parse(readFileSync(join(process.cwd(), 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<
    string,
    {
      image?: string;
      build?: string;
      profiles?: string[];
      command?: string[];
      environment?: Record<string, string>;
      ports?: string[];
      healthcheck?: { test: string[] };
      depends_on?: Record<string, { condition: string }>;
      volumes?: string[];
    }
  >;
};

describe('docker-compose.yml', () => {
  // the default topology: the services of no profile (those of a profile start only with it)
  const services = Object.fromEntries(Object.entries(compose.services).filter(([, s]) => s.profiles === undefined));
  const ha = Object.fromEntries(Object.entries(compose.services).filter(([, s]) => s.profiles?.includes('ha')));

  it('runs postgres, redis, two replicas and a load balancer, each with a health check', () => {
    expect(Object.keys(services).sort()).toEqual(['app1', 'app2', 'lb', 'postgres', 'redis']);
    // every other service is of the ha profile
    expect(Object.keys(compose.services).length).toBe(Object.keys(services).length + Object.keys(ha).length);
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
  describe("profile ha: Patroni over etcd, HAProxy, Redis with Sentinel (docs/operations.md, 'High availability')", () => {
    const read = (file: string) => readFileSync(join(process.cwd(), file), 'utf8');
    const healthy = { condition: 'service_healthy' };

    it('runs etcd, two Patroni nodes, HAProxy, a Redis master and replica, three Sentinels, two replicas, a worker and a load balancer, each with a health check', () => {
      expect(Object.keys(ha).sort()).toEqual(
        [
          'etcd',
          'pg1',
          'pg2',
          'haproxy',
          'redis-master',
          'redis-replica',
          'sentinel1',
          'sentinel2',
          'sentinel3',
          'ha-app1',
          'ha-app2',
          'ha-worker',
          'ha-lb',
        ].sort(),
      );
      for (const [name, service] of Object.entries(ha)) expect([name, service.healthcheck?.test.length]).toEqual([name, expect.any(Number)]);
      // only the load balancer is published, on a port of its own (the default topology's lb has 8080)
      expect(Object.entries(ha).filter(([, s]) => s.ports !== undefined)).toEqual([['ha-lb', expect.objectContaining({ ports: ['8081:80'] })]]);
      expect(ha['ha-lb'].depends_on).toEqual({ 'ha-app1': healthy, 'ha-app2': healthy, 'ha-worker': { condition: 'service_started' } });
      expect(read('deploy/ha/nginx.conf')).toMatch(/server ha-app1:3000/);
      expect(read('deploy/ha/nginx.conf')).toMatch(/server ha-app2:3000/);
      expect(read('deploy/ha/nginx.conf')).toMatch(/proxy_set_header Upgrade \$http_upgrade/);
    });

    it('runs PostgreSQL 15 under Patroni from Debian packages, as postgres, synchronous, with pg_rewind and a short ttl', () => {
      for (const name of ['pg1', 'pg2']) {
        expect(ha[name].build).toBe('deploy/ha');
        expect(ha[name].environment).toMatchObject({
          PATRONI_NAME: name,
          PATRONI_RESTAPI_CONNECT_ADDRESS: `${name}:8008`,
          PATRONI_POSTGRESQL_CONNECT_ADDRESS: `${name}:5432`,
        });
        expect(ha[name].depends_on).toEqual({ etcd: healthy });
      }
      expect(ha.pg1.volumes).not.toEqual(ha.pg2.volumes); // a data folder each
      const dockerfile = read('deploy/ha/Dockerfile');
      expect(dockerfile).toMatch(/^FROM debian:bookworm/m);
      expect(dockerfile).toMatch(/apt-get install -y --no-install-recommends patroni postgresql-15 python3-etcd python3-psycopg2/);
      expect(dockerfile).toMatch(/^USER postgres$/m);
      const patroni = parse(read('deploy/ha/patroni.yml')) as any;
      expect(patroni.etcd3.hosts).toBe('etcd:2379');
      expect(patroni.bootstrap.dcs).toMatchObject({
        ttl: 10,
        loop_wait: 2,
        retry_timeout: 4,
        synchronous_mode: true,
        synchronous_mode_strict: false,
        postgresql: { use_pg_rewind: true },
      });
      expect(patroni.postgresql.bin_dir).toBe('/usr/lib/postgresql/15/bin');
      // the same DCS settings as npm run cluster -- --ha
      expect(patroni.bootstrap.dcs).toEqual(dcsSettings());
    });

    it('routes the write port to the primary and the read port to the standbys by Patroni health checks', () => {
      const cfg = read('deploy/ha/haproxy.cfg');
      const section = (name: string) => cfg.split(/\n(?=listen )/).find((s) => s.startsWith(`listen ${name}`)) ?? '';
      expect(section('postgres_write')).toMatch(/bind \*:5000/);
      expect(section('postgres_write')).toMatch(/option httpchk GET \/primary/);
      expect(section('postgres_read')).toMatch(/bind \*:5001/);
      expect(section('postgres_read')).toMatch(/option httpchk GET \/replica/);
      for (const s of [section('postgres_write'), section('postgres_read')]) {
        expect(s).toMatch(/on-marked-down shutdown-sessions/);
        expect(s).toMatch(/server pg1 pg1:5432 .*check port 8008/);
        expect(s).toMatch(/server pg2 pg2:5432 .*check port 8008/);
      }
      expect(ha.haproxy.depends_on).toEqual({ pg1: healthy, pg2: healthy });
    });

    it('runs Redis with three Sentinels watching the master, quorum 2', () => {
      expect(ha['redis-replica'].command).toEqual(expect.arrayContaining(['--replicaof', 'redis-master', '6379']));
      for (const name of ['sentinel1', 'sentinel2', 'sentinel3']) {
        expect(ha[name].image).toMatch(/^redis:\d+/);
        expect(ha[name].command?.join(' ')).toMatch(/redis-sentinel/);
        expect(ha[name].volumes).toContain('./deploy/ha/sentinel.conf:/etc/scopa/sentinel.conf:ro');
      }
      expect(read('deploy/ha/sentinel.conf')).toMatch(/^sentinel monitor scopa-redis redis-master 6379 2$/m);
    });

    it('points the replicas and the worker at HAProxy (writes, reads) and at the Sentinels', () => {
      for (const name of ['ha-app1', 'ha-app2', 'ha-worker']) {
        const app = ha[name];
        expect(app.build).toBe('.');
        expect(app.environment).toMatchObject({
          DATABASE_URL: 'postgresql://scopa:scopa@haproxy:5000/scopa',
          DATABASE_READ_URL: 'postgresql://scopa:scopa@haproxy:5001/scopa',
          REDIS_SENTINELS: 'sentinel1:26379,sentinel2:26379,sentinel3:26379',
          REDIS_SENTINEL_NAME: 'scopa-redis',
          INSTANCE_ID: name,
        });
        expect(app.environment?.REDIS_URL).toBeUndefined();
        expect(app.depends_on).toEqual({ haproxy: healthy, sentinel1: healthy, sentinel2: healthy, sentinel3: healthy });
      }
      expect(ha['ha-worker'].command).toEqual(['node', ...SERVICE_NODE_FLAGS, 'dist/jobs/worker.js']);
    });
  });
});
