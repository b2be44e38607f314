import { ScopaClient } from './client.js';
import { ScopaError } from './errors.js';
import { beginOAuthLogin, codeChallengeOf, completeOAuthLogin, createPkce, listenForOAuthRedirect } from './oauth.js';
import type { OAuthTokens } from './oauth-tokens.js';

const BASE = 'http://service';
const METADATA = {
  issuer: BASE,
  authorization_endpoint: `${BASE}/oauth/authorize`,
  token_endpoint: `${BASE}/oauth/token`,
  revocation_endpoint: `${BASE}/oauth/revoke`,
  code_challenge_methods_supported: ['S256'],
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A fake service: the metadata, a token endpoint that rotates refresh tokens
 * (a spent one is invalid_grant), and /v1/me that accepts only the current
 * access token. Records every request.
 */
function fakeService() {
  let generation = 0;
  let access = 'at-0';
  let refresh = 'rt-0';
  const spent = new Set<string>();
  const sent: { url: string; method: string; authorization: string | null; body: string }[] = [];
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body = await request.text();
    const url = new URL(request.url);
    sent.push({ url: url.pathname, method: request.method, authorization: request.headers.get('authorization'), body });
    if (url.pathname === '/.well-known/oauth-authorization-server') return json(METADATA);
    if (url.pathname === '/oauth/token') {
      const form = new URLSearchParams(body);
      if (form.get('grant_type') === 'refresh_token') {
        const presented = form.get('refresh_token')!;
        if (presented !== refresh || spent.has(presented)) return json({ error: 'invalid_grant', error_description: 'grant request is invalid' }, 400);
        spent.add(presented);
      }
      generation++;
      access = `at-${generation}`;
      refresh = `rt-${generation}`;
      return json({ access_token: access, refresh_token: refresh, expires_in: 3600, token_type: 'Bearer', scope: 'profile:read match:read' });
    }
    if (url.pathname === '/v1/me' || url.pathname === '/v1/matches') {
      if (request.headers.get('authorization') !== `Bearer ${access}`) return json({ code: 'UNAUTHENTICATED', status: 401, title: 'Unauthorized' }, 401);
      return json(url.pathname === '/v1/me' ? { id: 'a1', username: 'alice' } : []);
    }
    return json({ status: 404 }, 404);
  };
  return {
    sent,
    fetchImpl: fetchImpl as typeof fetch,
    tokens: (): OAuthTokens => ({ accessToken: access, refreshToken: refresh, expiresAt: Date.now() + 3600_000, scopes: ['profile:read'] }),
    /** The service forgets the access token (as when it is revoked or expires server-side). */
    dropAccessToken: () => {
      access = 'gone';
    },
    tokenRequests: () => sent.filter((s) => s.url === '/oauth/token'),
  };
}

describe('SDK OAuth helpers', () => {
  it('computes the S256 challenge of RFC 7636, appendix B', async () => {
    expect(await codeChallengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('makes a fresh 43-character verifier each time, of the RFC 7636 characters, with its challenge', async () => {
    const a = await createPkce();
    const b = await createPkce();
    expect(a.codeVerifier).toMatch(/^[A-Za-z0-9._~-]{43}$/);
    expect(a.codeVerifier).not.toBe(b.codeVerifier);
    expect(a.codeChallenge).toBe(await codeChallengeOf(a.codeVerifier));
    expect(a.codeChallengeMethod).toBe('S256');
  });

  it('builds the authorization URL from the metadata: code, PKCE S256, state, the exact redirect URI, the scopes', async () => {
    const service = fakeService();
    const pending = await beginOAuthLogin({
      baseUrl: BASE,
      clientId: 'app1',
      redirectUri: 'http://127.0.0.1:5555/cb',
      scopes: ['match:read', 'match:play'],
      fetch: service.fetchImpl,
    });
    const url = new URL(pending.authorizationUrl);
    expect(url.origin + url.pathname).toBe(METADATA.authorization_endpoint);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'app1',
      redirect_uri: 'http://127.0.0.1:5555/cb',
      scope: 'match:read match:play',
      state: pending.state,
      code_challenge: await codeChallengeOf(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
    expect(pending.state.length).toBeGreaterThanOrEqual(20);
    expect(pending.tokenEndpoint).toBe(METADATA.token_endpoint);
    // JSON round trip (a browser app keeps it in sessionStorage)
    expect(JSON.parse(JSON.stringify(pending))).toEqual(pending);
  });

  it('refuses a redirect with another state, another issuer or an error, without exchanging anything', async () => {
    const service = fakeService();
    const pending = await beginOAuthLogin({
      baseUrl: BASE,
      clientId: 'app1',
      redirectUri: 'http://127.0.0.1/cb',
      scopes: ['match:read'],
      fetch: service.fetchImpl,
    });
    const refused = (url: string) =>
      completeOAuthLogin(pending, url, { fetch: service.fetchImpl }).then(
        () => undefined,
        (e: unknown) => e as ScopaError,
      );
    expect(await refused(`http://127.0.0.1/cb?code=c&state=other`)).toMatchObject({ code: 'OAUTH_ERROR', reason: 'state_mismatch' });
    expect(await refused(`http://127.0.0.1/cb?code=c&state=${pending.state}&iss=${encodeURIComponent('https://evil.example')}`)).toMatchObject({
      reason: 'issuer_mismatch',
    });
    expect(await refused(`http://127.0.0.1/cb?error=access_denied&error_description=denied&state=${pending.state}`)).toMatchObject({
      code: 'OAUTH_ERROR',
      reason: 'access_denied',
    });
    expect(service.tokenRequests()).toHaveLength(0);
  });

  it('exchanges the code with the verifier and the redirect URI, then calls the API with the access token', async () => {
    const service = fakeService();
    const pending = await beginOAuthLogin({
      baseUrl: BASE,
      clientId: 'app1',
      redirectUri: 'http://127.0.0.1/cb',
      scopes: ['match:read'],
      fetch: service.fetchImpl,
    });
    const seen: OAuthTokens[] = [];
    const client = await completeOAuthLogin(pending, `http://127.0.0.1/cb?code=the-code&state=${pending.state}&iss=${encodeURIComponent(BASE)}`, {
      fetch: service.fetchImpl,
      onTokens: (t) => void seen.push(t),
    });
    const [exchange] = service.tokenRequests();
    expect(Object.fromEntries(new URLSearchParams(exchange.body))).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: 'http://127.0.0.1/cb',
      code_verifier: pending.codeVerifier,
      client_id: 'app1',
    });
    expect(client.oauthTokens).toMatchObject({ accessToken: 'at-1', refreshToken: 'rt-1', scopes: ['profile:read', 'match:read'] });
    expect(seen.map((t) => t.refreshToken)).toEqual(['rt-1']);
    expect(await client.me()).toEqual({ id: 'a1', username: 'alice' });
    expect(service.sent.at(-1)!.authorization).toBe('Bearer at-1');
  });

  it('sends a confidential client secret with HTTP Basic, not in the form', async () => {
    const service = fakeService();
    const pending = await beginOAuthLogin({
      baseUrl: BASE,
      clientId: 'app 1',
      redirectUri: 'https://app.example/cb',
      scopes: ['match:read'],
      fetch: service.fetchImpl,
    });
    await completeOAuthLogin(pending, `https://app.example/cb?code=c&state=${pending.state}`, { fetch: service.fetchImpl, clientSecret: 's3cr:t' });
    const [exchange] = service.tokenRequests();
    expect(exchange.authorization).toBe(`Basic ${btoa('app%201:s3cr%3At')}`);
    expect(new URLSearchParams(exchange.body).has('client_id')).toBe(false);
  });

  it('refreshes once before expiry, however many requests go at once, and uses the rotated tokens', async () => {
    const service = fakeService();
    const seen: OAuthTokens[] = [];
    const client = new ScopaClient({
      baseUrl: BASE,
      fetch: service.fetchImpl,
      oauth: { clientId: 'app1', tokens: { ...service.tokens(), expiresAt: Date.now() + 10_000 }, onTokens: (t) => void seen.push(t) },
    });
    const results = await Promise.all([client.me(), client.myMatches(), client.me()]);
    expect(results[0].username).toBe('alice');
    expect(service.tokenRequests()).toHaveLength(1);
    expect(new URLSearchParams(service.tokenRequests()[0].body).get('refresh_token')).toBe('rt-0');
    expect(service.sent.filter((s) => s.url.startsWith('/v1/')).map((s) => s.authorization)).toEqual(['Bearer at-1', 'Bearer at-1', 'Bearer at-1']);
    expect(seen.map((t) => t.refreshToken)).toEqual(['rt-1']);
    expect(client.oauthTokens!.expiresAt).toBeGreaterThan(Date.now() + 3000_000);
    // fresh now: no more refreshes
    await client.me();
    expect(service.tokenRequests()).toHaveLength(1);
  });

  it('on a 401 refreshes once and sends the request again, body included', async () => {
    const service = fakeService();
    const client = new ScopaClient({ baseUrl: BASE, fetch: service.fetchImpl, oauth: { clientId: 'app1', tokens: service.tokens() } });
    service.dropAccessToken();
    expect(await client.me()).toEqual({ id: 'a1', username: 'alice' });
    expect(service.tokenRequests()).toHaveLength(1);
    expect(service.sent.filter((s) => s.url === '/v1/me').map((s) => s.authorization)).toEqual(['Bearer at-0', 'Bearer at-1']);
  });

  it('a refused refresh (invalid_grant) forgets the tokens; the 401 stands as UNAUTHENTICATED', async () => {
    const service = fakeService();
    const stale = { ...service.tokens(), refreshToken: 'rt-spent' };
    const client = new ScopaClient({ baseUrl: BASE, fetch: service.fetchImpl, oauth: { clientId: 'app1', tokens: stale } });
    service.dropAccessToken();
    await expect(client.me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    expect(client.oauthTokens).toBeUndefined();
    expect(client.token).toBeUndefined();
    await expect(client.refreshOAuth()).rejects.toMatchObject({ code: 'OAUTH_ERROR', reason: 'invalid_grant' });
  });

  it('a refresh that cannot reach the service before expiry leaves the still valid access token in use', async () => {
    const service = fakeService();
    let tokenEndpointDown = true;
    const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
      if (tokenEndpointDown && new Request(input, init).url.endsWith('/oauth/token')) throw new TypeError('fetch failed');
      return service.fetchImpl(input, init);
    }) as typeof fetch;
    const client = new ScopaClient({
      baseUrl: BASE,
      fetch: fetchImpl,
      oauth: { clientId: 'app1', tokens: { ...service.tokens(), expiresAt: Date.now() + 10_000 } },
    });
    expect((await client.me()).username).toBe('alice');
    expect(service.sent.at(-1)!.authorization).toBe('Bearer at-0');
    tokenEndpointDown = false;
    await client.me();
    expect(service.tokenRequests()).toHaveLength(1);
    expect(service.sent.at(-1)!.authorization).toBe('Bearer at-1');
  });

  it('a request with its own Authorization header is sent as it is', async () => {
    const service = fakeService();
    const client = new ScopaClient({ baseUrl: BASE, fetch: service.fetchImpl, oauth: { clientId: 'app1', tokens: { ...service.tokens(), expiresAt: 0 } } });
    await client.rest.GET('/v1/me', { headers: { authorization: 'Bearer mine' } });
    expect(service.sent.at(-1)!.authorization).toBe('Bearer mine');
    expect(service.tokenRequests()).toHaveLength(0);
  });

  it('the loopback listener takes the redirect on a free port of 127.0.0.1, at its path only', async () => {
    const listener = await listenForOAuthRedirect({ redirectUri: 'http://127.0.0.1/callback' });
    try {
      expect(listener.port).toBeGreaterThan(0);
      expect(listener.redirectUri).toBe(`http://127.0.0.1:${listener.port}/callback`);
      expect((await fetch(`http://127.0.0.1:${listener.port}/other?code=x`)).status).toBe(404);
      const page = await fetch(`${listener.redirectUri}?code=abc&state=s1`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('close this window');
      const url = await listener.redirect;
      expect(url.searchParams.get('code')).toBe('abc');
      expect(url.searchParams.get('state')).toBe('s1');
    } finally {
      await listener.close();
    }
    await expect(fetch(listener.redirectUri)).rejects.toThrow();
  });

  it('the loopback listener gives up after its timeout, and refuses a redirect URI that is not loopback', async () => {
    const listener = await listenForOAuthRedirect({ timeoutMs: 50 });
    await expect(listener.redirect).rejects.toMatchObject({ code: 'OAUTH_ERROR', reason: 'timeout' });
    await listener.close();
    await expect(listenForOAuthRedirect({ redirectUri: 'https://app.example/cb' })).rejects.toThrow(TypeError);
  });
});
