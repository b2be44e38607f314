/**
 * Webhook deliveries on the one job queue (issue 44): each attempt is a
 * 'webhook-delivery' job, queued with the outbox row by its writer
 * (scopa_enqueue_webhook) or with the previous attempt's record; the row keeps
 * the delivery's state, every job completes. On PGlite, receivers on
 * 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { openDatabase } from '../src/database/database';
import { readMigrations } from '../src/database/migrator';
import { PrismaService } from '../src/database/prisma.service';
import { jobId } from '../src/jobs/job-ids';
import { JobQueue } from '../src/jobs/job-queue';
import { attemptKey } from '../src/webhooks/webhook-worker';
import { WebhookWorkerService } from '../src/webhooks/webhook-worker.service';
import { createTestApp } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(120_000);

const MIGRATION = '20261210030000_webhook_jobs';

/** A receiver answering the given statuses in turn (the last one from then on). */
function receiver(statuses: number[]): Promise<{ server: Server; url: string; got: { headers: IncomingHttpHeaders; body: string }[] }> {
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.statusCode = statuses[Math.min(got.length, statuses.length) - 1];
      res.end('ok');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got })),
  );
}

async function until(done: () => Promise<boolean>, ms: number, step: () => Promise<unknown> = async () => undefined): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error('timed out');
    await step();
    await new Promise((r) => setTimeout(r, 30));
  }
}

function withEnv(env: Record<string, string>): void {
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const k of Object.keys(env)) saved[k] = process.env[k];
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}

/** Queues a your_turn webhook for `player` through the outbox's writer, as the append's trigger does; its delivery ids. */
async function enqueueYourTurn(prisma: PrismaService, player: string): Promise<string[]> {
  const before = new Set((await prisma.webhookDelivery.findMany({ select: { id: true } })).map((d) => d.id));
  await prisma.$executeRawUnsafe(`SELECT scopa_enqueue_webhook($1, 'your_turn', $2::jsonb)`, player, JSON.stringify({ matchId: randomUUID(), seq: 1 }));
  return (await prisma.webhookDelivery.findMany({ select: { id: true } })).map((d) => d.id).filter((id) => !before.has(id));
}

describe('webhook deliveries as jobs, driven by poll() (WEBHOOK_POLL_MS=0)', () => {
  const ENV = { WEBHOOK_POLL_MS: '0', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_BACKOFF_MS: '20', WEBHOOK_MAX_ATTEMPTS: '4', WEBHOOK_TIMEOUT_MS: '3000' };
  withEnv(ENV);
  let app: INestApplication;
  let prisma: PrismaService;
  let jobs: JobQueue;
  let hooks: WebhookWorkerService;
  let owner: Account;

  beforeAll(async () => {
    app = await createTestApp(ENV);
    prisma = app.get(PrismaService);
    jobs = app.get(JobQueue);
    hooks = app.get(WebhookWorkerService);
    owner = await register(app, 'wj');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a receiver failing twice then answering 2xx gets 3 attempts with the same delivery id; the delivery ends delivered, every job completed', async () => {
    const target = await receiver([500, 503, 200]);
    try {
      const hook = await request(app.getHttpServer())
        .post('/v1/webhooks')
        .set('authorization', `Bearer ${owner.token}`)
        .send({ url: target.url, events: ['your_turn'] });
      expect(hook.status).toBe(201);
      const [id] = await enqueueYourTurn(prisma, owner.username);
      expect(id).toBeDefined();
      // the writer queued the first attempt with the row; no worker here, so nothing is sent until poll()
      expect(await jobs.state('webhook-delivery', jobId('webhook-delivery', attemptKey(id, 1)))).toBe('created');
      await new Promise((r) => setTimeout(r, 100));
      expect(target.got).toHaveLength(0);
      // a job whose worker dies mid-send expires and runs again: the kind retries (a failed send does not use these)
      const [policy] = await prisma.$queryRawUnsafe<{ retry_limit: number; expire_seconds: number }[]>(
        `SELECT retry_limit, EXTRACT(EPOCH FROM expire_in)::int AS expire_seconds FROM pgboss.job WHERE id = $1::uuid`,
        jobId('webhook-delivery', attemptKey(id, 1)),
      );
      expect(policy.retry_limit).toBeGreaterThan(0);
      expect(policy.expire_seconds).toBeGreaterThan(3);

      const row = () => prisma.webhookDelivery.findUniqueOrThrow({ where: { id } });
      await until(
        async () => (await row()).status !== 'pending',
        10_000,
        () => hooks.poll(),
      );

      expect(target.got).toHaveLength(3);
      expect(target.got.map((g) => g.headers['scopa-delivery'])).toEqual([id, id, id]);
      expect(target.got.map((g) => JSON.parse(g.body).id)).toEqual([id, id, id]);
      expect(new Set(target.got.map((g) => g.body)).size).toBe(1);
      const done = await row();
      expect({ status: done.status, attempts: done.attempts, responseCode: done.responseCode, lastError: done.lastError }).toEqual({
        status: 'delivered',
        attempts: 3,
        responseCode: 200,
        lastError: null,
      });
      // one job per attempt, each completed (the retries are new jobs, never a failed one), and no fourth
      for (const n of [1, 2, 3]) expect(await jobs.state('webhook-delivery', jobId('webhook-delivery', attemptKey(id, n)))).toBe('completed');
      expect(await jobs.state('webhook-delivery', jobId('webhook-delivery', attemptKey(id, 4)))).toBeNull();
      expect(await jobs.failed({ kind: 'webhook-delivery', limit: 10 })).toEqual([]);

      // an attempt run again after it was recorded (its worker died after the commit) sends nothing
      expect(await hooks.worker.attempt({ deliveryId: id, attempt: 3 })).toBeNull();
      expect(target.got).toHaveLength(3);
    } finally {
      target.server.close();
    }
  });

  it('a receiver that never answers 2xx: WEBHOOK_MAX_ATTEMPTS attempts, then the delivery is failed and its jobs completed', async () => {
    const target = await receiver([500]);
    try {
      const other = await register(app, 'wk');
      await request(app.getHttpServer())
        .post('/v1/webhooks')
        .set('authorization', `Bearer ${other.token}`)
        .send({ url: target.url, events: ['your_turn'] });
      const [id] = await enqueueYourTurn(prisma, other.username);
      await until(
        async () => (await prisma.webhookDelivery.findUniqueOrThrow({ where: { id } })).status !== 'pending',
        10_000,
        () => hooks.poll(),
      );
      const done = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id } });
      expect({ status: done.status, attempts: done.attempts, lastError: done.lastError }).toEqual({ status: 'failed', attempts: 4, lastError: 'HTTP 500' });
      expect(target.got).toHaveLength(4);
      for (const n of [1, 2, 3, 4]) expect(await jobs.state('webhook-delivery', jobId('webhook-delivery', attemptKey(id, n)))).toBe('completed');
      expect(await jobs.failed({ kind: 'webhook-delivery', limit: 10 })).toEqual([]);
    } finally {
      target.server.close();
    }
  });
});

describe("webhook deliveries worked by this process's job workers (WEBHOOK_POLL_MS > 0)", () => {
  const ENV = { WEBHOOK_POLL_MS: '500', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_BACKOFF_MS: '20', WEBHOOK_TIMEOUT_MS: '3000' };
  withEnv(ENV);
  let app: INestApplication;

  beforeAll(async () => {
    app = await createTestApp(ENV);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('delivers without anyone polling, retries included', async () => {
    const target = await receiver([500, 200]);
    try {
      const owner = await register(app, 'wl');
      await request(app.getHttpServer())
        .post('/v1/webhooks')
        .set('authorization', `Bearer ${owner.token}`)
        .send({ url: target.url, events: ['your_turn'] });
      const prisma = app.get(PrismaService);
      const [id] = await enqueueYourTurn(prisma, owner.username);
      await until(async () => (await prisma.webhookDelivery.findUniqueOrThrow({ where: { id } })).status === 'delivered', 15_000);
      expect(target.got.map((g) => g.headers['scopa-delivery'])).toEqual([id, id]);
      expect(await app.get(JobQueue).failed({ kind: 'webhook-delivery', limit: 10 })).toEqual([]);
    } finally {
      target.server.close();
    }
  });
});

describe(`migration ${MIGRATION}: the deliveries already pending get their next attempt queued, once`, () => {
  it('queues attempt attempts + 1 of each pending row, when it is due, and nothing for the others', async () => {
    const all = readMigrations();
    const at = all.findIndex((m) => m.name === MIGRATION);
    const db = await openDatabase({ dataDir: 'memory', migrations: all.slice(0, at) });
    try {
      const webhookId = randomUUID();
      await db.prisma.$executeRawUnsafe(
        `INSERT INTO webhooks (id, account_id, username, url, secret, events) VALUES ($1::uuid, $2::uuid, 'old', 'https://example.com/h', 's', ARRAY['your_turn'])`,
        webhookId,
        randomUUID(),
      );
      const [fresh, retried, done] = [randomUUID(), randomUUID(), randomUUID()];
      const later = new Date(Date.now() + 60_000);
      await db.prisma.$executeRawUnsafe(
        `INSERT INTO webhook_deliveries (id, webhook_id, event, payload, status, attempts, next_attempt_at) VALUES
           ($1::uuid, $4::uuid, 'your_turn', '{}', 'pending', 0, now()),
           ($2::uuid, $4::uuid, 'your_turn', '{}', 'pending', 2, $5::timestamptz),
           ($3::uuid, $4::uuid, 'your_turn', '{}', 'delivered', 1, now())`,
        fresh,
        retried,
        done,
        webhookId,
        later,
      );
      await db.pglite!.exec(readFileSync(path.join(process.cwd(), 'prisma', 'migrations', MIGRATION, 'migration.sql'), 'utf8'));
      const queued = await db.prisma.$queryRawUnsafe<{ id: string; data: { deliveryId: string; attempt: number }; start_after: Date }[]>(
        `SELECT id::text, data, start_after FROM pgboss.job WHERE name = 'webhook-delivery' ORDER BY (data->>'attempt')::int`,
      );
      expect(queued.map((j) => [j.id, j.data])).toEqual([
        [jobId('webhook-delivery', attemptKey(fresh, 1)), { deliveryId: fresh, attempt: 1 }],
        [jobId('webhook-delivery', attemptKey(retried, 3)), { deliveryId: retried, attempt: 3 }],
      ]);
      expect(new Date(queued[1].start_after).getTime()).toBe(later.getTime());
      expect(new Date(queued[0].start_after).getTime()).toBeLessThanOrEqual(Date.now());
    } finally {
      await db.close();
    }
  });
});
