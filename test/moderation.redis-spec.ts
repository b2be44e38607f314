/**
 * A ban across instances (issue 46), PostgreSQL and Redis: a moderator bans
 * an account through instance A; every connection the account holds on
 * instance B (graphql-ws, GraphQL over SSE, the NDJSON event stream), with
 * any of its credentials (a session JWT, an API token, an OAuth access
 * token), ends within a second of the ban's answer, as logout-everywhere
 * ends a session's; B then refuses those credentials on HTTP and a new
 * socket, and both refuse the login with ACCOUNT_BANNED.
 */
import { jest } from '@jest/globals';
import request from 'supertest';
import { RevocationBus } from '../src/connections/revocations';
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';
import { endings, holdAll, holdWs } from './support/connections';
import type { Held } from './support/connections';
import { oauthTokens } from './support/oauth';

jest.setTimeout(120_000);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const MODERATOR = `redismod${Math.floor(Math.random() * 1e6)}`;

describe('a ban on one instance ends the account on the other (Redis and PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let a: Awaited<ReturnType<typeof startInstance>>;
  let b: Awaited<ReturnType<typeof startInstance>>;
  let mod: string;
  const held: Held[] = [];

  beforeAll(async () => {
    db = await freshPgDatabase();
    a = await startInstance(db.url, { REDIS_URL, INSTANCE_ID: 'a', MODERATORS: MODERATOR });
    b = await startInstance(db.url, { REDIS_URL, INSTANCE_ID: 'b', MODERATORS: MODERATOR });
    await Promise.all([a, b].map((i) => i.app.get(RevocationBus).ready));
    mod = (await register(a, MODERATOR)).token;
  });
  afterAll(async () => {
    for (const h of held) h.close();
    await a?.app.close();
    await b?.app.close();
    await db?.drop();
  });

  async function register(instance: typeof a, username = `ban${Math.random().toString(36).slice(2, 8)}`) {
    const res = await request(instance.app.getHttpServer())
      .post('/v1/auth/register')
      .send({ username, password: `pw-${username}-long` });
    expect(res.status).toBe(201);
    return { username, token: res.body.accessToken as string };
  }
  const me = (instance: typeof a, token: string) => request(instance.app.getHttpServer()).get('/v1/me').set('authorization', `Bearer ${token}`);

  const credentials: [string, (user: { username: string; token: string }) => Promise<string>][] = [
    ['session JWT', async (user) => user.token],
    [
      'API token',
      async (user) => {
        const created = await request(a.app.getHttpServer())
          .post('/v1/tokens')
          .set('authorization', `Bearer ${user.token}`)
          .send({ name: 'bot', scopes: ['read'] });
        expect(created.status).toBe(201);
        return created.body.token as string;
      },
    ],
    ['OAuth access token', async (user) => (await oauthTokens(a.http, user, 'profile:read match:read')).access_token],
  ];

  it.each(credentials)('%s: its graphql-ws, SSE and NDJSON connections on B end within a second of the ban through A', async (_name, make) => {
    const user = await register(a);
    const token = await make(user);
    expect((await me(b, token)).status).toBe(200); // B holds it as active
    const connections = await holdAll(b, token);
    held.push(...connections);
    const from = Date.now();
    const ban = await request(a.app.getHttpServer())
      .post(`/v1/admin/users/${user.username}/ban`)
      .set('authorization', `Bearer ${mod}`)
      .send({ reason: 'cheating' });
    expect(ban.status).toBe(200);
    const at = Date.now();
    const ended = await endings(connections, at, 1000);
    expect(ended.map((e) => e && { transport: e.transport, code: e.code, reason: e.reason, inTime: e.at >= from && e.at - at < 1000 })).toEqual([
      { transport: 'graphql-ws', code: 4403, reason: 'credential revoked', inTime: true },
      { transport: 'graphql-sse', code: 'UNAUTHENTICATED', reason: 'credential revoked', inTime: true },
      { transport: 'ndjson', code: 'UNAUTHENTICATED', reason: 'credential revoked', inTime: true },
    ]);
    // dead on B's HTTP, and a new socket on B is refused
    expect((await me(b, token)).status).toBe(401);
    const again = holdWs(b.ws, token);
    held.push(again);
    expect((await again.ended).code).toBe(4403);
    for (const instance of [a, b]) {
      const login = await request(instance.app.getHttpServer())
        .post('/v1/auth/login')
        .send({ username: user.username, password: `pw-${user.username}-long` });
      expect([login.status, login.body.code]).toEqual([403, 'ACCOUNT_BANNED']);
    }
  });
});
