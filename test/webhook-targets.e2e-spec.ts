/**
 * Webhooks never reach inside (issue 14, item 7): without
 * WEBHOOK_ALLOW_PRIVATE, a webhook aimed at loopback, private, link-local,
 * metadata or the service's own address is refused at registration (REST and
 * GraphQL), and a stored one whose name resolves to such an address when it
 * is sent (DNS rebinding) is refused at delivery, before any connection. The
 * deliveries log never tells the owner which kind of network failure it met.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { PrismaService } from '../src/database/prisma.service';
import { WebhookWorker } from '../src/webhooks/webhook-worker';
import { WebhookTargetPolicy } from '../src/webhooks/target-policy';
import { createTestApp, listenOnLoopback } from './support/app';
import { errorCode, gql, register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(120_000);

/** A TCP server: counts connections, and either answers nothing and hangs up, or never answers. */
function tcpTarget(behaviour: 'hang up' | 'silent'): Promise<{ server: Server; port: number; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    if (behaviour === 'hang up') socket.destroy();
    else socket.on('error', () => undefined);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, connections: () => count })),
  );
}

describe('webhook targets (e2e, PGlite, WEBHOOK_ALLOW_PRIVATE unset)', () => {
  let app: INestApplication;
  let prisma: PrismaService;
  let owner: Account;
  let selfUrl: string;
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE;

  beforeAll(async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    app = await createTestApp({ WEBHOOK_POLL_MS: '0' });
    selfUrl = `${(await listenOnLoopback(app)).http}/v1/matches`;
    prisma = app.get(PrismaService);
    owner = await register(app, 'hook');
  });
  afterAll(async () => {
    await app?.close();
    if (saved !== undefined) process.env.WEBHOOK_ALLOW_PRIVATE = saved;
  });

  const inside = [
    'http://127.0.0.1:5432/',
    'http://localhost:6379/',
    'http://[::1]:3000/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.7/hook',
    'http://192.168.1.20/hook',
    'http://172.20.0.2:8080/',
    'http://100.64.0.1/',
    'http://0.0.0.0:3000/',
    'http://[::ffff:127.0.0.1]:6379/',
    'http://[fd12::1]/',
    'http://[fe80::1]/',
    'http://2130706433/', // 127.0.0.1 in decimal
    'http://0x7f.1/', // 127.0.0.1 in a shorthand
    'http://224.0.0.1/',
    'http://255.255.255.255/',
  ];

  it('refuses to register a webhook aimed inside, over REST, with a typed 400 that names the reason and stores nothing', async () => {
    for (const url of [...inside, selfUrl]) {
      const res = await request(app.getHttpServer()).post('/v1/webhooks').set('authorization', `Bearer ${owner.token}`).send({ url });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: 'VALIDATION_FAILED' });
      expect(res.body.detail).toMatch(/webhooks may only target public addresses/);
    }
    expect(await prisma.webhook.count({ where: { accountId: owner.id } })).toBe(0);
  });

  it('refuses the same targets through the GraphQL mutation', async () => {
    for (const url of ['http://127.0.0.1:5432/', 'http://localhost:6379/', 'http://169.254.169.254/', selfUrl]) {
      const r = await gql(app, owner.token, 'mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { id } }', { i: { url } });
      expect({ url, code: errorCode(r) }).toEqual({ url, code: 'VALIDATION_FAILED' });
    }
    expect(await prisma.webhook.count({ where: { accountId: owner.id } })).toBe(0);
  });

  async function storedDelivery(url: string): Promise<string> {
    // As if the name had resolved to a public address at registration and to this one now.
    const webhookId = randomUUID();
    await prisma.webhook.create({ data: { id: webhookId, accountId: owner.id, username: owner.username, url, secret: 'whsec_test', events: ['your_turn'] } });
    const id = randomUUID();
    await prisma.webhookDelivery.create({ data: { id, webhookId, event: 'your_turn', payload: { matchId: randomUUID(), seq: 1 } } });
    return id;
  }

  async function deliveryAfterOneSend(worker: WebhookWorker, id: string) {
    // The first attempt, as its job's handler runs it; the next one is queued a minute later, out of this test's way.
    const outcome = await worker.attempt({ deliveryId: id, attempt: 1 });
    const row = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id } });
    return { outcome, lastError: row.lastError, responseCode: row.responseCode };
  }

  it('refuses at delivery a name that now resolves to a loopback address, without connecting (DNS rebinding)', async () => {
    const target = await tcpTarget('hang up');
    try {
      const worker = new WebhookWorker(prisma, { timeoutMs: 2000, backoffMs: 60_000 });
      const byName = await storedDelivery(`http://localhost:${target.port}/hook`);
      expect(await deliveryAfterOneSend(worker, byName)).toEqual({ outcome: 'failed', lastError: 'refused target', responseCode: null });
      const byAddress = await storedDelivery(`http://[::ffff:127.0.0.1]:${target.port}/hook`);
      expect(await deliveryAfterOneSend(worker, byAddress)).toEqual({ outcome: 'failed', lastError: 'refused target', responseCode: null });
      expect(target.connections()).toBe(0);
    } finally {
      target.server.close();
    }
  });

  it('reports delivery failures to the owner without network detail (closed port, hang-up and timeout alike)', async () => {
    const hangUp = await tcpTarget('hang up');
    const silent = await tcpTarget('silent');
    const closed = await tcpTarget('hang up');
    const closedPort = closed.port;
    await new Promise((r) => closed.server.close(r));
    try {
      const dev = new WebhookWorker(prisma, { timeoutMs: 1000, backoffMs: 60_000, policy: new WebhookTargetPolicy(true) });
      const refused = await deliveryAfterOneSend(dev, await storedDelivery(`http://127.0.0.1:${closedPort}/`));
      const reset = await deliveryAfterOneSend(dev, await storedDelivery(`http://127.0.0.1:${hangUp.port}/`));
      const unresolved = await deliveryAfterOneSend(dev, await storedDelivery('http://no-such-host.invalid/'));
      const slow = await deliveryAfterOneSend(dev, await storedDelivery(`http://127.0.0.1:${silent.port}/`));
      expect([refused.lastError, reset.lastError, unresolved.lastError, slow.lastError]).toEqual([
        'connection failed',
        'connection failed',
        'connection failed',
        'timeout',
      ]);
      const log = await request(app.getHttpServer()).get('/v1/webhooks/deliveries').set('authorization', `Bearer ${owner.token}`);
      expect(new Set(log.body.map((d: { lastError: string }) => d.lastError))).toEqual(new Set(['refused target', 'connection failed', 'timeout']));
      expect(log.text).not.toMatch(/ECONN|socket|closed|ENOTFOUND|EAI_AGAIN|127\.0\.0\.1/i);
    } finally {
      hangUp.server.close();
      silent.server.close();
    }
  });
});
