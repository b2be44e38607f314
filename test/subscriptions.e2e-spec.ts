import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestApp } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { LeakScanner } from './support/leaks';
import { graphqlTransport, playToEnd } from './support/play';

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
    await app.listen(0, '127.0.0.1');
    const addr = app.getHttpServer().address();
    url = `ws://127.0.0.1:${addr.port}/graphql`;
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
});
