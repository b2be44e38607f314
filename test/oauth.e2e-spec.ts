/**
 * OAuth 2.0 (issue 18): a public client's authorization code flow with PKCE
 * against a listening instance, the RFC's refusals, refresh rotation with
 * reuse detection, revocation (RFC 7009, and by the user: sockets close),
 * introspection, loopback redirects, and fine scopes over every transport.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestApp, listenOnLoopback } from './support/app';
import { PrismaService } from '../src/database/prisma.service';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { CookieJar, authorizeUrl, browse, form, pkce } from './support/oauth';

jest.setTimeout(120_000);

const LOOPBACK_REDIRECT = 'http://127.0.0.1/callback';
const WEB_REDIRECT = 'https://app.example/cb';

describe('OAuth 2.0 authorization server (e2e)', () => {
  let app: INestApplication;
  let base: string;
  let alice: Account;
  let publicApp: string;
  let webApp: string;

  const api = (path: string, token: string, init: RequestInit = {}) =>
    fetch(base + path, {
      ...init,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
  const gql = async (token: string, query: string, variables: Record<string, unknown> = {}) =>
    (await api('/graphql', token, { method: 'POST', body: JSON.stringify({ query, variables }) })).json() as Promise<any>;

  beforeAll(async () => {
    app = await createTestApp({ OAUTH_CODE_TTL: '2' });
    base = (await listenOnLoopback(app)).http;
    alice = await register(app, 'oa');
    const reg = await api('/v1/oauth/apps', alice.token, { method: 'POST', body: JSON.stringify({ name: 'Loopback bot', redirectUris: [LOOPBACK_REDIRECT] }) });
    expect(reg.status).toBe(201);
    const body = (await reg.json()) as any;
    expect(body.clientSecret).toBeNull();
    publicApp = body.app.id;
    const web = await gql(alice.token, 'mutation($i: RegisterOAuthAppInput!) { registerOAuthApp(input: $i) { app { id confidential } clientSecret } }', {
      i: { name: 'Web app', redirectUris: [WEB_REDIRECT] },
    });
    webApp = web.data.registerOAuthApp.app.id;
  });
  afterAll(async () => {
    await app?.close();
  });

  /**
   * The browser part: authorize, the consent page's calls (as the signed-in
   * user), then the resume that redirects to the app. Returns the final
   * redirect (to the app) as a URL.
   */
  async function authorize(
    params: Record<string, string | undefined>,
    { user = alice, approve = true }: { user?: Account; approve?: boolean } = {},
  ): Promise<URL> {
    const jar = new CookieJar();
    const first = await browse(jar, authorizeUrl(base, params));
    expect(first.status).toBe(303);
    const consent = new URL(first.headers.get('location')!, base);
    expect(consent.pathname).toMatch(/^\/oauth\/consent\/[\w-]+$/);
    // The consent page (web client), fetched from the same browser with the user's session.
    const page = await browse(jar, consent.toString());
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`/#${consent.pathname}`);
    const details = await browse(jar, `${consent}/request`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(details.status).toBe(200);
    const request = (await details.json()) as any;
    expect(request.app.id).toBe(params.client_id);
    const decided = await browse(jar, consent.toString(), {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ approve }),
    });
    expect(decided.status).toBe(200);
    const { redirectTo } = (await decided.json()) as any;
    const back = await browse(jar, redirectTo);
    expect(back.status).toBe(303);
    return new URL(back.headers.get('location')!);
  }

  const codeParams = (challenge: string, extra: Record<string, string | undefined> = {}) => ({
    response_type: 'code',
    client_id: publicApp,
    redirect_uri: LOOPBACK_REDIRECT,
    scope: 'match:read profile:read',
    state: 'st-' + Math.random().toString(36).slice(2),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });

  const exchange = (code: string, verifier: string, redirectUri = LOOPBACK_REDIRECT, clientId = publicApp) =>
    form(`${base}/oauth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier });

  const refresh = (refreshToken: string, clientId = publicApp) =>
    form(`${base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

  it('publishes RFC 8414 metadata at /.well-known/oauth-authorization-server', async () => {
    const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const meta = (await res.json()) as any;
    expect(meta.authorization_endpoint).toBe(`${base}/oauth/authorize`);
    expect(meta.token_endpoint).toBe(`${base}/oauth/token`);
    expect(meta.revocation_endpoint).toBe(`${base}/oauth/revoke`);
    expect(meta.introspection_endpoint).toBe(`${base}/oauth/introspect`);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.scopes_supported).toEqual(
      expect.arrayContaining(['profile:read', 'match:read', 'match:play', 'challenge:write', 'webhook:write', 'ruleset:write']),
    );
    expect(meta.response_types_supported).toEqual(['code']);
  });

  it('every endpoint the metadata advertises is served; pushed authorization requests (RFC 9126) at /oauth/par lead to a code', async () => {
    const meta = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    const endpoints = Object.entries(meta).filter(([k, v]) => (k.endsWith('_endpoint') || k === 'jwks_uri') && typeof v === 'string') as [string, string][];
    expect(endpoints.map(([k]) => k)).toContain('pushed_authorization_request_endpoint');
    for (const [name, url] of endpoints) {
      expect(url.startsWith(base)).toBe(true);
      const res =
        name === 'authorization_endpoint' || name === 'jwks_uri'
          ? await fetch(url, { redirect: 'manual' })
          : await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
      expect({ name, status: res.status }).not.toEqual({ name, status: 404 });
      if (name === 'jwks_uri') expect(res.status).toBe(200);
    }
    expect(meta.pushed_authorization_request_endpoint).toBe(`${base}/oauth/par`);
    expect((await fetch(`${base}/request`, { method: 'POST' })).status).toBe(404); // what was advertised before, and never served

    // the app pushes its request (PKCE and state as ever), then sends the browser with the request_uri alone
    const { verifier, challenge } = pkce();
    const params = codeParams(challenge);
    const pushed = await form(`${base}/oauth/par`, params);
    expect(pushed.status).toBe(201);
    expect(pushed.body.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    expect(pushed.body.expires_in).toBeGreaterThan(0);
    const back = await authorize({ client_id: publicApp, request_uri: pushed.body.request_uri });
    expect(back.origin + back.pathname).toBe(LOOPBACK_REDIRECT);
    expect(back.searchParams.get('state')).toBe(params.state);
    const tokens = await exchange(back.searchParams.get('code')!, verifier);
    expect(tokens.status).toBe(200);
    expect((await api('/v1/me', tokens.body.access_token)).status).toBe(200);
    // the same rules as at the authorization endpoint
    const noState = await form(`${base}/oauth/par`, { ...params, state: undefined });
    expect([noState.status, noState.body.error]).toEqual([400, 'invalid_request']);
    const noPkce = await form(`${base}/oauth/par`, { ...params, code_challenge: undefined, code_challenge_method: undefined });
    expect([noPkce.status, noPkce.body.error]).toEqual([400, 'invalid_request']);
    const elsewhere = await form(`${base}/oauth/par`, { ...params, redirect_uri: 'https://evil.example/cb' });
    expect(elsewhere.status).toBe(400);
  });

  it('redirect URIs with a user part are refused at registration; the consent page names the redirect host plainly', async () => {
    for (const uri of [
      'https://scopa.example@evil.example/cb',
      'https://@evil.example/cb',
      'https://user:pw@app.example/cb',
      'http://127.0.0.1@evil.example/cb',
    ]) {
      const res = await api('/v1/oauth/apps', alice.token, { method: 'POST', body: JSON.stringify({ name: 'x', redirectUris: [uri] }) });
      const body = (await res.json()) as any;
      expect({ uri, status: res.status, code: body.code, field: body.field }).toEqual({ uri, status: 400, code: 'VALIDATION_FAILED', field: 'redirectUris' });
      expect(body.detail).toMatch(/user part/);
      const viaGql = await gql(alice.token, 'mutation($i: RegisterOAuthAppInput!) { registerOAuthApp(input: $i) { app { id } } }', {
        i: { name: 'x', redirectUris: [uri] },
      });
      expect(viaGql.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    }
    // RFC 7591's client_id beside id
    const reg = await api('/v1/oauth/apps', alice.token, {
      method: 'POST',
      body: JSON.stringify({ name: 'Plain', redirectUris: ['https://plain.example/cb?at=x@y'] }),
    });
    expect(reg.status).toBe(201);
    const registered = (await reg.json()) as any;
    expect(registered.app.client_id).toBe(registered.app.id);

    // the consent request names where the browser goes back to: its host
    const consentOf = async (clientId: string, redirectUri: string) => {
      const jar = new CookieJar();
      const first = await browse(jar, authorizeUrl(base, codeParams(pkce().challenge, { client_id: clientId, redirect_uri: redirectUri })));
      expect(first.status).toBe(303);
      const consent = new URL(first.headers.get('location')!, base);
      return (await (await browse(jar, `${consent}/request`, { headers: { authorization: `Bearer ${alice.token}` } })).json()) as any;
    };
    expect(await consentOf(registered.app.id, 'https://plain.example/cb?at=x@y')).toMatchObject({
      redirectUri: 'https://plain.example/cb?at=x@y',
      redirectHost: 'plain.example',
    });
    expect(await consentOf(publicApp, 'http://127.0.0.1:51234/callback')).toMatchObject({ redirectHost: '127.0.0.1:51234' });
    // an app registered before this rule, with such a URI: the consent names the real host, not the user part
    const legacy = 'legacy' + Math.random().toString(16).slice(2);
    await app.get(PrismaService).oAuthApp.create({
      data: { id: legacy, ownerId: alice.id, name: 'Legacy', redirectUris: ['https://scopa.example@evil.example/cb'], confidential: false },
    });
    const shown = await consentOf(legacy, 'https://scopa.example@evil.example/cb');
    expect(shown.redirectHost).toBe('evil.example');
  });

  it('a public client: authorize, approve, exchange with the verifier, call the API, refresh (rotation), reuse revokes the grant', async () => {
    const { verifier, challenge } = pkce();
    const params = codeParams(challenge);
    const back = await authorize(params);
    expect(back.origin + back.pathname).toBe(LOOPBACK_REDIRECT);
    expect(back.searchParams.get('state')).toBe(params.state);
    const code = back.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const tokens = await exchange(code, verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'profile:read match:read' });
    expect(typeof tokens.body.access_token).toBe('string');
    expect(typeof tokens.body.refresh_token).toBe('string');

    // The access token works on the API as alice, with the granted scopes only.
    const me = await api('/v1/me', tokens.body.access_token);
    expect(me.status).toBe(200);
    expect(((await me.json()) as any).username).toBe(alice.username);
    const mine = await api('/v1/matches', tokens.body.access_token);
    expect(mine.status).toBe(200);
    const denied = await api('/v1/matches', tokens.body.access_token, { method: 'POST', body: JSON.stringify({ preset: 'scopa' }) });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'match:play' });
    // Account management needs a password session.
    expect((await api('/v1/oauth/grants', tokens.body.access_token)).status).toBe(403);

    // The user sees the app among the authorized apps.
    const grants = (await (await api('/v1/oauth/grants', alice.token)).json()) as any[];
    expect(grants).toEqual(
      expect.arrayContaining([expect.objectContaining({ app: { id: publicApp, name: 'Loopback bot' }, scopes: ['profile:read', 'match:read'] })]),
    );

    // Refresh: a new access token and a new refresh token; the old access token still works until it expires.
    const r1 = await refresh(tokens.body.refresh_token);
    expect(r1.status).toBe(200);
    expect(r1.body.refresh_token).not.toBe(tokens.body.refresh_token);
    expect((await api('/v1/me', r1.body.access_token)).status).toBe(200);

    // Reusing the spent refresh token: invalid_grant, and the whole grant is revoked (every token of it).
    const reuse = await refresh(tokens.body.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    expect((await api('/v1/me', r1.body.access_token)).status).toBe(401);
    expect((await api('/v1/me', tokens.body.access_token)).status).toBe(401);
    const after = await refresh(r1.body.refresh_token);
    expect(after.body.error).toBe('invalid_grant');
  });

  it('two refreshes with one refresh token at once: one wins, the other is a reuse and ends the grant', async () => {
    const { verifier, challenge } = pkce();
    const t = (await exchange((await authorize(codeParams(challenge))).searchParams.get('code')!, verifier)).body;
    const both = await Promise.all([refresh(t.refresh_token), refresh(t.refresh_token)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    const loser = both.find((r) => r.status === 400)!;
    expect(loser.body.error).toBe('invalid_grant');
    const winner = both.find((r) => r.status === 200)!;
    expect((await api('/v1/me', winner.body.access_token)).status).toBe(401);
    expect((await refresh(winner.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it("an app asking for openid also gets an ID token (EdDSA, the server's key at /oauth/jwks) naming the account", async () => {
    const { verifier, challenge } = pkce();
    const t = (await exchange((await authorize(codeParams(challenge, { scope: 'openid match:read', nonce: 'n-1' }))).searchParams.get('code')!, verifier)).body;
    expect(t.scope.split(' ').sort()).toEqual(['match:read', 'openid']);
    const [header, payload] = (t.id_token as string)
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header.alg).toBe('EdDSA');
    expect(payload).toMatchObject({ sub: alice.id, aud: publicApp, nonce: 'n-1' });
    const jwks = (await (await fetch(`${base}/oauth/jwks`)).json()) as any;
    expect(jwks.keys.map((k: any) => k.kid)).toContain(header.kid);
    expect(JSON.stringify(jwks)).not.toMatch(/"d":/);
  });

  it('refusals: wrong verifier, wrong redirect URI, missing state, reused code, expired code; deny', async () => {
    // wrong verifier
    {
      const { challenge } = pkce();
      const code = (await authorize(codeParams(challenge))).searchParams.get('code')!;
      const res = await exchange(code, pkce().verifier);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
    }
    // no PKCE at all
    {
      const res = await fetch(authorizeUrl(base, codeParams('', { code_challenge: undefined, code_challenge_method: undefined })), { redirect: 'manual' });
      expect(res.status).toBe(303);
      const to = new URL(res.headers.get('location')!);
      expect(to.searchParams.get('error')).toBe('invalid_request');
    }
    // plain PKCE is not offered
    {
      const res = await fetch(authorizeUrl(base, codeParams('x'.repeat(43), { code_challenge_method: 'plain' })), { redirect: 'manual' });
      const to = new URL(res.headers.get('location')!);
      expect(to.searchParams.get('error')).toBe('invalid_request');
    }
    // wrong redirect URI at authorize: never redirected there; an error page instead
    {
      const res = await fetch(authorizeUrl(base, codeParams(pkce().challenge, { redirect_uri: 'https://evil.example/cb' })), { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(((await res.json()) as any).error).toBe('invalid_redirect_uri');
    }
    // a redirect URI at the token endpoint other than the one authorized
    {
      const { verifier, challenge } = pkce();
      const code = (await authorize(codeParams(challenge, { redirect_uri: 'http://127.0.0.1:4567/callback' }))).searchParams.get('code')!;
      const res = await exchange(code, verifier, 'http://127.0.0.1:4568/callback');
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
    }
    // missing state: invalid_request, sent back to the (valid) redirect URI
    {
      const res = await fetch(authorizeUrl(base, codeParams(pkce().challenge, { state: undefined })), { redirect: 'manual' });
      expect(res.status).toBe(303);
      const to = new URL(res.headers.get('location')!);
      expect(to.origin + to.pathname).toBe(LOOPBACK_REDIRECT);
      expect(to.searchParams.get('error')).toBe('invalid_request');
      expect(to.searchParams.get('error_description')).toMatch(/state/);
    }
    // reused code: refused, and the tokens the first exchange gave are revoked
    {
      const { verifier, challenge } = pkce();
      const code = (await authorize(codeParams(challenge))).searchParams.get('code')!;
      const first = await exchange(code, verifier);
      expect(first.status).toBe(200);
      const second = await exchange(code, verifier);
      expect(second.status).toBe(400);
      expect(second.body.error).toBe('invalid_grant');
      expect((await api('/v1/me', first.body.access_token)).status).toBe(401);
    }
    // expired code (OAUTH_CODE_TTL=2 in this suite)
    {
      const { verifier, challenge } = pkce();
      const code = (await authorize(codeParams(challenge))).searchParams.get('code')!;
      await new Promise((r) => setTimeout(r, 3000));
      const res = await exchange(code, verifier);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
    }
    // the user denies: access_denied at the redirect URI, with the state
    {
      const params = codeParams(pkce().challenge);
      const back = await authorize(params, { approve: false });
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe(params.state);
    }
  });

  it('a native app registered with a loopback redirect may use any port (RFC 8252); a web app may not', async () => {
    const { verifier, challenge } = pkce();
    const back = await authorize(codeParams(challenge, { redirect_uri: 'http://127.0.0.1:51234/callback' }));
    expect(back.port).toBe('51234');
    const tokens = await exchange(back.searchParams.get('code')!, verifier, 'http://127.0.0.1:51234/callback');
    expect(tokens.status).toBe(200);
    // other path: refused
    const otherPath = await fetch(authorizeUrl(base, codeParams(challenge, { redirect_uri: 'http://127.0.0.1:51234/other' })), { redirect: 'manual' });
    expect(otherPath.status).toBe(400);
    // a web app's https redirect matches exactly
    const web = await fetch(authorizeUrl(base, codeParams(challenge, { client_id: webApp, redirect_uri: 'https://app.example:8443/cb' })), {
      redirect: 'manual',
    });
    expect(web.status).toBe(400);
  });

  it('RFC 7009 revocation and RFC 7662 introspection by the app; the user revoking the app ends its tokens and closes its sockets', async () => {
    const { verifier, challenge } = pkce();
    const code = (await authorize(codeParams(challenge))).searchParams.get('code')!;
    const t = (await exchange(code, verifier)).body;

    const active = await form(`${base}/oauth/introspect`, { token: t.access_token, client_id: publicApp });
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ active: true, client_id: publicApp, scope: 'profile:read match:read', sub: alice.id });
    // another app cannot introspect it
    const foreign = await form(`${base}/oauth/introspect`, { token: t.access_token, client_id: webApp });
    expect(foreign.body.active).toBe(false);

    // Revoking the refresh token (RFC 7009) ends the grant: the access token too.
    const revoked = await form(`${base}/oauth/revoke`, { token: t.refresh_token, token_type_hint: 'refresh_token', client_id: publicApp });
    expect(revoked.status).toBe(200);
    expect((await api('/v1/me', t.access_token)).status).toBe(401);
    expect((await form(`${base}/oauth/introspect`, { token: t.access_token, client_id: publicApp })).body.active).toBe(false);
    expect((await refresh(t.refresh_token)).body.error).toBe('invalid_grant');

    // The user revokes from the authorized apps: HTTP refused, and the graphql-ws socket opened with the token closes (4403).
    const p2 = pkce();
    const t2 = (await exchange((await authorize(codeParams(p2.challenge))).searchParams.get('code')!, p2.verifier)).body;
    const url = `ws://127.0.0.1:${app.getHttpServer().address().port}/graphql`;
    let closedWith = 0;
    const closed = new Promise<void>((resolve) => {
      const client = createClient({
        url,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${t2.access_token}` },
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => undefined,
        on: { closed: (e) => ((closedWith = (e as { code: number }).code), resolve()) },
      });
      client.subscribe({ query: 'subscription { myTurn { matchId } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(closedWith).toBe(0);
    const grants = (await (await api('/v1/oauth/grants', alice.token)).json()) as any[];
    const mine = grants.filter((g) => g.app.id === publicApp);
    const gql = await api('/graphql', alice.token, {
      method: 'POST',
      body: JSON.stringify({ query: 'mutation($id: ID!) { revokeAuthorizedApp(id: $id) }', variables: { id: mine[mine.length - 1].id } }),
    });
    expect(((await gql.json()) as any).data.revokeAuthorizedApp).toBe(true);
    await Promise.race([closed, new Promise((r) => setTimeout(r, 3000))]);
    expect(closedWith).toBe(4403);
    expect((await api('/v1/me', t2.access_token)).status).toBe(401);
    expect((await refresh(t2.refresh_token)).body.error).toBe('invalid_grant');
    // someone else's grant is not mine to revoke
    const bob = await register(app, 'ob');
    expect((await api(`/v1/oauth/grants/${mine[0].id}`, bob.token, { method: 'DELETE' })).status).toBe(404);
  });

  it('a token without match:play cannot play over REST, GraphQL or graphql-ws; one with it can', async () => {
    const p = pkce();
    const readOnly = (await exchange((await authorize(codeParams(p.challenge, { scope: 'match:read' }))).searchParams.get('code')!, p.verifier)).body
      .access_token;
    const q = pkce();
    const player = (await exchange((await authorize(codeParams(q.challenge, { scope: 'match:read match:play' }))).searchParams.get('code')!, q.verifier)).body
      .access_token;
    const create = { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'random' }] };

    const rest = await api('/v1/matches', readOnly, { method: 'POST', body: JSON.stringify(create) });
    expect(rest.status).toBe(403);
    const CREATE = 'mutation($i: CreateMatchInput!) { createMatch(input: $i) { id } }';
    const viaGql = await gql(readOnly, CREATE, { i: create });
    expect(viaGql.errors[0].extensions.code).toBe('FORBIDDEN');

    const url = `ws://127.0.0.1:${app.getHttpServer().address().port}/graphql`;
    const overWs = async (token: string) => {
      const client = createClient({ url, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
      try {
        return await new Promise<any>((resolve) => {
          client.subscribe(
            { query: CREATE, variables: { i: create } },
            { next: (r) => resolve(r), error: (e) => resolve({ error: e }), complete: () => undefined },
          );
        });
      } finally {
        await client.dispose();
      }
    };
    const wsDenied = await overWs(readOnly);
    expect(wsDenied.errors?.[0]?.extensions?.code ?? wsDenied.error?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const mine = () => api('/v1/matches', player).then(async (r) => ((await r.json()) as any[]).length);
    const before = await mine();
    const ok = await api('/v1/matches', player, { method: 'POST', body: JSON.stringify(create) });
    expect(ok.status).toBe(201);
    expect(await mine()).toBe(before + 1);
  });

  it('app registration: validation, listing and deletion by the owner only; deleting the app ends its grants', async () => {
    const bad = await api('/v1/oauth/apps', alice.token, { method: 'POST', body: JSON.stringify({ name: 'x', redirectUris: ['http://evil.example/cb'] }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).code).toBe('VALIDATION_FAILED');
    const frag = await api('/v1/oauth/apps', alice.token, { method: 'POST', body: JSON.stringify({ name: 'x', redirectUris: ['https://a.example/cb#x'] }) });
    expect(frag.status).toBe(400);

    const conf = (await (
      await api('/v1/oauth/apps', alice.token, {
        method: 'POST',
        body: JSON.stringify({ name: 'Server app', redirectUris: ['https://srv.example/cb'], confidential: true }),
      })
    ).json()) as any;
    expect(conf.app.confidential).toBe(true);
    expect(typeof conf.clientSecret).toBe('string');
    const listed = (await (await api('/v1/oauth/apps', alice.token)).json()) as any[];
    expect(listed.map((a) => a.id)).toEqual(expect.arrayContaining([publicApp, webApp, conf.app.id]));
    expect(JSON.stringify(listed)).not.toContain(conf.clientSecret);

    // A confidential app must authenticate at the token endpoint.
    const { verifier, challenge } = pkce();
    const code = (await authorize(codeParams(challenge, { client_id: conf.app.id, redirect_uri: 'https://srv.example/cb' }))).searchParams.get('code')!;
    const noSecret = await exchange(code, verifier, 'https://srv.example/cb', conf.app.id);
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    const basic = 'Basic ' + Buffer.from(`${conf.app.id}:${conf.clientSecret}`).toString('base64');
    const code2 = (await authorize(codeParams(challenge, { client_id: conf.app.id, redirect_uri: 'https://srv.example/cb' }))).searchParams.get('code')!;
    const withSecret = await form(
      `${base}/oauth/token`,
      { grant_type: 'authorization_code', code: code2, redirect_uri: 'https://srv.example/cb', code_verifier: verifier },
      { authorization: basic },
    );
    expect(withSecret.status).toBe(200);

    const bob = await register(app, 'ob');
    expect((await api(`/v1/oauth/apps/${conf.app.id}`, bob.token, { method: 'DELETE' })).status).toBe(404);
    expect((await api(`/v1/oauth/apps/${conf.app.id}`, alice.token, { method: 'DELETE' })).status).toBe(204);
    expect((await api('/v1/me', withSecret.body.access_token)).status).toBe(401);
    const gone = await fetch(authorizeUrl(base, codeParams(challenge, { client_id: conf.app.id, redirect_uri: 'https://srv.example/cb' })), {
      redirect: 'manual',
    });
    expect(gone.status).toBe(400);
  });

  it('personal API tokens take the fine scopes; read and play still work as their documented aliases', async () => {
    const mk = async (scopes: string[]) =>
      ((await (await api('/v1/tokens', alice.token, { method: 'POST', body: JSON.stringify({ name: scopes.join(' '), scopes }) })).json()) as any)
        .token as string;
    const webhookOnly = await mk(['webhook:write']);
    // Removing a webhook that does not exist: 404 once the scope is there, 403 without it.
    const removeHook = (token: string) => api('/v1/webhooks/00000000-0000-4000-8000-000000000000', token, { method: 'DELETE' }).then((r) => r.status);
    expect(await removeHook(webhookOnly)).toBe(404);
    expect((await api('/v1/matches', webhookOnly)).status).toBe(403);
    // play = match:play + webhook:write (what it allowed before), read = profile:read + match:read
    const play = await mk(['play']);
    expect(await removeHook(play)).toBe(404);
    expect((await api('/v1/me', play)).status).toBe(403);
    const read = await mk(['read']);
    expect((await api('/v1/me', read)).status).toBe(200);
    expect((await api('/v1/matches', read)).status).toBe(200);
    expect((await api('/v1/webhooks', read)).status).toBe(200);
    expect(await removeHook(read)).toBe(403);
    // GraphQL spells the fine scopes with _
    const viaGql = await gql(alice.token, 'mutation { createApiToken(input: { name: "g", scopes: [match_read, ruleset_write] }) { apiToken { scopes } } }');
    expect(viaGql.data.createApiToken.apiToken.scopes).toEqual(['match_read', 'ruleset_write']);
    const unknown = await api('/v1/tokens', alice.token, { method: 'POST', body: JSON.stringify({ name: 'x', scopes: ['match:admin'] }) });
    expect(unknown.status).toBe(400);
  });

  it('password sessions get a single-use refresh token; a spent one ends the session', async () => {
    const login = await fetch(`${base}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: alice.username, password: 'password-of-' + alice.username }),
    });
    const s0 = (await login.json()) as any;
    expect(s0.refreshToken).toMatch(/^scopa_rt_/);
    const refreshSession = (token: string) =>
      fetch(`${base}/v1/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken: token }) });
    const r1 = await refreshSession(s0.refreshToken);
    expect(r1.status).toBe(200);
    const s1 = (await r1.json()) as any;
    expect(s1.refreshToken).not.toBe(s0.refreshToken);
    expect((await api('/v1/me', s1.accessToken)).status).toBe(200);
    // over GraphQL too
    const r2 = await gql('', 'mutation($t: String!) { refreshSession(input: { refreshToken: $t }) { accessToken refreshToken expiresIn } }', {
      t: s1.refreshToken,
    });
    const s2 = r2.data.refreshSession;
    expect(s2.expiresIn).toBe(3600);
    expect((await api('/v1/me', s2.accessToken)).status).toBe(200);
    // replaying a spent refresh token: refused, and the session (every access token of it) ends
    const replay = await refreshSession(s0.refreshToken);
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as any).code).toBe('UNAUTHENTICATED');
    expect((await api('/v1/me', s2.accessToken)).status).toBe(401);
    expect((await refreshSession(s2.refreshToken)).status).toBe(401);
    expect((await refreshSession('scopa_rt_nonsense')).status).toBe(401);
    // alice's other sessions are untouched
    expect((await api('/v1/me', alice.token)).status).toBe(200);
  });

  it("the OAuth endpoints spend the address's rate-limit bucket: past it, 429 temporarily_unavailable with Retry-After", async () => {
    const saved = process.env.RATE_LIMIT;
    const limited = await createTestApp({ RATE_LIMIT: '3' });
    try {
      await limited.listen(0, '127.0.0.1');
      const url = `http://127.0.0.1:${limited.getHttpServer().address().port}/oauth/token`;
      const statuses: number[] = [];
      let last: { status: number; body: any } | undefined;
      for (let i = 0; i < 4; i++) {
        last = await form(url, {
          grant_type: 'authorization_code',
          code: 'guess' + i,
          redirect_uri: LOOPBACK_REDIRECT,
          client_id: 'nobody',
          code_verifier: 'x'.repeat(43),
        });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 3).every((s) => s === 401 || s === 400)).toBe(true);
      expect(statuses[3]).toBe(429);
      expect(last!.body.error).toBe('temporarily_unavailable');
    } finally {
      await limited.close();
      if (saved === undefined) delete process.env.RATE_LIMIT;
      else process.env.RATE_LIMIT = saved;
    }
  });
});
