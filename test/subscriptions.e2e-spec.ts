import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import request from 'supertest';
import { createTestApp, listenOnLoopback } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { LeakScanner } from './support/leaks';
import { graphqlTransport, playToEnd } from './support/play';
import { PUB_SUB } from '../src/realtime/realtime.module';
import type { PubSubEngine } from '../src/realtime/realtime.module';
import { matchChannel } from '../src/realtime/channels';
import type { MatchNotice } from '../src/realtime/channels';
import { MatchStore } from '../src/match-store/match-store';
import { randomCommand } from './store/helpers';
import { cardCode, mulberry32 } from '../src/engine';

jest.setTimeout(300_000);

const LIVE = `subscription($id: ID!, $from: Int) { matchEventsLive(matchId: $id, fromSeq: $from) {
  event { seq type payload actor }
  match { seq status view { viewer hand table turn deckSize } reveal { seed } } } }`;

describe('graphql-ws subscriptions (e2e)', () => {
  let app: INestApplication;
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await createTestApp();
    url = (await listenOnLoopback(app)).ws;
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await app?.close();
  });

  function client(token: string | null, onClosed?: (code: number) => void): Client {
    const c = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: token ? { authorization: `Bearer ${token}` } : {},
      retryAttempts: 0,
      lazy: true,
      on: { closed: (e) => onClosed?.((e as { code: number }).code) },
    });
    clients.push(c);
    return c;
  }

  it('refuses a connection with a bad or missing token', async () => {
    for (const token of ['forged.jwt.token', null, 'scopa_pat_unknown']) {
      const closed = new Promise<number>((resolve) => {
        const c = client(token, resolve);
        c.subscribe({ query: '{ __typename }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
      });
      expect(await closed).toBe(4403);
    }
  });

  it('over graphql-ws too, refuses over-deep and over-complex operations, every time they are sent', async () => {
    const erin = await register(app, 'erin');
    const c = client(erin.token);
    const run = (query: string) =>
      new Promise<{ data?: unknown; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }>((resolve) => {
        let result: { data?: unknown; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] } = {};
        c.subscribe(
          { query },
          {
            next: (msg) => (result = msg as typeof result),
            error: (errors) => resolve({ errors: errors as typeof result.errors }),
            complete: () => resolve(result),
          },
        );
      });
    const deep = `{ __schema { types { fields { type { ${'ofType { '.repeat(14)} name ${'} '.repeat(14)} } } } } }`;
    const aliases = Array.from({ length: 150 }, (_, i) => `a${i}: rulesets { id sources players options { players teams handSize tableSize target } }`).join(
      ' ',
    );
    for (let attempt = 0; attempt < 2; attempt++) {
      // the second time, the validation outcome comes from the cache: still refused
      const tooDeep = await run(deep);
      expect(tooDeep.data).toBeUndefined();
      expect(tooDeep.errors?.[0]?.message).toMatch(/depth \d+ exceeds the limit/);
      const tooComplex = await run(`{ ${aliases} }`);
      expect(tooComplex.errors?.[0]?.message).toMatch(/complexity \d+\+? exceeds the limit/);
      const fine = await run('{ rulesets { id } }');
      expect(fine.errors).toBeUndefined();
      expect((fine.data as { rulesets: unknown[] }).rulesets.length).toBeGreaterThan(0);
    }
  });

  it('over graphql-ws, a refused operation carries the same stable code and message as over HTTP and changes nothing', async () => {
    const gina = await register(app, 'gina');
    const hugo = await register(app, 'hugo');
    const c = client(gina.token);
    type Outcome = { data?: any; errors?: readonly { message: string; path?: unknown; extensions?: Record<string, unknown> }[] };
    const overWs = (query: string, variables: Record<string, unknown> = {}) =>
      new Promise<Outcome>((resolve) => {
        let result: Outcome = {};
        c.subscribe(
          { query, variables },
          { next: (msg) => (result = msg as Outcome), error: (errors) => resolve({ errors: errors as Outcome['errors'] }), complete: () => resolve(result) },
        );
      });
    const overHttp = async (query: string, variables: Record<string, unknown> = {}): Promise<Outcome> =>
      (await request(app.getHttpServer()).post('/graphql').set('authorization', `Bearer ${gina.token}`).send({ query, variables })).body;
    const t = graphqlTransport(app, () => undefined);
    const created = await t.create(gina, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
    await t.join(hugo, created.id);
    const started = await t.start(gina, created.id);
    const PLAY = 'mutation($id: ID!, $i: PlayInput!) { play(matchId: $id, input: $i) { seq } }';
    const cases: [string, Record<string, unknown>, string][] = [
      [PLAY, { id: created.id, i: { card: '1C', capture: [], expectedSeq: 1 } }, 'VERSION_CONFLICT'],
      [PLAY, { id: '00000000-0000-4000-8000-000000000000', i: { card: '1C', capture: [] } }, 'NOT_FOUND'],
      [PLAY, { id: created.id, i: { card: 'not-a-card', capture: [] } }, 'VALIDATION_FAILED'],
      [PLAY, { id: created.id, i: { card: 7, capture: 'x' } }, 'VALIDATION_FAILED'],
      ['query($id: ID!) { match(id: $id) { nope } }', { id: created.id }, 'VALIDATION_FAILED'],
    ];
    for (const [query, variables, code] of cases) {
      const [ws, http] = [await overWs(query, variables), await overHttp(query, variables)];
      expect(ws.data?.play ?? null).toBeNull();
      expect(ws.errors?.[0]?.extensions?.code).toBe(code);
      expect(http.errors?.[0]?.extensions?.code).toBe(code);
      expect(ws.errors?.[0]?.message).toBe(http.errors?.[0]?.message);
    }
    const current = await t.match(gina, created.id);
    expect(current.seq).toBe(started.seq);
  });

  it('refuses a live subscription from a seq below 1 with VALIDATION_FAILED', async () => {
    const ivy = await register(app, 'ivy');
    const t = graphqlTransport(app, () => undefined);
    const created = await t.create(ivy, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
    const c = client(ivy.token);
    type Outcome = { data?: unknown; errors?: readonly { extensions?: Record<string, unknown> }[] };
    const messages: Outcome[] = [];
    await new Promise<void>((resolve) => {
      c.subscribe(
        { query: LIVE, variables: { id: created.id, from: 0 } },
        {
          next: (msg) => void messages.push(msg as Outcome),
          error: (errors) => (messages.push({ errors: errors as Outcome['errors'] }), resolve()),
          complete: resolve,
        },
      );
    });
    expect(messages).toHaveLength(1);
    expect(messages[0].data ?? null).toBeNull();
    expect(messages[0].errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('each seat and a spectator get every event once, in order, redacted, from seq 1 and live', async () => {
    const alice = await register(app, 'alice');
    const bob = await register(app, 'bob');
    const watcher = await register(app, 'watch');
    const scanner = new LeakScanner(app);
    const t = graphqlTransport(app, () => undefined);
    const created = await t.create(alice, { preset: 'scopa', overrides: { target: 2 }, seats: [{ type: 'creator' }, { type: 'open' }] });
    const id = created.id;
    await t.join(bob, id);

    const received = new Map<string, any[]>();
    const done: Promise<void>[] = [];
    const scans: Promise<void>[] = [];
    for (const who of [alice, bob, watcher] as Account[]) {
      received.set(who.username, []);
      const c = client(who.token);
      done.push(
        new Promise<void>((resolve, reject) => {
          c.subscribe(
            { query: LIVE, variables: { id, from: 1 } },
            {
              next: (msg) => {
                const item = (msg.data as any).matchEventsLive;
                received.get(who.username)!.push(item);
                scans.push(scanner.scan(who.username, id, 'subscription', JSON.stringify(msg), item.event.seq));
                if (item.event.type === 'MatchEnded') resolve();
              },
              error: (e) => reject(new Error(JSON.stringify(e))),
              complete: () => resolve(),
            },
          );
        }),
      );
    }
    await t.start(alice, id);
    await playToEnd(t, [alice, bob], id);
    await Promise.all(done);
    await Promise.all(scans);
    expect(scanner.leaks).toEqual([]);
    const final = await t.match(watcher, id);
    for (const [name, items] of received) {
      expect(items.map((i) => i.event.seq)).toEqual(Array.from({ length: final.seq }, (_, k) => k + 1));
      const last = items[items.length - 1];
      expect(last.match.status).toBe('over');
      expect(last.match.reveal.seed).toMatch(/^[0-9a-f]{64}$/);
      const seated = name !== watcher.username;
      expect(items.some((i) => i.match.view.hand.length > 0 && i.match.status === 'playing')).toBe(seated);
    }

    // A late subscriber from the middle of the log gets exactly the rest.
    const late: number[] = [];
    await new Promise<void>((resolve, reject) => {
      client(watcher.token).subscribe(
        { query: LIVE, variables: { id, from: final.seq - 3 } },
        {
          next: (msg) => {
            late.push((msg.data as any).matchEventsLive.event.seq);
            if (late.length === 4) resolve();
          },
          error: (e) => reject(new Error(JSON.stringify(e))),
          complete: () => resolve(),
        },
      );
    });
    expect(late).toEqual([final.seq - 3, final.seq - 2, final.seq - 1, final.seq]);
  });

  it('takes the events a notice carries, reads the log after a gap, and ignores a notice that comes late', async () => {
    const carol = await register(app, 'carol');
    const dave = await register(app, 'dave');
    const t = graphqlTransport(app, () => undefined);
    const created = await t.create(carol, { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
    const id = created.id;
    await t.join(dave, id);
    await t.start(carol, id);
    const store = app.get(MatchStore);
    const pubsub = app.get<PubSubEngine>(PUB_SUB);
    const seqs: number[] = [];
    const hands: string[][] = [];
    let arrived: () => void = () => undefined;
    const c = client(carol.token);
    c.subscribe(
      { query: LIVE, variables: { id, from: 1 } },
      {
        next: (msg) => {
          const item = (msg.data as any).matchEventsLive;
          seqs.push(item.event.seq);
          hands.push(item.match.view.hand);
          arrived();
        },
        error: () => undefined,
        complete: () => undefined,
      },
    );
    const waitFor = async (seq: number) => {
      while (!seqs.includes(seq)) await new Promise<void>((resolve) => (arrived = resolve));
    };
    const start = (await store.get(id)).currentSeq;
    await waitFor(start);
    // two plays appended without their notices (as if by another instance whose notices are slow)
    const played = [];
    for (let k = 0; k < 2; k++) {
      const state = await store.state(id);
      const cmd = randomCommand(state, mulberry32(k));
      played.push(await store.execute(id, cmd, { actor: (cmd as { player: string }).player }));
    }
    const [first, second] = played;
    const wire = (events: typeof first.events) => events.map((e) => ({ ...e, time: e.time.toISOString() }));
    // the second play's notice comes first: a gap, so the log is read from the first missing event
    await pubsub.publish(matchChannel(id), { matchId: id, seq: second.seq, events: wire(second.events) } satisfies MatchNotice);
    await waitFor(second.seq);
    // the first play's notice, late: nothing is delivered twice
    await pubsub.publish(matchChannel(id), { matchId: id, seq: first.seq, events: wire(first.events) } satisfies MatchNotice);
    // a notice that carries the next events is taken as it is
    const state = await store.state(id);
    const cmd = randomCommand(state, mulberry32(9));
    const third = await store.execute(id, cmd, { actor: (cmd as { player: string }).player });
    await pubsub.publish(matchChannel(id), { matchId: id, seq: third.seq, events: wire(third.events) } satisfies MatchNotice);
    await waitFor(third.seq);
    expect(seqs).toEqual(Array.from({ length: third.seq }, (_, k) => k + 1));
    // and the view after it is the seat's own, as the log says
    const seat = state.seats.findIndex((s) => s.player === carol.username);
    const after = await store.state(id);
    expect(hands[hands.length - 1]).toEqual(after.hands[seat].map((card) => cardCode(card)));
  });
});
