/**
 * Two instances sharing PostgreSQL and Redis (the machine's real servers):
 * events fan out across instances, and the database arbitrates races.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';

jest.setTimeout(120_000);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

describe('scale-out on Redis and PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let a: Awaited<ReturnType<typeof startInstance>>;
  let b: Awaited<ReturnType<typeof startInstance>>;
  const clients: Client[] = [];

  beforeAll(async () => {
    db = await freshPgDatabase();
    a = await startInstance(db.url, { REDIS_URL, INSTANCE_ID: 'a' });
    b = await startInstance(db.url, { REDIS_URL, INSTANCE_ID: 'b' });
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await a?.app.close();
    await b?.app.close();
    await db?.drop();
  });

  const register = async (app: INestApplication, username: string) => {
    const res = await request(app.getHttpServer())
      .post('/v1/auth/register')
      .send({ username, password: `pw-${username}-long` });
    expect(res.status).toBe(201);
    return res.body.accessToken as string;
  };
  const suffix = () => Math.random().toString(36).slice(2, 8);

  async function newMatch() {
    const alice = await register(a.app, `ann${suffix()}`);
    const bob = await register(b.app, `bob${suffix()}`);
    const created = await request(a.app.getHttpServer())
      .post('/v1/matches')
      .set('authorization', `Bearer ${alice}`)
      .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await request(b.app.getHttpServer()).post(`/v1/matches/${id}/join`).set('authorization', `Bearer ${bob}`).send({})).status).toBe(200);
    const started = await request(a.app.getHttpServer()).post(`/v1/matches/${id}/start`).set('authorization', `Bearer ${alice}`).send({});
    expect(started.status).toBe(200);
    const tokens = [alice, bob];
    const mover = tokens[started.body.view.turn];
    const legal = await request(a.app.getHttpServer()).get(`/v1/matches/${id}/legal-plays`).set('authorization', `Bearer ${mover}`);
    expect(legal.status).toBe(200);
    const { card, capture } = legal.body.plays[0] as { card: string; capture: string[] };
    return { id, mover, seq: started.body.seq as number, play: { card, capture }, bob };
  }

  it('a play made through instance A reaches a subscriber on instance B', async () => {
    const m = await newMatch();
    const client = createClient({ url: b.ws, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${m.bob}` }, retryAttempts: 0 });
    clients.push(client);
    const received: any[] = [];
    const gotPlay = new Promise<void>((resolve, reject) => {
      client.subscribe(
        {
          query: 'subscription($id: ID!, $from: Int) { matchEventsLive(matchId: $id, fromSeq: $from) { event { seq type payload } } }',
          variables: { id: m.id, from: m.seq + 1 },
        },
        {
          next: (msg) => {
            const event = (msg.data as any).matchEventsLive.event;
            received.push(event);
            if (event.type === 'CardPlayed') resolve();
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });
    await new Promise((r) => setTimeout(r, 300)); // let the subscription reach Redis
    const played = await request(a.app.getHttpServer())
      .post(`/v1/matches/${m.id}/plays`)
      .set('authorization', `Bearer ${m.mover}`)
      .set('if-match', `"${m.seq}"`)
      .send({ ...m.play, idempotencyKey: `k-${suffix()}` });
    expect(played.status).toBe(200);
    await gotPlay;
    expect(received[0]).toMatchObject({ seq: m.seq + 1, type: 'CardPlayed', payload: { card: m.play.card } });
    expect(received.map((e) => e.seq)).toEqual(received.map((_, i) => m.seq + 1 + i)); // no gap, no duplicate
  });

  it('of two conflicting plays sent to A and B at once, exactly one is accepted', async () => {
    const m = await newMatch();
    const send = (app: INestApplication, key: string) =>
      request(app.getHttpServer())
        .post(`/v1/matches/${m.id}/plays`)
        .set('authorization', `Bearer ${m.mover}`)
        .set('if-match', `"${m.seq}"`)
        .send({ ...m.play, idempotencyKey: key });
    const [ra, rb] = await Promise.all([send(a.app, `a-${suffix()}`), send(b.app, `b-${suffix()}`)]);
    const statuses = [ra.status, rb.status].sort();
    // the loser's If-Match no longer holds: 412 Precondition Failed, code VERSION_CONFLICT
    expect(statuses).toEqual([200, 412]);
    const loser = ra.status === 412 ? ra : rb;
    expect(loser.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(loser.body.code).toBe('VERSION_CONFLICT');
    const events = await request(b.app.getHttpServer()).get(`/v1/matches/${m.id}/events?fromSeq=1`).set('authorization', `Bearer ${m.mover}`);
    const seqs = (events.body.events ?? events.body).map((e: { seq: number }) => e.seq);
    expect(seqs).toEqual(seqs.map((_: number, i: number) => i + 1));
    expect((events.body.events ?? events.body).filter((e: { type: string }) => e.type === 'CardPlayed')).toHaveLength(1);
  });

  it('reports Redis in readiness', async () => {
    const res = await request(b.app.getHttpServer()).get('/health/ready');
    expect(res.status).toBe(200);
    expect(res.body.info).toMatchObject({ database: { status: 'up' }, redis: { status: 'up' } });
  });
});
