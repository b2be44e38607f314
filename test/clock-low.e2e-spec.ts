/**
 * clockLow on PGlite (docs/lobby.md "Clock low"): once the turn clock of a human has
 * less than CLOCK_LOW_FRACTION of the limit left, one notice per turn (myTurn
 * kind clockLow, a clockLow PlayerEvent, a clock_low webhook, the inbox flag),
 * however many ticks run at once (the database decides, as for two instances);
 * the next turn gets its own. The scheduler is driven by hand (CLOCK_POLL_MS=0).
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ClockSchedulerService } from '../src/clocks/clock-scheduler.service';
import { ClockLowNotifier } from '../src/clocks/clock-low';
import { PrismaService } from '../src/database/prisma.service';
import { PUB_SUB } from '../src/realtime/realtime.module';
import type { PubSubEngine } from '../src/realtime/realtime.module';
import { playerChannel, turnChannel } from '../src/realtime/channels';
import { createTestApp } from './support/app';
import { gqlOk, register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(120_000);

describe('clockLow (e2e, PGlite)', () => {
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  beforeAll(async () => {
    // 10 s turns, low below 80% left: low 2 s into a turn.
    app = await createTestApp({ CLOCK_POLL_MS: '0', WEBHOOK_POLL_MS: '0', WEBHOOK_ALLOW_PRIVATE: 'true', CLOCK_LOW_FRACTION: '0.8' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('one notice per turn through myTurn, the player channel, the webhook and the inbox, even with ticks racing', async () => {
    const a = await register(app, 'cla');
    const b = await register(app, 'clb');
    for (const who of [a, b])
      await http()
        .post('/v1/webhooks')
        .set('authorization', auth(who))
        .send({ url: 'http://127.0.0.1:9/hook', events: ['clock_low'] })
        .expect(201);
    const m = (
      await http()
        .post('/v1/matches')
        .set('authorization', auth(a))
        .send({ preset: 'scopa', turnTimeLimit: 'PT10S', seats: [{ type: 'creator' }, { type: 'reserved', username: b.username }] })
    ).body;
    await http().post(`/v1/matches/${m.id}/join`).set('authorization', auth(b)).send({}).expect(200);
    const s = (await http().post(`/v1/matches/${m.id}/start`).set('authorization', auth(a)).send({}).expect(200)).body;
    const first = s.view.turn === 0 ? a : b;
    const second = first === a ? b : a;

    const pubsub = app.get<PubSubEngine>(PUB_SUB);
    const got: { channel: string; message: any }[] = [];
    for (const who of [a, b]) {
      for (const channel of [turnChannel(who.username), playerChannel(who.username)]) {
        await pubsub.subscribe(channel, (message: any) => void got.push({ channel, message }), {});
      }
    }
    const notifier = app.get(ClockSchedulerService).clockLow;
    const other = new ClockLowNotifier(app.get(PrismaService), pubsub, 0.8); // a second instance's notifier on the same database

    // Not low yet: nothing.
    expect(await notifier.tick()).toBe(0);
    expect((await http().get('/v1/inbox').set('authorization', auth(first))).body[0].clockLow).toBe(false);
    await new Promise((r) => setTimeout(r, 2300));
    // Low: ticks racing on both "instances" send it once.
    const sent = await Promise.all([notifier.tick(), other.tick(), notifier.tick(), other.tick()]);
    expect(sent.reduce((x, y) => x + y, 0)).toBe(1);
    expect(await notifier.tick()).toBe(0);
    await new Promise((r) => setTimeout(r, 50));
    const mine = got.filter((g) => g.channel.endsWith(first.username));
    expect(mine.map((g) => (g.channel.startsWith('turn:') ? `turn:${g.message.kind}` : `player:${g.message.type}`)).sort()).toEqual([
      'player:clockLow',
      'turn:clockLow',
    ]);
    expect(mine.find((g) => g.channel.startsWith('player:'))!.message).toMatchObject({ matchId: m.id, seq: s.seq });
    expect(got.filter((g) => g.channel.endsWith(second.username))).toEqual([]);
    expect((await http().get('/v1/inbox').set('authorization', auth(first))).body[0]).toMatchObject({ matchId: m.id, clockLow: true });
    const inboxGql = await gqlOk(app, first.token, `{ inbox { matchId clockLow } }`);
    expect(inboxGql.inbox).toEqual([{ matchId: m.id, clockLow: true }]);
    let hooks = (await http().get('/v1/webhooks/deliveries').set('authorization', auth(first))).body;
    expect(hooks.map((d: any) => [d.event, d.payload.matchId, d.payload.seq])).toEqual([['clock_low', m.id, s.seq]]);

    // The next turn is the other player's: its own notice, once.
    const legal = (await http().get(`/v1/matches/${m.id}/legal-plays`).set('authorization', auth(first))).body;
    const played = (
      await http()
        .post(`/v1/matches/${m.id}/plays`)
        .set('authorization', auth(first))
        .send({ ...legal.plays[0], expectedSeq: legal.seq })
        .expect(200)
    ).body;
    expect(await notifier.tick()).toBe(0);
    await new Promise((r) => setTimeout(r, 2300));
    expect((await Promise.all([notifier.tick(), other.tick()])).reduce((x, y) => x + y, 0)).toBe(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(got.filter((g) => g.channel === turnChannel(second.username) && g.message.kind === 'clockLow').map((g) => g.message.seq)).toEqual([played.seq]);
    hooks = (await http().get('/v1/webhooks/deliveries').set('authorization', auth(second))).body;
    expect(hooks.map((d: any) => [d.event, d.payload.seq])).toEqual([['clock_low', played.seq]]);
    expect((await http().get('/v1/webhooks/deliveries').set('authorization', auth(first))).body).toHaveLength(1);
  });
});
