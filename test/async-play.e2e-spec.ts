/**
 * Async play over the public API on PGlite: bots in seats, hints, turn clocks
 * (auto-play, forfeit, stale deadlines), the inbox, webhooks (signed, retried)
 * and reconnection of the live events subscription. The pollers are driven
 * by hand here (CLOCK_POLL_MS = WEBHOOK_POLL_MS = BOT_SWEEP_MS = 0). The receivers
 * listen on 127.0.0.1, so private targets are allowed (WEBHOOK_ALLOW_PRIVATE).
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { ClockSchedulerService } from '../src/clocks/clock-scheduler.service';
import { PrismaService } from '../src/database/prisma.service';
import { WebhookWorkerService } from '../src/webhooks/webhook-worker.service';
import { verifySignature } from '../src/webhooks/signature';
import { createTestApp } from './support/app';
import { gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(300_000);

const ENV = {
  CLOCK_POLL_MS: '0',
  WEBHOOK_POLL_MS: '0',
  BOT_SWEEP_MS: '0',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_BACKOFF_MS: '20',
  WEBHOOK_MAX_ATTEMPTS: '3',
  WEBHOOK_TIMEOUT_MS: '3000',
};

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

function receiver(status: number): Promise<{ server: Server; url: string; got: Received[] }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.statusCode = status;
      res.end('ok');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got })),
  );
}

describe('async play (e2e, PGlite)', () => {
  let app: INestApplication;
  let prisma: PrismaService;
  let clocks: ClockSchedulerService;
  let hooks: WebhookWorkerService;
  const saved: Record<string, string | undefined> = {};
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  beforeAll(async () => {
    for (const k of Object.keys(ENV)) saved[k] = process.env[k];
    app = await createTestApp(ENV);
    await app.listen(0, '127.0.0.1');
    prisma = app.get(PrismaService);
    clocks = app.get(ClockSchedulerService);
    hooks = app.get(WebhookWorkerService);
  });
  afterAll(async () => {
    await app?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  async function createMatch(owner: Account, body: Record<string, unknown>): Promise<any> {
    const res = await http().post('/v1/matches').set('authorization', auth(owner)).send(body);
    if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
    return res.body;
  }
  async function get(who: Account, id: string): Promise<any> {
    const res = await http().get(`/v1/matches/${id}`).set('authorization', auth(who));
    if (res.status !== 200) throw new Error(`get: ${res.status} ${res.text}`);
    return res.body;
  }
  async function post(who: Account, path: string, body: Record<string, unknown> = {}, ifMatch?: number): Promise<any> {
    let req = http().post(path).set('authorization', auth(who));
    if (ifMatch !== undefined) req = req.set('if-match', `"${ifMatch}"`);
    const res = await req.send(body);
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  }
  async function events(who: Account, id: string, fromSeq = 1): Promise<any[]> {
    const res = await http().get(`/v1/matches/${id}/events?fromSeq=${fromSeq}&limit=1000`).set('authorization', auth(who));
    return res.body;
  }
  /** A two-player match between a and b, started, with `first` to move (the other plays once if needed). */
  async function duel(a: Account, b: Account, extra: Record<string, unknown> = {}, first?: Account): Promise<any> {
    const m = await createMatch(a, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: b.username }], ...extra });
    await post(b, `/v1/matches/${m.id}/join`);
    await post(a, `/v1/matches/${m.id}/start`);
    if (first) {
      const other = first === a ? b : a;
      const v = await get(other, m.id);
      if (v.view.turn === v.view.viewer) await playOne(other, m.id);
    }
    return get(a, m.id);
  }
  async function playOne(who: Account, id: string): Promise<any> {
    const legal = (await http().get(`/v1/matches/${id}/legal-plays`).set('authorization', auth(who))).body;
    const p = legal.plays.find((x: any) => x.capture.length > 0) ?? legal.plays[0];
    return post(who, `/v1/matches/${id}/plays`, { card: p.card, capture: p.capture }, legal.seq);
  }
  async function clockRow(id: string): Promise<{ seat: number; seq: number; deadline: Date; on_expiry: string } | undefined> {
    const rows = await prisma.$queryRawUnsafe<any[]>('SELECT seat, seq, deadline, on_expiry FROM match_clocks WHERE match_id = $1::uuid', id);
    return rows[0];
  }
  const expireNow = (id: string) => prisma.$executeRawUnsafe(`UPDATE match_clocks SET deadline = now() - interval '1 second' WHERE match_id = $1::uuid`, id);

  it('a human plays a greedy bot to the end over REST, asking for hints; the bot plays server-side at once', async () => {
    const alice = await register(app, 'hal');
    const stranger = await register(app, 'str');
    const m = await createMatch(alice, { preset: 'scopa', overrides: { target: 3 }, seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
    await post(alice, `/v1/matches/${m.id}/start`);
    let hints = 0;
    for (let n = 0; n < 500; n++) {
      const v = await get(alice, m.id);
      if (v.status === 'over') break;
      // after each command the bot has already answered: it is alice's turn
      expect(v.view.turn).toBe(v.view.viewer);
      const hint = (await http().get(`/v1/matches/${m.id}/hint?level=greedy`).set('authorization', auth(alice))).body;
      expect(hint.seq).toBe(v.seq);
      expect(v.view.hand).toContain(hint.card);
      await post(alice, `/v1/matches/${m.id}/plays`, { card: hint.card, capture: hint.capture }, hint.seq);
      hints++;
    }
    const final = await get(alice, m.id);
    expect(final.status).toBe('over');
    expect(hints).toBeGreaterThan(5);
    const log = await events(alice, m.id);
    const botPlays = log.filter((e) => e.type === 'CardPlayed' && e.actor === 'bot:greedy:1');
    expect(botPlays.length).toBeGreaterThan(5);
    expect(botPlays.every((e) => e.payload.auto === false)).toBe(true);
    expect((await http().get(`/v1/matches/${m.id}/audit`).set('authorization', auth(alice))).body.sound).toBe(true);
    // a hint is for my own seat, on my turn only
    const h = await http().get(`/v1/matches/${m.id}/hint`).set('authorization', auth(alice));
    expect(h.body.code).toBe('MATCH_OVER');
    const s = await gql(app, stranger.token, 'query($id: ID!) { hint(matchId: $id, level: ismcts) { card } }', { id: m.id });
    expect(s.errors?.[0].extensions.code).toBe('NOT_SEATED');
  });

  it('hints over GraphQL (ismcts too) and NOT_YOUR_TURN for the seat not to move', async () => {
    const a = await register(app, 'ha');
    const b = await register(app, 'hb');
    const m = await duel(a, b, {}, a);
    const d = await gqlOk(app, a.token, 'query($id: ID!) { hint(matchId: $id, level: ismcts) { seq level card capture } }', { id: m.id });
    expect(d.hint.level).toBe('ismcts');
    expect((await get(a, m.id)).view.hand).toContain(d.hint.card);
    const r = await gql(app, b.token, 'query($id: ID!) { hint(matchId: $id) { card } }', { id: m.id });
    expect(r.errors?.[0].extensions.code).toBe('NOT_YOUR_TURN');
  });

  it('a timed turn: the deadline is stored with the append; on expiry the greedy bot plays for the seat, once; a stale deadline is dropped', async () => {
    const a = await register(app, 'ca');
    const b = await register(app, 'cb');
    const m = await duel(a, b, { turnTimeLimit: 'PT1H', onExpiry: 'autoPlay' }, a);
    const row = await clockRow(m.id);
    expect(row).toMatchObject({ seq: m.seq, seat: m.view.viewer, on_expiry: 'autoPlay' });
    expect(new Date(row!.deadline).getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    expect(await clocks.scheduler.tick()).toEqual([]); // not due

    await expireNow(m.id);
    expect(await clocks.scheduler.tick()).toEqual(['expired']);
    expect(await clocks.scheduler.tick()).toEqual([]);
    const log = await events(a, m.id, m.seq + 1);
    expect(log[0]).toMatchObject({ type: 'CardPlayed', actor: null, payload: { seat: m.view.viewer, auto: true } });
    const after = await get(a, m.id);
    expect(after.view.turn).not.toBe(m.view.viewer);
    const next = await clockRow(m.id);
    expect(next).toMatchObject({ seq: after.seq, seat: after.view.turn });

    // stale: a deadline for a seq the match has left
    await prisma.$executeRawUnsafe(`UPDATE match_clocks SET seq = seq - 1, deadline = now() - interval '1 second' WHERE match_id = $1::uuid`, m.id);
    expect(await clocks.scheduler.tick()).toEqual(['stale']);
    expect(await clockRow(m.id)).toBeUndefined();
    expect((await get(a, m.id)).seq).toBe(after.seq);
  });

  it('forfeit on expiry ends the match (MatchEnded reason forfeit) and removes the clock', async () => {
    const a = await register(app, 'fa');
    const b = await register(app, 'fb');
    const m = await duel(a, b, { turnTimeLimit: 'P2D', onExpiry: 'forfeit' }, a);
    await expireNow(m.id);
    await clocks.poll();
    const log = await events(a, m.id, m.seq + 1);
    expect(log.map((e) => e.type)).toEqual(['SeatForfeited', 'MatchEnded']);
    expect(log[1].payload).toMatchObject({ reason: 'forfeit', winner: 1 - m.view.viewer });
    expect(await clockRow(m.id)).toBeUndefined();
    const text = await (await http().get('/metrics')).text;
    expect(text).toMatch(/scopa_clock_expiries_total\{policy="forfeit"\} [1-9]/);
  });

  it('the inbox lists my turns by deadline (REST and GraphQL); myTurn notices carry the deadline', async () => {
    const a = await register(app, 'ia');
    const b = await register(app, 'ib');
    const untimed = await duel(a, b, {}, a);
    const day = await duel(a, b, { turnTimeLimit: 'P1D' }, a);
    const hour = await duel(a, b, { turnTimeLimit: 'PT1H' }, a);
    const rest = (await http().get('/v1/inbox').set('authorization', auth(a))).body;
    expect(rest.map((e: any) => e.matchId)).toEqual([hour.id, day.id, untimed.id]);
    expect(rest[0]).toMatchObject({ seq: hour.seq, seat: hour.view.viewer });
    expect(typeof rest[0].deadline).toBe('string');
    expect(rest[2].deadline).toBeNull();
    const q = await gqlOk(app, a.token, '{ inbox { matchId seq deadline } }');
    expect(q.inbox.map((e: any) => e.matchId)).toEqual([hour.id, day.id, untimed.id]);
    expect((await http().get('/v1/inbox').set('authorization', auth(b))).body).toEqual([]);

    // a live "my turn" for b, with the deadline
    const url = `ws://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/graphql`;
    const c = createClient({ url, webSocketImpl: WebSocket, connectionParams: { authorization: auth(b) }, retryAttempts: 0 });
    try {
      const notice = new Promise<any>((resolve, reject) => {
        c.subscribe(
          { query: 'subscription { myTurn { matchId seq seat deadline kind } }' },
          { next: (msg) => resolve((msg.data as any).myTurn), error: (e) => reject(new Error(JSON.stringify(e))), complete: () => undefined },
        );
      });
      await new Promise((r) => setTimeout(r, 300)); // let the subscription start
      await playOne(a, hour.id);
      const n = await notice;
      expect(n).toMatchObject({ matchId: hour.id, seq: hour.seq + 1, seat: 1 - hour.view.viewer, kind: 'yourTurn' });
      expect(Math.abs(new Date(n.deadline).getTime() - Date.now() - 3_600_000)).toBeLessThan(120_000);
    } finally {
      await c.dispose();
    }
  });

  it('webhooks: registered with a secret shown once, deliveries signed, public data only, retried with backoff, inspectable', async () => {
    const good = await receiver(200);
    const bad = await receiver(500);
    try {
      const a = await register(app, 'wa');
      const created = await http()
        .post('/v1/webhooks')
        .set('authorization', auth(a))
        .send({ url: good.url, events: ['your_turn', 'match_finished'] });
      expect(created.status).toBe(201);
      expect(created.body.secret).toMatch(/^whsec_/);
      const secret: string = created.body.secret;
      const viaGql = await gqlOk(app, a.token, 'mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { id secret events } }', {
        i: { url: bad.url, events: ['your_turn'] },
      });
      expect(viaGql.createWebhook.events).toEqual(['your_turn']);
      const list = (await http().get('/v1/webhooks').set('authorization', auth(a))).body;
      expect(list).toHaveLength(2);
      expect(JSON.stringify(list)).not.toContain('whsec_');
      expect((await http().post('/v1/webhooks').set('authorization', auth(a)).send({ url: 'ftp://127.0.0.1/x' })).status).toBe(400);
      expect(
        (
          await http()
            .post('/v1/webhooks')
            .set('authorization', auth(a))
            .send({ url: good.url, events: ['hands'] })
        ).status,
      ).toBe(400);

      const m = await createMatch(a, { preset: 'scopa', turnTimeLimit: 'PT10M', seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
      await post(a, `/v1/matches/${m.id}/start`);
      const v = await get(a, m.id);
      expect(v.view.turn).toBe(v.view.viewer);
      await hooks.poll();
      expect(good.got).toHaveLength(1);
      const hit = good.got[0];
      expect(verifySignature(secret, hit.headers['scopa-signature'] as string, hit.body)).toBe(true);
      expect(verifySignature(secret, hit.headers['scopa-signature'] as string, hit.body + ' ')).toBe(false);
      expect(hit.headers['scopa-event']).toBe('your_turn');
      const body = JSON.parse(hit.body);
      expect(body.event).toBe('your_turn');
      expect(Object.keys(body.data).sort()).toEqual(['deadline', 'matchId', 'player', 'seat', 'seq']);
      expect(body.data).toMatchObject({ matchId: m.id, seq: v.seq, seat: v.view.viewer, player: a.username });
      for (const card of v.view.hand) expect(hit.body).not.toContain(`"${card}"`);

      // the failing receiver: 3 attempts, with backoff between them, then failed
      for (let i = 0; i < 20; i++) {
        await hooks.poll();
        const d = (await http().get(`/v1/webhooks/deliveries?webhookId=${viaGql.createWebhook.id}`).set('authorization', auth(a))).body;
        if (d[0]?.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 60));
      }
      expect(bad.got).toHaveLength(3);
      const failed = await gqlOk(app, a.token, 'query($w: ID) { webhookDeliveries(webhookId: $w) { status attempts responseCode lastError nextAttemptAt } }', {
        w: viaGql.createWebhook.id,
      });
      expect(failed.webhookDeliveries).toEqual([{ status: 'failed', attempts: 3, responseCode: 500, lastError: 'HTTP 500', nextAttemptAt: null }]);

      // match_finished after a resignation
      await post(a, `/v1/matches/${m.id}/resign`);
      await hooks.poll();
      const finished = good.got.map((g) => JSON.parse(g.body)).find((x) => x.event === 'match_finished');
      expect(finished.data).toMatchObject({ matchId: m.id, player: a.username, winner: 1 });
      const mine = (await http().get('/v1/webhooks/deliveries').set('authorization', auth(a))).body;
      expect(
        mine.filter((d: any) => d.webhookId === created.body.id).every((d: any) => d.status === 'delivered' && d.attempts === 1 && d.responseCode === 200),
      ).toBe(true);

      // another account sees none of it and cannot delete it
      const other = await register(app, 'wo');
      expect((await http().get('/v1/webhooks/deliveries').set('authorization', auth(other))).body).toEqual([]);
      expect((await http().delete(`/v1/webhooks/${created.body.id}`).set('authorization', auth(other))).status).toBe(404);
      expect((await http().delete(`/v1/webhooks/${created.body.id}`).set('authorization', auth(a))).status).toBe(204);
      expect(await gqlOk(app, a.token, 'mutation($id: ID!) { deleteWebhook(id: $id) }', { id: viaGql.createWebhook.id })).toEqual({ deleteWebhook: true });
      expect((await http().get('/v1/webhooks').set('authorization', auth(a))).body).toEqual([]);
      const text = await (await http().get('/metrics')).text;
      expect(text).toMatch(/scopa_webhook_deliveries_total\{outcome="gave_up"\} 1/);
    } finally {
      good.server.close();
      bad.server.close();
    }
  });

  it('reconnection: a client whose socket is cut mid-match resubscribes from its last seq + 1 and gets exactly the missed events, then live ones', async () => {
    const a = await register(app, 'ra');
    const b = await register(app, 'rb');
    const m = await duel(a, b);
    const url = `ws://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/graphql`;
    const LIVE = 'subscription($id: ID!, $from: Int) { matchEventsLive(matchId: $id, fromSeq: $from) { event { seq type } match { seq view { hand } } } }';
    const seen: number[] = [];
    const follow = (from: number, until: number) => {
      const c = createClient({ url, webSocketImpl: WebSocket, connectionParams: { authorization: auth(a) }, retryAttempts: 0 });
      const reached = new Promise<void>((resolve, reject) => {
        c.subscribe(
          { query: LIVE, variables: { id: m.id, from } },
          {
            next: (msg) => {
              seen.push((msg.data as any).matchEventsLive.event.seq);
              if (seen[seen.length - 1] >= until) resolve();
            },
            error: (e) => reject(new Error(JSON.stringify(e))),
            complete: () => undefined,
          },
        );
      });
      return { c, reached };
    };
    const mover = async () => {
      const v = await get(a, m.id);
      return v.view.turn === v.view.viewer ? a : b;
    };
    // first connection: the log so far, then a few live plays
    const first = follow(1, m.seq + 3);
    for (let i = 0; i < 3; i++) await playOne(await mover(), m.id);
    await first.reached;
    first.c.terminate(); // the socket is cut (no complete, no goodbye)
    const last = seen[seen.length - 1];
    // moves made while disconnected
    for (let i = 0; i < 4; i++) await playOne(await mover(), m.id);
    const now = (await get(a, m.id)).seq;
    expect(now).toBeGreaterThan(last);
    const second = follow(last + 1, now + 2);
    for (let i = 0; i < 2; i++) await playOne(await mover(), m.id);
    await second.reached;
    await second.c.dispose();
    const end = (await get(a, m.id)).seq;
    expect(seen).toEqual(Array.from({ length: end }, (_, k) => k + 1));
  });
});
