/**
 * Match-scoped subscriptions and streams end with the match (issue 26, item
 * 9): after the event that ends it, graphql-ws and graphql-sse send
 * `complete` and the NDJSON stream closes; one asked from past the end of an
 * ended match completes at once. A client following the README does not wait
 * forever.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import { createClient as createSseClient } from 'graphql-sse';
import WebSocket from 'ws';
import request from 'supertest';
import { createTestApp, listenOnLoopback } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(120_000);

const LIVE = 'subscription($id: ID!, $from: Int) { matchEventsLive(matchId: $id, fromSeq: $from) { event { seq type } match { status } } }';

describe('match subscriptions end with the match (e2e)', () => {
  let app: INestApplication;
  let base: string;
  let wsUrl: string;
  let alice: Account;
  let bob: Account;
  const clients: Client[] = [];
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  beforeAll(async () => {
    app = await createTestApp();
    ({ http: base, ws: wsUrl } = await listenOnLoopback(app));
    alice = await register(app, 'end');
    bob = await register(app, 'end');
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await app?.close();
  });

  /** A started two-player match of alice and bob; its seq. */
  async function started(): Promise<{ id: string; seq: number }> {
    const created = await http()
      .post('/v1/matches')
      .set('authorization', auth(alice))
      .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
    expect(created.status).toBe(201);
    expect((await http().post(`/v1/matches/${created.body.id}/join`).set('authorization', auth(bob)).send({})).status).toBe(200);
    const s = await http().post(`/v1/matches/${created.body.id}/start`).set('authorization', auth(alice)).send({});
    expect(s.status).toBe(200);
    return { id: created.body.id, seq: s.body.seq };
  }

  async function resign(id: string): Promise<number> {
    const r = await http().post(`/v1/matches/${id}/resign`).set('authorization', auth(alice)).send({});
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('over');
    return r.body.seq;
  }

  type Sink = { next: (v: { data?: unknown }) => void; error: (e: unknown) => void; complete: () => void };
  type Subscribe = (token: string, variables: Record<string, unknown>, sink: Sink) => void;

  const overWs: Subscribe = (token, variables, sink) => {
    const c = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0, lazy: true });
    clients.push(c);
    c.subscribe({ query: LIVE, variables }, sink as never);
  };
  const overSse: Subscribe = (token, variables, sink) => {
    const c = createSseClient({ url: `${base}/graphql/stream`, singleConnection: false, retryAttempts: 0, headers: { authorization: `Bearer ${token}` } });
    c.subscribe({ query: LIVE, variables }, sink as never);
  };

  /** The seqs received until `complete`; fails after 10 s without it (the match is over by then). */
  function follow(subscribe: Subscribe, token: string, id: string, from: number): { seqs: number[]; completed: Promise<void> } {
    const seqs: number[] = [];
    const completed = new Promise<void>((resolve, reject) => {
      subscribe(
        token,
        { id, from },
        {
          next: (msg) => seqs.push((msg.data as { matchEventsLive: { event: { seq: number } } }).matchEventsLive.event.seq),
          error: (e) => reject(new Error(JSON.stringify(e))),
          complete: () => resolve(),
        },
      );
    });
    return { seqs, completed };
  }

  const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
    Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: not completed within ${ms} ms`)), ms).unref())]);

  for (const [name, subscribe] of [
    ['graphql-ws', overWs],
    ['graphql-sse', overSse],
  ] as const) {
    it(`${name}: matchEventsLive completes after the event that ends the match (live, replayed, and from past the end)`, async () => {
      const { id, seq } = await started();
      const live = follow(subscribe, bob.token, id, seq + 1);
      // Subscribed before the end: wait for the subscription to be live, then end the match.
      await new Promise((r) => setTimeout(r, 300));
      const last = await resign(id);
      await within(live.completed, 10_000, `${name} live`);
      expect(live.seqs).toEqual(Array.from({ length: last - seq }, (_, k) => seq + 1 + k));

      const replay = follow(subscribe, alice.token, id, 1);
      await within(replay.completed, 10_000, `${name} replay`);
      expect(replay.seqs).toEqual(Array.from({ length: last }, (_, k) => k + 1));

      const past = follow(subscribe, alice.token, id, last + 1);
      await within(past.completed, 10_000, `${name} past the end`);
      expect(past.seqs).toEqual([]);
    });
  }

  it('the NDJSON match stream ends too (as before): live and from past the end', async () => {
    const { id, seq } = await started();
    const live = fetch(`${base}/v1/matches/${id}/stream?fromSeq=${seq + 1}`, { headers: { authorization: auth(bob) } }).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 300));
    const last = await resign(id);
    const lines = (await within(live, 10_000, 'NDJSON live'))
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { event?: { seq: number } });
    expect(lines.filter((l) => l.event).map((l) => l.event!.seq)).toEqual(Array.from({ length: last - seq }, (_, k) => seq + 1 + k));
    const past = await within(
      fetch(`${base}/v1/matches/${id}/stream?fromSeq=${last + 1}`, { headers: { authorization: auth(bob) } }).then((r) => r.text()),
      10_000,
      'NDJSON past',
    );
    expect(past.trim()).toBe('');
  });
});
