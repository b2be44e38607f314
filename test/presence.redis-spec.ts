/**
 * Presence across two instances sharing PostgreSQL and Redis (docs/lobby.md
 * "Presence"): a player connected (graphql-ws) to instance B is online on
 * instance A (Match.seats[].online, REST and GraphQL; isOnline); after they
 * disconnect, a subscriber on A gets opponentGone once OPPONENT_GONE_AFTER has
 * passed (published once, by the instance that saw them go), then
 * opponentBack when they reconnect to A; the move log never changes.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { PresenceService } from '../src/presence/presence.service';
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';
import { spawnInstance } from './support/process-instance';

jest.setTimeout(120_000);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const ENV = { REDIS_URL, OPPONENT_GONE_AFTER: 'PT1S', PRESENCE_TTL: 'PT3S' };

const waitFor = async (check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('presence across instances on Redis and PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let a: Awaited<ReturnType<typeof startInstance>>;
  let b: Awaited<ReturnType<typeof startInstance>>;
  const clients: Client[] = [];

  beforeAll(async () => {
    db = await freshPgDatabase();
    a = await startInstance(db.url, { ...ENV, INSTANCE_ID: 'a' });
    b = await startInstance(db.url, { ...ENV, INSTANCE_ID: 'b' });
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await a?.app.close();
    await b?.app.close();
    await db?.drop();
  });

  const suffix = () => Math.random().toString(36).slice(2, 8);
  const register = async (app: INestApplication, username: string) => {
    const res = await request(app.getHttpServer())
      .post('/v1/auth/register')
      .send({ username, password: `pw-${username}-long` });
    expect(res.status).toBe(201);
    return res.body.accessToken as string;
  };
  const connect = (url: string, token: string): Client => {
    const c = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => undefined,
    });
    clients.push(c);
    return c;
  };

  it('online on every instance while connected to one; opponentGone after the absence, opponentBack on return; the log untouched', async () => {
    const annName = `ann${suffix()}`;
    const bobName = `bob${suffix()}`;
    const ann = await register(a.app, annName);
    const bob = await register(b.app, bobName);
    const created = await request(a.app.getHttpServer())
      .post('/v1/matches')
      .set('authorization', `Bearer ${ann}`)
      .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bobName }] });
    const id = created.body.id as string;
    await request(b.app.getHttpServer()).post(`/v1/matches/${id}/join`).set('authorization', `Bearer ${bob}`).send({}).expect(200);
    const started = (await request(a.app.getHttpServer()).post(`/v1/matches/${id}/start`).set('authorization', `Bearer ${ann}`).send({}).expect(200)).body;

    const seatOnline = async (app: INestApplication, name: string) => {
      const m = (await request(app.getHttpServer()).get(`/v1/matches/${id}`).set('authorization', `Bearer ${ann}`)).body;
      return m.view.seats.find((s: any) => s.player === name).online as boolean;
    };
    expect(await seatOnline(a.app, bobName)).toBe(false);
    const presenceA = a.app.get(PresenceService);
    expect(await presenceA.isOnline(bobName)).toBe(false);

    // ann watches the match on A.
    const annClient = connect(a.ws, ann);
    const seen: { seq: number; type: string; payload: any }[] = [];
    annClient.subscribe(
      {
        query: 'subscription($id: ID!, $from: Int) { matchEventsLive(matchId: $id, fromSeq: $from) { event { seq type payload hash } match { seq } } }',
        variables: { id, from: started.seq },
      },
      { next: (msg) => void seen.push((msg.data as any).matchEventsLive.event), error: () => undefined, complete: () => undefined },
    );
    await waitFor(() => seen.length >= 1);

    // bob connects to B: online on A too (REST, GraphQL, isOnline).
    const bobClient = connect(b.ws, bob);
    bobClient.subscribe({ query: 'subscription { myTurn { matchId } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
    await waitFor(() => presenceA.isOnline(bobName));
    expect(await seatOnline(a.app, bobName)).toBe(true);
    const gql = await request(a.app.getHttpServer())
      .post('/graphql')
      .set('authorization', `Bearer ${ann}`)
      .send({ query: 'query($id: ID!) { match(id: $id) { view { seats { player online lastSeen } } } }', variables: { id } });
    expect(gql.body.data.match.view.seats.find((s: any) => s.player === bobName)).toEqual({ player: bobName, online: true, lastSeen: null });
    // Presence is for the players of the match: a stranger sees null.
    const carol = await register(a.app, `car${suffix()}`);
    const asCarol = (await request(a.app.getHttpServer()).get(`/v1/matches/${id}`).set('authorization', `Bearer ${carol}`)).body;
    expect(asCarol.view.seats.map((s: any) => s.online)).toEqual([null, null]);
    const carolGql = await request(a.app.getHttpServer())
      .post('/graphql')
      .set('authorization', `Bearer ${carol}`)
      .send({ query: 'query($id: ID!) { match(id: $id) { view { seats { online lastSeen } } } }', variables: { id } });
    expect(carolGql.body.data.match.view.seats).toEqual([
      { online: null, lastSeen: null },
      { online: null, lastSeen: null },
    ]);

    // bob goes: offline everywhere at once, opponentGone on ann's subscription (on A) after OPPONENT_GONE_AFTER.
    await bobClient.dispose();
    await waitFor(async () => !(await presenceA.isOnline(bobName)));
    const goneAt = Date.now();
    await waitFor(() => seen.some((e) => e.type === 'opponentGone'));
    expect(Date.now() - goneAt).toBeGreaterThanOrEqual(700);
    const gone = seen.filter((e) => e.type === 'opponentGone');
    expect(gone).toHaveLength(1);
    expect(gone[0]).toMatchObject({ seq: started.seq, payload: { player: bobName, seat: 1 }, hash: '' });
    const afterGone = (await request(a.app.getHttpServer()).get(`/v1/matches/${id}`).set('authorization', `Bearer ${ann}`)).body;
    expect(afterGone.view.seats[1]).toMatchObject({ online: false });
    expect(new Date(afterGone.view.seats[1].lastSeen).getTime()).toBeGreaterThan(goneAt - 5000);

    // bob comes back, to A this time: opponentBack, once.
    const back = connect(a.ws, bob);
    back.subscribe({ query: 'subscription { myTurn { matchId } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
    await waitFor(() => seen.some((e) => e.type === 'opponentBack'));
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.filter((e) => e.type === 'opponentBack')).toHaveLength(1);
    expect(await b.app.get(PresenceService).isOnline(bobName)).toBe(true);

    // Presence never touched the log.
    const events = (await request(b.app.getHttpServer()).get(`/v1/matches/${id}/events`).set('authorization', `Bearer ${ann}`)).body;
    expect(events.map((e: any) => e.seq)).toEqual(events.map((_: unknown, i: number) => i + 1));
    expect(events[events.length - 1].seq).toBe(started.seq);
    expect(events.some((e: any) => e.type.startsWith('opponent'))).toBe(false);
  });

  it('an instance killed with the player connected: opponentGone still comes, from the heartbeat sweep of a live instance', async () => {
    // A service process (built: npm run test:redis builds first) on the same database and Redis.
    const proc = await spawnInstance({ ...ENV, DATABASE_URL: db.url, JWT_SECRET: process.env.JWT_SECRET ?? 'test-secret-for-e2e', INSTANCE_ID: 'killed' });
    try {
      const annName = `ann${suffix()}`;
      const bobName = `bob${suffix()}`;
      const ann = await register(a.app, annName);
      const bob = await register(a.app, bobName);
      const created = await request(a.app.getHttpServer())
        .post('/v1/matches')
        .set('authorization', `Bearer ${ann}`)
        .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bobName }] });
      const id = created.body.id as string;
      await request(a.app.getHttpServer()).post(`/v1/matches/${id}/join`).set('authorization', `Bearer ${bob}`).send({}).expect(200);
      const started = (await request(a.app.getHttpServer()).post(`/v1/matches/${id}/start`).set('authorization', `Bearer ${ann}`).send({}).expect(200)).body;

      const seen: { type: string; payload: any }[] = [];
      connect(a.ws, ann).subscribe(
        {
          query: 'subscription($id: ID!, $from: Int) { matchEventsLive(matchId: $id, fromSeq: $from) { event { type payload } } }',
          variables: { id, from: started.seq },
        },
        { next: (msg) => void seen.push((msg.data as any).matchEventsLive.event), error: () => undefined, complete: () => undefined },
      );
      const bobClient = connect(`${proc.url.replace('http', 'ws')}/graphql`, bob);
      bobClient.subscribe({ query: 'subscription { myTurn { matchId } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
      const presenceA = a.app.get(PresenceService);
      await waitFor(() => presenceA.isOnline(bobName));

      proc.child.kill('SIGKILL');
      // No close reached any instance; the claim runs out (PRESENCE_TTL) and the sweep reports the absence.
      await waitFor(() => seen.some((e) => e.type === 'opponentGone'), 20_000);
      expect(seen.filter((e) => e.type === 'opponentGone')).toEqual([{ type: 'opponentGone', payload: { player: bobName, seat: 1 } }]);
      expect(await presenceA.isOnline(bobName)).toBe(false);
      await Promise.resolve(bobClient.dispose()).catch(() => undefined);
    } finally {
      await proc.stop();
    }
  });
});
