/**
 * Client and system commands live in separate key spaces (issue #14, item 5;
 * src/match-store/command-key.ts): an account named `clock` or `bot` that sends
 * the idempotency key the clock or a bot seat will use for its own command
 * no longer silences the clock expiry or the bot move; a client's retry with
 * its key still returns the first result.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ClockSchedulerService } from '../src/clocks/clock-scheduler.service';
import { PrismaService } from '../src/database/prisma.service';
import { createTestApp } from './support/app';

jest.setTimeout(120_000);

const ENV = { CLOCK_POLL_MS: '0', WEBHOOK_POLL_MS: '0', BOT_SWEEP_MS: '0' };

describe('command keys: client keys never reach system keys (e2e, PGlite)', () => {
  let app: INestApplication;
  let prisma: PrismaService;
  let clocks: ClockSchedulerService;
  const saved = Object.fromEntries(Object.keys(ENV).map((k) => [k, process.env[k]]));
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    app = await createTestApp(ENV);
    prisma = app.get(PrismaService);
    clocks = app.get(ClockSchedulerService);
  });
  afterAll(async () => {
    await app?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  async function account(username: string): Promise<string> {
    const res = await http()
      .post('/v1/auth/register')
      .send({ username, password: `password-of-${username}` });
    expect(res.status).toBe(201);
    return res.body.accessToken;
  }
  async function call(token: string, method: 'get' | 'post', path: string, body?: Record<string, unknown>): Promise<any> {
    const req = http()[method](path).set('authorization', `Bearer ${token}`);
    const res = method === 'post' ? await req.send(body ?? {}) : await req;
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  }
  async function firstLegal(token: string, id: string): Promise<{ seq: number; card: string; capture: string[] }> {
    const legal = await call(token, 'get', `/v1/matches/${id}/legal-plays`);
    return { seq: legal.seq, card: legal.plays[0].card, capture: legal.plays[0].capture };
  }

  it('an account named clock sending the key of the next clock expiry does not stop that clock', async () => {
    const clock = await account('clock');
    const ann = await account('ann-of-clocks');
    const m = await call(ann, 'post', '/v1/matches', {
      preset: 'scopa',
      turnTimeLimit: 'PT1H',
      onExpiry: 'autoPlay',
      seats: [{ type: 'creator' }, { type: 'reserved', username: 'clock' }],
    });
    await call(clock, 'post', `/v1/matches/${m.id}/join`);
    let v = await call(ann, 'post', `/v1/matches/${m.id}/start`);
    const annSeat = v.view.viewer;
    if (v.view.turn === annSeat) {
      const p = await firstLegal(ann, m.id);
      await call(ann, 'post', `/v1/matches/${m.id}/plays`, { card: p.card, capture: p.capture, expectedSeq: p.seq });
    }
    // clock's play lands at seq n; the clock then runs for ann's seat at seq n: the old key of that expiry was `clock:seq<n>:seat<ann>`
    const p = await firstLegal(clock, m.id);
    const n = p.seq + 1;
    const key = `seq${n}:seat${annSeat}`;
    v = await call(clock, 'post', `/v1/matches/${m.id}/plays`, { card: p.card, capture: p.capture, expectedSeq: p.seq, idempotencyKey: key });
    expect(v.seq).toBe(n);
    expect(v.view.turn).toBe(annSeat);

    await prisma.$executeRawUnsafe(`UPDATE match_clocks SET deadline = now() - interval '1 second' WHERE match_id = $1::uuid`, m.id);
    expect(await clocks.scheduler.tick()).toEqual(['expired']);
    const log = await call(ann, 'get', `/v1/matches/${m.id}/events?fromSeq=${n + 1}`);
    expect(log[0]).toMatchObject({ type: 'CardPlayed', actor: null, payload: { seat: annSeat, auto: true } });

    // clock's retry with its key still returns its first result and appends nothing
    const seqBefore = (await call(ann, 'get', `/v1/matches/${m.id}`)).seq;
    const retry = await http()
      .post(`/v1/matches/${m.id}/plays`)
      .set('authorization', `Bearer ${clock}`)
      .send({ card: p.card, capture: p.capture, expectedSeq: p.seq, idempotencyKey: key });
    expect(retry.status).toBe(200);
    expect((await call(ann, 'get', `/v1/matches/${m.id}`)).seq).toBe(seqBefore);
  });

  it('an account named bot sending the key of the next bot move does not stop that bot seat', async () => {
    const bot = await account('bot');
    const m = await call(bot, 'post', '/v1/matches', { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
    const started = await call(bot, 'post', `/v1/matches/${m.id}/start`);
    expect(started.view.turn).toBe(0);
    // bot's play lands at seq n, where the seat bot:greedy:1 moves: its old key was `bot:greedy:1:seq<n>`, i.e. account bot's key `greedy:1:seq<n>`
    const p = await firstLegal(bot, m.id);
    const n = p.seq + 1;
    const key = `greedy:1:seq${n}`;
    const v = await call(bot, 'post', `/v1/matches/${m.id}/plays`, { card: p.card, capture: p.capture, expectedSeq: p.seq, idempotencyKey: key });
    // the response shows the bot seat's reply
    expect(v.seq).toBe(n + 1);
    expect(v.view.turn).toBe(0);
    const log = await call(bot, 'get', `/v1/matches/${m.id}/events?fromSeq=${n + 1}`);
    expect(log[0]).toMatchObject({ type: 'CardPlayed', actor: 'bot:greedy:1', payload: { seat: 1, auto: false } });

    // and the retry returns the first result
    const retry = await http()
      .post(`/v1/matches/${m.id}/plays`)
      .set('authorization', `Bearer ${bot}`)
      .send({ card: p.card, capture: p.capture, expectedSeq: p.seq, idempotencyKey: key });
    expect(retry.status).toBe(200);
    expect((await call(bot, 'get', `/v1/matches/${m.id}`)).seq).toBe(n + 1);
  });
});
