/**
 * Two instances sharing PostgreSQL and Redis: a credential revoked through
 * one instance stops working on the other at once, on HTTP (despite its
 * cache) and on its open sockets; and the matrix of issue 26 (credential
 * kind × way it ends × transport) across the two: every connection held on B
 * closes within a second of the end requested through A.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { RevocationBus } from '../src/connections/revocations';
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';
import { endings, holdAll } from './support/connections';
import type { Held } from './support/connections';
import { form, oauthTokens } from './support/oauth';

jest.setTimeout(120_000);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

describe('credential revocation across instances (Redis and PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let a: Awaited<ReturnType<typeof startInstance>>;
  let b: Awaited<ReturnType<typeof startInstance>>;
  const clients: Client[] = [];
  const held: Held[] = [];

  beforeAll(async () => {
    db = await freshPgDatabase();
    a = await startInstance(db.url, { REDIS_URL, INSTANCE_ID: 'a' });
    b = await startInstance(db.url, { REDIS_URL, INSTANCE_ID: 'b' });
    // both listen on Redis before anything is revoked
    await Promise.all([a, b].map((i) => i.app.get(RevocationBus).ready));
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    for (const h of held) h.close();
    await a?.app.close();
    await b?.app.close();
    await db?.drop();
  });

  const suffix = () => Math.random().toString(36).slice(2, 8);
  const register = async (app: INestApplication) => {
    const username = `rev${suffix()}`;
    const res = await request(app.getHttpServer())
      .post('/v1/auth/register')
      .send({ username, password: `pw-${username}-long` });
    expect(res.status).toBe(201);
    return { username, token: res.body.accessToken as string };
  };
  const me = (app: INestApplication, token: string) => request(app.getHttpServer()).get('/v1/me').set('authorization', `Bearer ${token}`);

  /** How the socket closed; code 0 if it is still open 5 s later (a hang would otherwise end at the test's timeout). */
  const closeOf = (s: { closed: Promise<{ code: number; at: number }> }) =>
    Promise.race([s.closed, new Promise<{ code: number; at: number }>((r) => setTimeout(() => r({ code: 0, at: Number.NaN }), 5000).unref())]);

  function open(instance: { ws: string }, token: string) {
    let connected!: () => void;
    let closed!: (e: { code: number; at: number }) => void;
    const socket = {
      connected: new Promise<void>((r) => (connected = r)),
      closed: new Promise<{ code: number; at: number }>((r) => (closed = r)),
    };
    clients.push(
      createClient({
        url: instance.ws,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${token}` },
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => undefined,
        on: { connected: () => connected(), closed: (e) => closed({ code: (e as { code: number }).code, at: Date.now() }) },
      }),
    );
    return socket;
  }

  it('an API token revoked through instance A closes its socket on instance B with 4403 within a second', async () => {
    const ann = await register(a.app);
    const created = await request(a.app.getHttpServer())
      .post('/v1/tokens')
      .set('authorization', `Bearer ${ann.token}`)
      .send({ name: 'bot', scopes: ['read'] });
    expect(created.status).toBe(201);
    const socket = open(b, created.body.token);
    await socket.connected;
    const at = Date.now();
    expect((await request(a.app.getHttpServer()).delete(`/v1/tokens/${created.body.apiToken.id}`).set('authorization', `Bearer ${ann.token}`)).status).toBe(
      200,
    );
    const closed = await closeOf(socket);
    expect(closed.code).toBe(4403);
    expect(closed.at - at).toBeLessThan(1000);
  });

  it('a logout through instance A ends the session on instance B at once: HTTP (cached as active there) and its socket', async () => {
    const bea = await register(a.app);
    expect((await me(b.app, bea.token)).status).toBe(200); // B now holds the session as active
    const socket = open(b, bea.token);
    await socket.connected;
    const at = Date.now();
    expect((await request(a.app.getHttpServer()).post('/v1/auth/logout').set('authorization', `Bearer ${bea.token}`)).status).toBe(204);
    const closed = await closeOf(socket);
    expect(closed.code).toBe(4403);
    expect(closed.at - at).toBeLessThan(1000);
    expect((await me(b.app, bea.token)).status).toBe(401);
  });

  it("logout everywhere through instance B closes the account's session sockets on instance A and ends them on HTTP there", async () => {
    const cid = await register(b.app);
    const second = (
      await request(a.app.getHttpServer())
        .post('/v1/auth/login')
        .send({ username: cid.username, password: `pw-${cid.username}-long` })
    ).body.accessToken as string;
    for (const token of [cid.token, second]) expect((await me(a.app, token)).status).toBe(200);
    const sockets = [open(a, cid.token), open(a, second)];
    await Promise.all(sockets.map((s) => s.connected));
    const at = Date.now();
    expect((await request(b.app.getHttpServer()).post('/v1/auth/logout-all').set('authorization', `Bearer ${cid.token}`)).status).toBe(204);
    for (const s of sockets) {
      const closed = await closeOf(s);
      expect(closed.code).toBe(4403);
      expect(closed.at - at).toBeLessThan(1000);
    }
    for (const token of [cid.token, second]) expect((await me(a.app, token)).status).toBe(401);
  });
  describe('every way a credential ends, through A, closes its graphql-ws, SSE and NDJSON connections on B within a second', () => {
    const call = async (base: string, path: string, token: string | null, init: RequestInit = {}) => {
      const res = await fetch(base + path, {
        ...init,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      return res.status;
    };
    const SCOPE = 'profile:read match:read';

    const cells: [string, (user: { username: string; token: string }) => Promise<{ token: string; end: () => Promise<number> }>][] = [
      ['session JWT × logout', async (user) => ({ token: user.token, end: () => call(a.http, '/v1/auth/logout', user.token, { method: 'POST' }) })],
      [
        'session JWT × logout everywhere',
        async (user) => {
          const second = (
            await request(a.app.getHttpServer())
              .post('/v1/auth/login')
              .send({ username: user.username, password: `pw-${user.username}-long` })
          ).body.accessToken as string;
          return { token: second, end: () => call(a.http, '/v1/auth/logout-all', user.token, { method: 'POST' }) };
        },
      ],
      [
        'API token × revoked',
        async (user) => {
          const created = await request(a.app.getHttpServer())
            .post('/v1/tokens')
            .set('authorization', `Bearer ${user.token}`)
            .send({ name: 'bot', scopes: ['read'] });
          return { token: created.body.token, end: () => call(a.http, `/v1/tokens/${created.body.apiToken.id}`, user.token, { method: 'DELETE' }) };
        },
      ],
      [
        'OAuth access token × revoked by its app (RFC 7009)',
        async (user) => {
          const t = await oauthTokens(a.http, user, SCOPE);
          return {
            token: t.access_token,
            end: async () => (await form(`${a.http}/oauth/revoke`, { token: t.access_token, token_type_hint: 'access_token', client_id: t.clientId })).status,
          };
        },
      ],
      [
        'OAuth access token × its grant revoked by the user',
        async (user) => {
          const t = await oauthTokens(a.http, user, SCOPE);
          const grants = (await request(a.app.getHttpServer()).get('/v1/oauth/grants').set('authorization', `Bearer ${user.token}`)).body as {
            id: string;
            app: { id: string };
          }[];
          const grant = grants.find((g) => g.app.id === t.clientId)!.id;
          return { token: t.access_token, end: () => call(a.http, `/v1/oauth/grants/${grant}`, user.token, { method: 'DELETE' }) };
        },
      ],
      [
        'OAuth access token × its app deleted',
        async (user) => {
          const t = await oauthTokens(a.http, user, SCOPE);
          return { token: t.access_token, end: () => call(a.http, `/v1/oauth/apps/${t.clientId}`, user.token, { method: 'DELETE' }) };
        },
      ],
    ];

    it.each(cells)('%s', async (_name, make) => {
      const user = await register(a.app);
      const credential = await make(user);
      expect((await me(b.app, credential.token)).status).toBe(200); // B holds it as active
      const connections = await holdAll(b, credential.token);
      held.push(...connections);
      // asked at `from`, done at `at` (the answer): each connection on B closes within a second of it
      const from = Date.now();
      expect([200, 204]).toContain(await credential.end());
      const at = Date.now();
      const ended = await endings(connections, at, 1000);
      expect(ended.map((e) => e && { transport: e.transport, code: e.code, reason: e.reason, inTime: e.at >= from && e.at - at < 1000 })).toEqual([
        { transport: 'graphql-ws', code: 4403, reason: 'credential revoked', inTime: true },
        { transport: 'graphql-sse', code: 'UNAUTHENTICATED', reason: 'credential revoked', inTime: true },
        { transport: 'ndjson', code: 'UNAUTHENTICATED', reason: 'credential revoked', inTime: true },
      ]);
      expect((await me(b.app, credential.token)).status).toBe(401);
    });
  });
});
