/**
 * Every way a credential ends closes every connection opened with it, within
 * a second (issue 26, item 2): credential kind (password session JWT,
 * personal API token, OAuth access token) × way it ends (revocation of the
 * token itself, of its grant, of its app, logout, a spent refresh token
 * replayed, expiry) × transport (graphql-ws, GraphQL over SSE, NDJSON stream).
 * Each connection says why it ended (graphql-ws: close 4403 with the reason;
 * SSE and NDJSON: a last UNAUTHENTICATED error), nothing more runs on it (a
 * mutation sent over the socket right after the end makes nothing), and the
 * credential is refused everywhere afterwards. Personal API tokens do not
 * expire. Across instances: credential-revocation.redis-spec.ts.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { createTestApp, listenOnLoopback } from './support/app';
import { uniqueName } from './support/clients';
import { TRANSPORTS, endings, holdAll, holdNdjson, holdWs } from './support/connections';
import type { Held } from './support/connections';
import { form, oauthTokens } from './support/oauth';

jest.setTimeout(180_000);

interface User {
  username: string;
  password: string;
  /** The session of the registration. */
  token: string;
  refreshToken: string;
}

/** A credential to hold connections with, and how it ends: `end` resolves once the ending request is answered. */
interface Credential {
  token: string;
  end?: () => Promise<void>;
  /** For an expiry: when (ms since the epoch). */
  expiresAt?: number;
}

interface Cell {
  kind: 'session JWT' | 'API token' | 'OAuth access token';
  way: string;
  make: (user: User) => Promise<Credential>;
}

const CREATE = 'mutation($i: CreateMatchInput!) { createMatch(input: $i) { id } }';
const CREATE_INPUT = { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'random' }] };
const OAUTH_SCOPE = 'profile:read match:read match:play';

describe('the end of a credential closes every connection opened with it, within a second (e2e)', () => {
  let app: INestApplication;
  let inst: { http: string; ws: string };
  const held: Held[] = [];

  beforeAll(async () => {
    app = await createTestApp();
    inst = await listenOnLoopback(app);
  });
  afterAll(async () => {
    for (const h of held) h.close();
    await app?.close();
  });

  async function call(path: string, token: string | null, init: RequestInit = {}, base = inst.http): Promise<{ status: number; body: any }> {
    const res = await fetch(base + path, {
      ...init,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string>) },
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  async function newUser(base = inst.http): Promise<User> {
    const username = uniqueName('cm');
    const password = `password-of-${username}`;
    const res = await call('/v1/auth/register', null, { method: 'POST', body: JSON.stringify({ username, password }) }, base);
    expect(res.status).toBe(201);
    return { username, password, token: res.body.accessToken, refreshToken: res.body.refreshToken };
  }

  const login = async (user: User, base = inst.http): Promise<string> =>
    (await call('/v1/auth/login', null, { method: 'POST', body: JSON.stringify({ username: user.username, password: user.password }) }, base)).body.accessToken;

  const grantOf = async (user: User, clientId: string): Promise<string> => {
    const grants = (await call('/v1/oauth/grants', user.token)).body as { id: string; app: { id: string } }[];
    return grants.find((g) => g.app.id === clientId)!.id;
  };

  const ok = async (p: Promise<{ status: number; body: any }>, status: number) => {
    const res = await p;
    expect({ status: res.status, body: res.body }).toEqual({ status, body: res.body });
  };

  const cells: Cell[] = [
    {
      kind: 'session JWT',
      way: 'logout (REST)',
      make: async (user) => {
        const token = await login(user);
        return { token, end: () => ok(call('/v1/auth/logout', token, { method: 'POST' }), 204) };
      },
    },
    {
      kind: 'session JWT',
      way: 'logout everywhere (GraphQL, from another session)',
      make: async (user) => ({
        token: await login(user),
        end: async () => {
          const res = await call('/graphql', user.token, { method: 'POST', body: JSON.stringify({ query: 'mutation { logoutEverywhere }' }) });
          expect(res.body).toEqual({ data: { logoutEverywhere: true } });
        },
      }),
    },
    {
      kind: 'session JWT',
      way: 'its spent refresh token replayed',
      make: async (user) => ({
        token: user.token,
        end: async () => {
          await ok(call('/v1/auth/refresh', null, { method: 'POST', body: JSON.stringify({ refreshToken: user.refreshToken }) }), 200);
          const replay = await call('/v1/auth/refresh', null, { method: 'POST', body: JSON.stringify({ refreshToken: user.refreshToken }) });
          expect(replay.status).toBe(401);
        },
      }),
    },
    {
      kind: 'session JWT',
      way: 'expiry',
      make: async (user) => {
        const claims = jwt.decode(user.token) as Record<string, unknown>;
        const exp = Math.floor(Date.now() / 1000) + 3;
        const token = jwt.sign({ sub: claims.sub, usr: claims.usr, sid: claims.sid, exp }, process.env.JWT_SECRET!, { issuer: 'scopa-service' });
        return { token, expiresAt: exp * 1000 };
      },
    },
    {
      kind: 'API token',
      way: 'revoked by its owner (REST)',
      make: async (user) => {
        const created = await call('/v1/tokens', user.token, { method: 'POST', body: JSON.stringify({ name: 'bot', scopes: ['read', 'play'] }) });
        expect(created.status).toBe(201);
        return { token: created.body.token, end: () => ok(call(`/v1/tokens/${created.body.apiToken.id}`, user.token, { method: 'DELETE' }), 200) };
      },
    },
    {
      kind: 'OAuth access token',
      way: 'its app revokes the access token (RFC 7009)',
      make: async (user) => {
        const t = await oauthTokens(inst.http, user, OAUTH_SCOPE);
        return {
          token: t.access_token,
          end: () => ok(form(`${inst.http}/oauth/revoke`, { token: t.access_token, token_type_hint: 'access_token', client_id: t.clientId }), 200),
        };
      },
    },
    {
      kind: 'OAuth access token',
      way: 'its app revokes the refresh token (RFC 7009: the grant ends)',
      make: async (user) => {
        const t = await oauthTokens(inst.http, user, OAUTH_SCOPE);
        return {
          token: t.access_token,
          end: () => ok(form(`${inst.http}/oauth/revoke`, { token: t.refresh_token, token_type_hint: 'refresh_token', client_id: t.clientId }), 200),
        };
      },
    },
    {
      kind: 'OAuth access token',
      way: "the user revokes the app's access (its grant)",
      make: async (user) => {
        const t = await oauthTokens(inst.http, user, OAUTH_SCOPE);
        const grant = await grantOf(user, t.clientId);
        return { token: t.access_token, end: () => ok(call(`/v1/oauth/grants/${grant}`, user.token, { method: 'DELETE' }), 204) };
      },
    },
    {
      kind: 'OAuth access token',
      way: 'the app is deleted by its owner',
      make: async (user) => {
        const owner = await newUser();
        const t = await oauthTokens(inst.http, user, OAUTH_SCOPE, owner);
        return { token: t.access_token, end: () => ok(call(`/v1/oauth/apps/${t.clientId}`, owner.token, { method: 'DELETE' }), 204) };
      },
    },
    {
      kind: 'OAuth access token',
      way: 'a spent refresh token replayed (the grant ends)',
      make: async (user) => {
        const t = await oauthTokens(inst.http, user, OAUTH_SCOPE);
        return {
          token: t.access_token,
          end: async () => {
            const refresh = () => form(`${inst.http}/oauth/token`, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: t.clientId });
            expect((await refresh()).status).toBe(200);
            expect((await refresh()).body.error).toBe('invalid_grant');
          },
        };
      },
    },
  ];

  /**
   * Holds one connection per transport with the credential, ends it, and
   * checks that each closed, saying why, within a second; that a mutation sent
   * right after the end made nothing; and that the credential opens nothing more.
   */
  async function endAndWatch(base: { http: string; ws: string }, user: User, credential: Credential): Promise<void> {
    const connections = await holdAll(base, credential.token);
    held.push(...connections);
    // the end is requested at `from`, done at `at` (the answer): each connection closes between `from` and a second after `at`
    let from: number;
    let at: number;
    let attempt: Promise<{ data?: any; errors?: any }> | undefined;
    if (credential.end) {
      from = Date.now();
      await credential.end();
      at = Date.now();
      // the socket may still be closing: whatever is sent on it now must not run
      attempt = connections[0].run!(CREATE, { i: CREATE_INPUT });
    } else {
      from = at = credential.expiresAt!;
      expect(at).toBeGreaterThan(Date.now()); // every connection was open before the expiry
    }
    const reason = credential.end ? 'credential revoked' : 'credential expired';
    const ended = await endings(connections, at, 1000);
    expect(
      ended.map((e, k) =>
        e
          ? { transport: e.transport, code: e.code, reason: e.reason, inTime: e.at >= from - 20 && e.at - at < 1000 }
          : { transport: TRANSPORTS[k], open: 'still open a second later' },
      ),
    ).toEqual([
      { transport: 'graphql-ws', code: 4403, reason, inTime: true },
      { transport: 'graphql-sse', code: 'UNAUTHENTICATED', reason, inTime: true },
      { transport: 'ndjson', code: 'UNAUTHENTICATED', reason, inTime: true },
    ]);
    if (attempt) expect((await attempt).data?.createMatch).toBeUndefined();

    // refused everywhere from now on
    expect((await call('/v1/me', credential.token, {}, base.http)).status).toBe(401);
    const ws = holdWs(base.ws, credential.token);
    held.push(ws);
    expect((await ws.ended).code).toBe(4403);
    const stream = holdNdjson(base.http, credential.token);
    held.push(stream);
    await expect(stream.ready).rejects.toThrow(/^NDJSON stream: 401/);
    // and nothing was made with it
    const mine = await call('/v1/matches', await login(user, base.http), {}, base.http);
    expect(mine).toEqual({ status: 200, body: [] });
  }

  it.each(cells.map((c) => [c.kind, c.way, c] as const))('%s × %s: every connection closes within a second', async (_kind, _way, cell) => {
    const user = await newUser();
    await endAndWatch(inst, user, await cell.make(user));
  });

  it("revoking one OAuth access token leaves the grant's other access tokens and their connections alone", async () => {
    const user = await newUser();
    const t = await oauthTokens(inst.http, user, OAUTH_SCOPE);
    const next = await form(`${inst.http}/oauth/token`, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: t.clientId });
    expect(next.status).toBe(200);
    const other = await holdAll(inst, next.body.access_token);
    held.push(...other);
    await endAndWatch(inst, user, {
      token: t.access_token,
      end: () => ok(form(`${inst.http}/oauth/revoke`, { token: t.access_token, token_type_hint: 'access_token', client_id: t.clientId }), 200),
    });
    expect(await endings(other, Date.now(), 0)).toEqual([null, null, null]);
    expect((await other[0].run!('{ me { username } }')).data).toEqual({ me: { username: user.username } });
    expect((await call('/v1/me', next.body.access_token)).status).toBe(200);
  });

  describe('OAuth access token × expiry', () => {
    let short: INestApplication;
    let shortInst: { http: string; ws: string };
    beforeAll(async () => {
      const saved = process.env.OAUTH_ACCESS_TOKEN_TTL;
      short = await createTestApp({ OAUTH_ACCESS_TOKEN_TTL: '4' });
      if (saved === undefined) delete process.env.OAUTH_ACCESS_TOKEN_TTL;
      else process.env.OAUTH_ACCESS_TOKEN_TTL = saved;
      shortInst = await listenOnLoopback(short);
    });
    afterAll(async () => {
      await short?.close();
    });

    it('OAuth access token × expiry: every connection closes at its exp', async () => {
      const user = await newUser(shortInst.http);
      const t = await oauthTokens(shortInst.http, user, OAUTH_SCOPE);
      const introspected = await form(`${shortInst.http}/oauth/introspect`, { token: t.access_token, client_id: t.clientId });
      expect(introspected.body.active).toBe(true);
      await endAndWatch(shortInst, user, { token: t.access_token, expiresAt: introspected.body.exp * 1000 });
    });
  });
});
