/**
 * Metrics that move (issue 14, item 12): every documented metric of
 * GET /metrics changes when its event happens, whichever path made it (a
 * person over the API, a bot seat, the turn clock, the webhook worker).
 * scopa_subscriptions_open is covered with the subscription caps.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ClockSchedulerService } from '../src/clocks/clock-scheduler.service';
import { PrismaService } from '../src/database/prisma.service';
import { WebhookWorkerService } from '../src/webhooks/webhook-worker.service';
import { createTestApp } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(120_000);

const ENV = { CLOCK_POLL_MS: '0', WEBHOOK_POLL_MS: '0', BOT_SWEEP_MS: '0', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_MAX_ATTEMPTS: '3' };

/** The value of one sample of the exposition text (0 when absent). */
function sample(text: string, name: string, labels = ''): number {
  const wanted = labels ? `${name}{${labels}}` : name;
  for (const line of text.split('\n')) {
    const at = line.lastIndexOf(' ');
    if (line.slice(0, at) === wanted) return Number(line.slice(at + 1));
  }
  return 0;
}

function receiver(status: number): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = status;
      res.end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` })),
  );
}

describe('metrics move when their events happen (e2e, PGlite)', () => {
  let app: INestApplication;
  let prisma: PrismaService;
  const saved: Record<string, string | undefined> = {};
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;
  const metrics = async () => (await http().get('/metrics')).text;

  beforeAll(async () => {
    for (const k of Object.keys(ENV)) saved[k] = process.env[k];
    app = await createTestApp(ENV);
    await app.listen(0, '127.0.0.1');
    prisma = app.get(PrismaService);
  });
  afterAll(async () => {
    await app?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  async function post(who: Account, path: string, body: Record<string, unknown> = {}, ifMatch?: number) {
    let req = http().post(path).set('authorization', auth(who));
    if (ifMatch !== undefined) req = req.set('if-match', `"${ifMatch}"`);
    return req.send(body);
  }
  async function playOne(who: Account, id: string) {
    const legal = (await http().get(`/v1/matches/${id}/legal-plays`).set('authorization', auth(who))).body;
    const res = await post(who, `/v1/matches/${id}/plays`, { card: legal.plays[0].card, capture: legal.plays[0].capture }, legal.seq);
    expect(res.status).toBeLessThan(300);
    return legal;
  }

  it('plays by source and their latency, rejections by code, clock expiries and webhook deliveries', async () => {
    const good = await receiver(200);
    const bad = await receiver(500);
    try {
      const alice = await register(app, 'ma');
      const bob = await register(app, 'mb');
      expect((await post(alice, '/v1/webhooks', { url: good.url, events: ['your_turn'] })).status).toBe(201);
      expect((await post(alice, '/v1/webhooks', { url: bad.url, events: ['your_turn'] })).status).toBe(201);
      let before = await metrics();

      // a person and a bot play: both counted, both timed
      const created = await post(alice, '/v1/matches', {
        preset: 'scopa',
        turnTimeLimit: 'PT1H',
        onExpiry: 'autoPlay',
        seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }],
      });
      expect(created.status).toBe(201);
      const id: string = created.body.id;
      expect((await post(alice, `/v1/matches/${id}/start`)).status).toBeLessThan(300);
      const legal = await playOne(alice, id); // the bot answers within the request
      let after = await metrics();
      expect(sample(after, 'scopa_plays_total', 'source="human"') - sample(before, 'scopa_plays_total', 'source="human"')).toBe(1);
      const botPlays = sample(after, 'scopa_plays_total', 'source="bot"') - sample(before, 'scopa_plays_total', 'source="bot"');
      expect(botPlays).toBeGreaterThanOrEqual(1);
      expect(sample(after, 'scopa_play_latency_seconds_count') - sample(before, 'scopa_play_latency_seconds_count')).toBe(1 + botPlays);
      expect(sample(after, 'scopa_play_latency_seconds_sum')).toBeGreaterThan(sample(before, 'scopa_play_latency_seconds_sum'));

      // refused commands, by the code the client got
      before = after;
      const stale = await post(alice, `/v1/matches/${id}/plays`, { card: legal.plays[0].card, capture: legal.plays[0].capture }, legal.seq);
      expect(stale.body.code).toBe('VERSION_CONFLICT');
      const intruder = await post(bob, `/v1/matches/${id}/resign`);
      expect(intruder.status).toBeGreaterThanOrEqual(400);
      after = await metrics();
      expect(
        sample(after, 'scopa_commands_rejected_total', 'code="VERSION_CONFLICT"') - sample(before, 'scopa_commands_rejected_total', 'code="VERSION_CONFLICT"'),
      ).toBe(1);
      expect(
        sample(after, 'scopa_commands_rejected_total', `code="${intruder.body.code}"`) -
          sample(before, 'scopa_commands_rejected_total', `code="${intruder.body.code}"`),
      ).toBe(1);
      expect(sample(after, 'scopa_play_latency_seconds_count')).toBe(sample(before, 'scopa_play_latency_seconds_count'));

      // the clock runs out: an expiry by policy, a play by the clock, timed too
      before = after;
      await prisma.$executeRawUnsafe(`UPDATE match_clocks SET deadline = now() - interval '1 second' WHERE match_id = $1::uuid`, id);
      expect(await app.get(ClockSchedulerService).scheduler.tick()).toEqual(['expired']);
      after = await metrics();
      expect(sample(after, 'scopa_clock_expiries_total', 'policy="autoPlay"') - sample(before, 'scopa_clock_expiries_total', 'policy="autoPlay"')).toBe(1);
      expect(sample(after, 'scopa_plays_total', 'source="clock"') - sample(before, 'scopa_plays_total', 'source="clock"')).toBe(1);
      expect(sample(after, 'scopa_play_latency_seconds_count') - sample(before, 'scopa_play_latency_seconds_count')).toBeGreaterThanOrEqual(1);

      // webhook deliveries, by outcome
      before = after;
      await app.get(WebhookWorkerService).poll();
      after = await metrics();
      expect(
        sample(after, 'scopa_webhook_deliveries_total', 'outcome="delivered"') - sample(before, 'scopa_webhook_deliveries_total', 'outcome="delivered"'),
      ).toBeGreaterThanOrEqual(1);
      expect(
        sample(after, 'scopa_webhook_deliveries_total', 'outcome="failed"') - sample(before, 'scopa_webhook_deliveries_total', 'outcome="failed"'),
      ).toBeGreaterThanOrEqual(1);
    } finally {
      good.server.close();
      bad.server.close();
    }
  });
});
