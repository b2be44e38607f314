/**
 * Rate limits, the cost of GraphQL documents and the graphql-ws caps, as a
 * client or an attacker meets them (issue #14, items 1, 9 and 10).
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import type { Client, FormattedExecutionResult } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { PrismaService } from '../src/database/prisma.service';
import { createTestApp, listenOnLoopback } from './support/app';
import { gql, register, uniqueName } from './support/clients';

jest.setTimeout(120_000);

const SETTINGS = [
  'RATE_LIMIT',
  'RATE_LIMIT_WINDOW_MS',
  'TOKEN_RATE_LIMIT',
  'AUTH_RATE_LIMIT',
  'TRUST_PROXY',
  'WS_MAX_CONNECTIONS_PER_ADDRESS',
  'WS_MAX_CONNECTIONS',
  'WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT',
];
const saved = Object.fromEntries(SETTINGS.map((k) => [k, process.env[k]]));

/** An app built with these settings; the process's environment is restored after it is built. */
async function appWith(env: Record<string, string>): Promise<INestApplication> {
  try {
    return await createTestApp(env);
  } finally {
    for (const k of SETTINGS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
}

const bearer = (token: string) => `Bearer ${token}`;
const FAKE_MATCH = '00000000-0000-4000-8000-000000000000';
const hints = (n: number) => `query($id: ID!) { ${Array.from({ length: n }, (_, i) => `h${i}: hint(matchId: $id, level: ismcts) { card }`).join(' ')} }`;

describe('rate limits per account, per address and for login (e2e)', () => {
  const apps: INestApplication[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  const build = async (env: Record<string, string>) => {
    const app = await appWith(env);
    apps.push(app);
    return app;
  };

  it("an account's session and all its API tokens share one bucket", async () => {
    const app = await build({ RATE_LIMIT: '8' });
    const http = () => request(app.getHttpServer());
    const alice = await register(app, 'shared'); // the address's bucket, not alice's
    const tokens: string[] = [];
    for (const name of ['one', 'two']) {
      const created = await http()
        .post('/v1/tokens')
        .set('authorization', bearer(alice.token))
        .send({ name, scopes: ['read'] });
      expect(created.status).toBe(201);
      tokens.push(created.body.token);
    }
    // 2 spent creating tokens; 6 more across the session and both tokens, then the account is out
    const credentials = [alice.token, tokens[0], tokens[1]];
    for (let i = 0; i < 6; i++)
      expect(
        (
          await http()
            .get('/v1/me')
            .set('authorization', bearer(credentials[i % 3]))
        ).status,
      ).toBe(200);
    for (const credential of credentials) {
      const refused = await http().get('/v1/me').set('authorization', bearer(credential));
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', limit: 8, remaining: 0 });
    }
    // another account is not affected
    const bob = await register(app, 'other');
    expect((await http().get('/v1/me').set('authorization', bearer(bob.token))).status).toBe(200);
  });

  it('a token may have its own lower limit (TOKEN_RATE_LIMIT) inside its account', async () => {
    const app = await build({ RATE_LIMIT: '20', TOKEN_RATE_LIMIT: '2' });
    const http = () => request(app.getHttpServer());
    const alice = await register(app, 'lowtok');
    const token = (
      await http()
        .post('/v1/tokens')
        .set('authorization', bearer(alice.token))
        .send({ name: 'ci', scopes: ['read'] })
    ).body.token as string;
    expect((await http().get('/v1/me').set('authorization', bearer(token))).status).toBe(200);
    expect((await http().get('/v1/me').set('authorization', bearer(token))).status).toBe(200);
    const third = await http().get('/v1/me').set('authorization', bearer(token));
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ limit: 2 });
    expect((await http().get('/v1/me').set('authorization', bearer(alice.token))).status).toBe(200);
  });

  it('requests with an invalid or expired bearer token are limited per address', async () => {
    const app = await build({ RATE_LIMIT: '5' });
    const http = () => request(app.getHttpServer());
    const forged = ['forged.jwt.token', 'scopa_pat_0000000000000000', 'eyJhbGciOiJIUzI1NiJ9.e30.x'];
    for (let i = 0; i < 5; i++)
      expect(
        (
          await http()
            .get('/v1/me')
            .set('authorization', bearer(forged[i % 3]))
        ).status,
      ).toBe(401);
    const limited = await http().get('/v1/me').set('authorization', bearer(forged[0]));
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    // GraphQL too, once per operation however many fields it selects
    const g = await gql(app, 'forged.jwt.token', '{ me { id } apiTokens { id } }');
    expect(g.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 5 });
  });

  it('health and metrics do not spend the caller’s bucket', async () => {
    const app = await build({ RATE_LIMIT: '3' });
    const http = () => request(app.getHttpServer());
    for (let i = 0; i < 5; i++) {
      expect((await http().get('/health')).status).toBe(200);
      expect((await http().get('/health/ready')).status).toBe(200);
      expect((await http().get('/metrics')).status).toBe(200);
    }
    const first = await http().get('/v1/rulesets');
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-remaining']).toBe('2');
  });

  it('X-Forwarded-For is honoured only from the proxies TRUST_PROXY names', async () => {
    const spend = async (app: INestApplication, forwardedFor: string) =>
      (await request(app.getHttpServer()).get('/v1/rulesets').set('x-forwarded-for', forwardedFor)).status;

    // trusted: nginx on loopback forwards two clients; each has its own bucket
    const behindNginx = await build({ RATE_LIMIT: '2', TRUST_PROXY: 'loopback' });
    expect([await spend(behindNginx, '203.0.113.7'), await spend(behindNginx, '203.0.113.7'), await spend(behindNginx, '203.0.113.7')]).toEqual([
      200, 200, 429,
    ]);
    expect(await spend(behindNginx, '198.51.100.9')).toBe(200);
    // a hop count works as in Express
    const oneHop = await build({ RATE_LIMIT: '1', TRUST_PROXY: '1' });
    expect([await spend(oneHop, '203.0.113.7'), await spend(oneHop, '198.51.100.9')]).toEqual([200, 200]);

    // untrusted peer (no TRUST_PROXY, or a list that does not include it): the header is ignored, one bucket
    for (const env of [{}, { TRUST_PROXY: '10.0.0.0/8' }] as Record<string, string>[]) {
      const direct = await build({ RATE_LIMIT: '2', ...env });
      expect([await spend(direct, '203.0.113.7'), await spend(direct, '198.51.100.9'), await spend(direct, '192.0.2.1')]).toEqual([200, 200, 429]);
    }
  });

  it('login and register have a stricter limit per address, over REST and GraphQL', async () => {
    const app = await build({ AUTH_RATE_LIMIT: '3' });
    const http = () => request(app.getHttpServer());
    const alice = await register(app, 'stuffed'); // 1
    const statuses: number[] = [];
    for (const username of [alice.username, uniqueName('nobody')])
      statuses.push((await http().post('/v1/auth/login').send({ username, password: 'wrong-password-123' })).status);
    expect(statuses).toEqual([401, 401]);
    // the fourth attempt, whatever the username, and with the right password too
    const refused = await http()
      .post('/v1/auth/login')
      .send({ username: alice.username, password: 'password-of-' + alice.username });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', limit: 3 });
    const g = await gql(app, null, 'mutation($u: String!) { register(input: { username: $u, password: "long-enough-pw" }) { accessToken } }', {
      u: uniqueName('late'),
    });
    expect(g.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    // other callers' ordinary requests are not affected
    expect((await http().get('/v1/me').set('authorization', bearer(alice.token))).status).toBe(200);
  });

  it('a document of 30 register aliases creates no account', async () => {
    const app = await build({ AUTH_RATE_LIMIT: '10' }); // the documented default
    const names = Array.from({ length: 30 }, () => uniqueName('alias'));
    const doc = `mutation { ${names.map((u, i) => `r${i}: register(input: { username: "${u}", password: "long-enough-pw" }) { accessToken }`).join(' ')} }`;
    const prisma = app.get(PrismaService);
    const before = await prisma.account.count();
    const res = await gql(app, null, doc);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect(res.data?.r0 ?? null).toBeNull();
    expect(await prisma.account.count()).toBe(before);
  });
});

describe('the cost of a GraphQL document (e2e)', () => {
  let app: INestApplication;
  let url: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await appWith({ RATE_LIMIT: '14' });
    url = (await listenOnLoopback(app)).ws;
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await app?.close();
  });

  const wsClient = (token: string) => {
    const c = createClient({ url, webSocketImpl: WebSocket, connectionParams: { authorization: bearer(token) }, retryAttempts: 0, lazy: true });
    clients.push(c);
    return c;
  };
  const overWs = (c: Client, query: string, variables: Record<string, unknown> = {}) =>
    new Promise<FormattedExecutionResult<any, any>>((resolve, reject) => {
      let result: FormattedExecutionResult<any, any> = {};
      c.subscribe(
        { query, variables },
        { next: (r) => (result = r), error: (e) => (Array.isArray(e) ? resolve({ errors: e }) : reject(e)), complete: () => resolve(result) },
      );
    });

  it('450 hint aliases are refused before anything runs, and /health stays responsive', async () => {
    const eve = await register(app, 'aliases');
    const started = Date.now();
    const [refused, health] = await Promise.all([gql(app, eve.token, hints(450), { id: FAKE_MATCH }), request(app.getHttpServer()).get('/health')]);
    expect(health.status).toBe(200);
    expect(refused.status).toBe(400);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', maxCost: 50 });
    expect(Date.now() - started).toBeLessThan(5_000);
    // refused before it ran: nothing spent
    const me = await request(app.getHttpServer()).get('/v1/me').set('authorization', bearer(eve.token));
    expect(me.headers['ratelimit-remaining']).toBe('13');
    // over graphql-ws, the same refusal
    const overSocket = await overWs(wsClient(eve.token), hints(450), { id: FAKE_MATCH });
    expect(overSocket.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED', maxCost: 50 } });
  });

  it('every alias of an expensive field is paid from the caller’s bucket, over HTTP', async () => {
    const bob = await register(app, 'payer');
    // 2 hints cost 10 units: the bucket of 14 keeps 4
    const paid = await gql(app, bob.token, hints(2), { id: FAKE_MATCH });
    expect(paid.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    for (let i = 0; i < 4; i++) expect((await gql(app, bob.token, '{ me { id } }')).errors).toBeUndefined();
    expect((await gql(app, bob.token, '{ me { id } }')).errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 14 });
  });

  it('a REST operation costs what the same GraphQL field costs', async () => {
    const erin = await register(app, 'restpay');
    const http = () => request(app.getHttpServer());
    const hinted = await http().get(`/v1/matches/${FAKE_MATCH}/hint`).set('authorization', bearer(erin.token));
    expect(hinted.status).toBe(404);
    expect(hinted.headers['ratelimit-remaining']).toBe('9'); // 14 - 5
    expect((await http().get('/v1/me').set('authorization', bearer(erin.token))).headers['ratelimit-remaining']).toBe('8');
  });

  it('a document the bucket cannot pay is RATE_LIMITED as a whole', async () => {
    const carol = await register(app, 'broke');
    expect((await gql(app, carol.token, hints(2), { id: FAKE_MATCH })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND'); // 10 of 14
    const refused = await gql(app, carol.token, `query($id: ID!) { me { id } ${hints(1).slice('query($id: ID!) { '.length)}`, { id: FAKE_MATCH });
    // no field ran (a hint would say NOT_FOUND)
    expect(refused.errors?.length).toBeGreaterThan(0);
    expect(new Set(refused.errors?.map((e) => e.extensions.code))).toEqual(new Set(['RATE_LIMITED']));
    expect(refused.data ?? null).toBeNull();
  });

  it('every alias of an expensive field is paid from the caller’s bucket, over graphql-ws', async () => {
    const dan = await register(app, 'wspayer');
    const socket = wsClient(dan.token);
    const paid = await overWs(socket, hints(2), { id: FAKE_MATCH });
    expect(paid.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    for (let i = 0; i < 4; i++) expect((await overWs(socket, '{ me { id } }')).errors).toBeUndefined();
    const limited = await overWs(socket, '{ me { id } }');
    expect(limited.errors?.[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED', limit: 14 } });
    // one bucket for the account over HTTP and the socket
    expect((await request(app.getHttpServer()).get('/v1/me').set('authorization', bearer(dan.token))).status).toBe(429);
  });
});

describe('graphql-ws caps and the open-subscriptions gauge (e2e)', () => {
  let app: INestApplication;
  let url: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await appWith({ WS_MAX_CONNECTIONS_PER_ADDRESS: '3', WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: '2' });
    url = (await listenOnLoopback(app)).ws;
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await app?.close();
  });

  const connect = (token: string) =>
    new Promise<{ client: Client; closed: Promise<number> }>((resolve, reject) => {
      let onClosed: (code: number) => void = () => undefined;
      const closed = new Promise<number>((r) => (onClosed = r));
      const client = createClient({
        url,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: bearer(token) },
        retryAttempts: 0,
        lazy: false,
        on: { connected: () => resolve({ client, closed }), closed: (e) => onClosed((e as { code: number }).code) },
        onNonLazyError: () => undefined,
      });
      clients.push(client);
      void closed.then((code) => reject(new Error(`closed with ${code}`)));
    });
  const gauge = async () => {
    const text = (await request(app.getHttpServer()).get('/metrics')).text;
    return Number(/^scopa_subscriptions_open (\d+)/m.exec(text)?.[1]);
  };
  /** Until `check` says true (2 s at most); it runs once more per try, never after. */
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('not so within 2 s');
  };
  /** Subscribes to myTurn; resolves with the error payload if refused, or a disposer once it is live. */
  const subscribe = (client: Client) => {
    let refused: (errors: unknown) => void = () => undefined;
    const outcome = new Promise<unknown>((r) => (refused = r));
    const dispose = client.subscribe(
      { query: 'subscription { myTurn { matchId } }' },
      { next: () => undefined, error: (e) => refused(e), complete: () => undefined },
    );
    return { dispose, outcome };
  };

  it('counts open subscriptions (scopa_subscriptions_open) and caps them per account', async () => {
    const ann = await register(app, 'subs');
    expect(await gauge()).toBe(0);
    const a = await connect(ann.token);
    const b = await connect(ann.token);
    const s1 = subscribe(a.client);
    const s2 = subscribe(b.client);
    await eventually(async () => (await gauge()) === 2);
    // a third one for the same account, on either socket, is refused with a typed error
    const s3 = subscribe(a.client);
    expect(await s3.outcome).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'RATE_LIMITED', limit: 2, reason: 'subscriptions' }) }),
    ]);
    expect(await gauge()).toBe(2);
    // another account still may
    const ben = await register(app, 'subs');
    const c = await connect(ben.token);
    subscribe(c.client);
    await eventually(async () => (await gauge()) === 3);
    // completing one frees its place
    s1.dispose();
    await eventually(async () => (await gauge()) === 2);
    const s4 = subscribe(a.client);
    await eventually(async () => (await gauge()) === 3);
    // closing a socket ends its subscriptions
    await b.client.dispose();
    await eventually(async () => (await gauge()) === 2);
    await c.client.dispose();
    s4.dispose();
    await eventually(async () => (await gauge()) === 0);
    await a.client.dispose();
    void s2;
  });

  it('caps the sockets one address holds open (close 4429), and frees a place when one closes', async () => {
    const cy = await register(app, 'socks');
    const open = [await connect(cy.token), await connect(cy.token), await connect(cy.token)];
    await expect(connect(cy.token)).rejects.toThrow('closed with 4429');
    await open[0].client.dispose();
    await open[0].closed;
    await eventually(async () => {
      try {
        open[0] = await connect(cy.token);
        return true;
      } catch {
        return false;
      }
    });
    for (const s of open) await s.client.dispose();
  });
});

describe('the instance-wide graphql-ws cap, WS_MAX_CONNECTIONS (e2e)', () => {
  let app: INestApplication;
  let url: string;
  beforeAll(async () => {
    app = await appWith({ WS_MAX_CONNECTIONS: '2', WS_MAX_CONNECTIONS_PER_ADDRESS: '10' });
    url = (await listenOnLoopback(app)).ws;
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A raw graphql-transport-ws socket: its close code and reason, or 'acked' once connection_ack came. */
  const open = (token: string) => {
    const ws = new WebSocket(url, 'graphql-transport-ws');
    const outcome = new Promise<string>((resolve) => {
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: bearer(token) } })));
      ws.on('message', (data) => JSON.parse(String(data)).type === 'connection_ack' && resolve('acked'));
      ws.on('close', (code, reason) => resolve(`${code} ${String(reason)}`));
    });
    return { ws, outcome };
  };

  it('refuses a socket past the cap with 4429 while REST still answers, and takes one again once one closes', async () => {
    const eve = await register(app, 'cap');
    const first = open(eve.token);
    const second = open(eve.token);
    expect(await first.outcome).toBe('acked');
    expect(await second.outcome).toBe('acked');
    const third = open(eve.token);
    expect(await third.outcome).toBe('4429 This instance holds its most connections (2); try again later');
    expect((await request(app.getHttpServer()).get('/v1/me').set('authorization', bearer(eve.token))).status).toBe(200);
    const closed = new Promise((r) => first.ws.once('close', r));
    first.ws.close(1000);
    await closed;
    let again = 'none';
    for (let i = 0; i < 100 && again !== 'acked'; i++) {
      const s = open(eve.token);
      again = await s.outcome;
      if (again !== 'acked') await new Promise((r) => setTimeout(r, 20));
      else s.ws.close(1000);
    }
    expect(again).toBe('acked');
    second.ws.close(1000);
  });
});
