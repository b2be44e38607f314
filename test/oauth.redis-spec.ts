/**
 * OAuth across two instances sharing PostgreSQL and Redis: an authorization
 * started on one instance is approved and exchanged on the other (the
 * provider's state is in the database, its cookies signed with the shared
 * secret), and revoking the grant through one instance closes the sockets
 * opened with its tokens on the other within a second, as does a
 * refresh-token reuse.
 */
import { jest } from '@jest/globals';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { RevocationBus } from '../src/connections/revocations';
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';
import { CookieJar, authorizeUrl, browse, form, pkce } from './support/oauth';

jest.setTimeout(120_000);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const REDIRECT = 'http://127.0.0.1/callback';

describe('OAuth across instances (Redis and PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let a: Awaited<ReturnType<typeof startInstance>>;
  let b: Awaited<ReturnType<typeof startInstance>>;
  let session: string;
  let clientId: string;
  const clients: Client[] = [];

  const json = async (url: string, token: string | null, init: RequestInit = {}) => {
    const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };

  beforeAll(async () => {
    db = await freshPgDatabase();
    a = await startInstance(db.url, { REDIS_URL, INSTANCE_ID: 'a' });
    b = await startInstance(db.url, { REDIS_URL, INSTANCE_ID: 'b' });
    await Promise.all([a, b].map((i) => i.app.get(RevocationBus).ready));
    const username = `oar${Math.random().toString(36).slice(2, 8)}`;
    session = (await json(`${a.http}/v1/auth/register`, null, { method: 'POST', body: JSON.stringify({ username, password: `pw-${username}-long` }) })).body
      .accessToken;
    clientId = (
      await json(`${a.http}/v1/oauth/apps`, session, { method: 'POST', body: JSON.stringify({ name: 'Two-instance bot', redirectUris: [REDIRECT] }) })
    ).body.app.id;
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await a?.app.close();
    await b?.app.close();
    await db?.drop();
  });

  /** Authorize on A, consent and resume on B, exchange on A: tokens. */
  async function tokens(): Promise<{ access_token: string; refresh_token: string }> {
    const { verifier, challenge } = pkce();
    const jar = new CookieJar();
    const first = await browse(
      jar,
      authorizeUrl(a.http, {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        scope: 'match:read',
        state: 's',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    expect(first.status).toBe(303);
    const consent = new URL(first.headers.get('location')!, b.http).toString();
    const decided = await browse(jar, consent, {
      method: 'POST',
      headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
      body: JSON.stringify({ approve: true }),
    });
    expect(decided.status).toBe(200);
    const resume = new URL(((await decided.json()) as { redirectTo: string }).redirectTo);
    const back = await browse(jar, `${b.http}${resume.pathname}`);
    expect(back.status).toBe(303);
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!;
    const t = await form(`${a.http}/oauth/token`, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(t.status).toBe(200);
    return t.body;
  }

  function open(ws: string, token: string) {
    let connected!: () => void;
    let closed!: (e: { code: number; at: number }) => void;
    const socket = { connected: new Promise<void>((r) => (connected = r)), closed: new Promise<{ code: number; at: number }>((r) => (closed = r)) };
    clients.push(
      createClient({
        url: ws,
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
  const closeOf = (s: { closed: Promise<{ code: number; at: number }> }) =>
    Promise.race([s.closed, new Promise<{ code: number; at: number }>((r) => setTimeout(() => r({ code: 0, at: Number.NaN }), 5000).unref())]);

  it('a grant revoked by its user through A closes its socket on B with 4403 within a second, and B refuses its token', async () => {
    const t = await tokens();
    expect((await json(`${b.http}/v1/matches`, t.access_token)).status).toBe(200);
    const socket = open(b.ws, t.access_token);
    await socket.connected;
    const grants = (await json(`${a.http}/v1/oauth/grants`, session)).body as { id: string }[];
    const at = Date.now();
    expect((await json(`${a.http}/v1/oauth/grants/${grants[grants.length - 1].id}`, session, { method: 'DELETE' })).status).toBe(204);
    const closed = await closeOf(socket);
    expect(closed.code).toBe(4403);
    expect(closed.at - at).toBeLessThan(1000);
    expect((await json(`${b.http}/v1/matches`, t.access_token)).status).toBe(401);
  });

  it('a refresh-token reuse on A ends the grant: its socket on B closes', async () => {
    const t = await tokens();
    const socket = open(b.ws, t.access_token);
    await socket.connected;
    expect((await form(`${a.http}/oauth/token`, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: clientId })).status).toBe(200);
    const at = Date.now();
    const reuse = await form(`${b.http}/oauth/token`, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: clientId });
    expect(reuse.body.error).toBe('invalid_grant');
    const closed = await closeOf(socket);
    expect(closed.code).toBe(4403);
    expect(closed.at - at).toBeLessThan(1000);
  });
});
