/**
 * The SDK's OAuth helpers (`loginWithOAuth`, `beginOAuthLogin` /
 * `completeOAuthLogin`, the loopback redirect listener) against a real
 * instance: a native app logs in through the loopback listener on a free
 * port, a browser-style app through the two steps; the user approves on the
 * consent endpoints (driven as the web client does, with the browser's
 * cookies and the user's session); the client then calls the API with the
 * access token, refreshes it itself before expiry (once, whatever the number
 * of requests at that moment: refresh tokens are single-use) and after a 401,
 * follows a match over graphql-ws, and revokes the grant.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { ScopaClient, ScopaError, beginOAuthLogin, completeOAuthLogin, loginWithOAuth } from '@scopa/sdk';
import type { OAuthTokens } from '@scopa/sdk';
import { createTestApp, listenOnLoopback } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { CookieJar, browse, form } from './support/oauth';

jest.setTimeout(180_000);

const LOOPBACK_REDIRECT = 'http://127.0.0.1/callback';

describe('@scopa/sdk OAuth login against a real instance (e2e)', () => {
  let app: INestApplication;
  let base: string;
  let alice: Account;
  let nativeApp: string;

  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT: '100000' });
    base = (await listenOnLoopback(app)).http;
    alice = await register(app, 'sdkoa');
    const reg = await fetch(`${base}/v1/oauth/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.token}` },
      body: JSON.stringify({ name: 'Native SDK app', redirectUris: [LOOPBACK_REDIRECT] }),
    });
    expect(reg.status).toBe(201);
    nativeApp = ((await reg.json()) as any).app.id;
  });

  afterAll(async () => {
    await app?.close();
  });

  /**
   * The user's browser at the authorization URL: the consent page's calls as
   * the signed-in web client makes them, approve or deny; returns the
   * redirect back to the app (not followed).
   */
  async function consent(authorizationUrl: string, approve = true): Promise<URL> {
    const url = new URL(authorizationUrl);
    expect(url.origin + url.pathname).toBe(`${base}/oauth/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBeTruthy();
    const jar = new CookieJar();
    const first = await browse(jar, authorizationUrl);
    expect(first.status).toBe(303);
    const page = new URL(first.headers.get('location')!, base).toString();
    const details = await browse(jar, `${page}/request`, { headers: { authorization: `Bearer ${alice.token}` } });
    expect(details.status).toBe(200);
    const request = (await details.json()) as any;
    expect(request.app.id).toBe(nativeApp);
    const decided = await browse(jar, page, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ approve }),
    });
    expect(decided.status).toBe(200);
    const back = await browse(jar, ((await decided.json()) as any).redirectTo);
    expect(back.status).toBe(303);
    return new URL(back.headers.get('location')!);
  }

  /** A native app's login through the loopback listener: the "browser" follows the last redirect to it. */
  async function nativeLogin(scopes: string[], onTokens?: (t: OAuthTokens) => void): Promise<{ client: ScopaClient; redirect: URL }> {
    let redirect!: URL;
    const client = await loginWithOAuth({
      baseUrl: base,
      clientId: nativeApp,
      scopes,
      redirectUri: LOOPBACK_REDIRECT,
      onTokens,
      openUrl: async (url) => {
        redirect = await consent(url);
        const landed = await fetch(redirect);
        expect(landed.status).toBe(200);
        expect(await landed.text()).toContain('close this window');
      },
    });
    return { client, redirect };
  }

  it('a native app logs in through the loopback listener (any port), calls the API, plays, follows a match, and revokes', async () => {
    const seen: OAuthTokens[] = [];
    const { client, redirect } = await nativeLogin(['profile:read', 'match:read', 'match:play'], (t) => void seen.push(t));
    expect(redirect.hostname).toBe('127.0.0.1');
    expect(redirect.port).not.toBe('');
    expect(redirect.pathname).toBe('/callback');
    expect(client.oauthTokens).toMatchObject({ scopes: ['profile:read', 'match:read', 'match:play'] });
    expect(client.oauthTokens!.refreshToken).toBeTruthy();
    expect(seen).toHaveLength(1);

    expect((await client.me()).username).toBe(alice.username);
    const match = await client.createMatch({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
    await client.setClientSeed(match.id);
    const started = await client.startMatch(match.id);
    expect(started.status).toBe('playing');
    // graphql-ws with the OAuth access token: the log from seq 1
    const first = await client.follow(match.id, 1, { untilEnd: false }).next();
    expect(first.value).toMatchObject({ event: { seq: 1, type: 'MatchCreated' } });

    // Revoking ends the grant: the access token is refused at once.
    const token = client.token!;
    await client.revokeOAuth();
    expect(client.oauthTokens).toBeUndefined();
    const after = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
  });

  it('refreshes once before expiry however many requests go at once; the rotated refresh token keeps the grant alive', async () => {
    const { client } = await nativeLogin(['profile:read', 'match:read']);
    const tokens = client.oauthTokens!;
    const rotations: OAuthTokens[] = [];
    // The app's stored tokens, restored with an access token about to expire.
    const restored = new ScopaClient({
      baseUrl: base,
      oauth: { clientId: nativeApp, tokens: { ...tokens, expiresAt: Date.now() + 5_000 }, onTokens: (t) => void rotations.push(t) },
    });
    const [me, mine, again] = await Promise.all([restored.me(), restored.myMatches(), restored.me()]);
    expect(me.username).toBe(alice.username);
    expect(again.username).toBe(alice.username);
    expect(Array.isArray(mine)).toBe(true);
    expect(rotations).toHaveLength(1);
    expect(rotations[0].accessToken).not.toBe(tokens.accessToken);
    expect(rotations[0].refreshToken).not.toBe(tokens.refreshToken);
    // The spent refresh token is refused by the service (and the grant would end: not tried here).
    // The new one works: one more refresh, by hand.
    const next = await restored.refreshOAuth();
    expect(next.refreshToken).not.toBe(rotations[0].refreshToken);
    expect((await restored.me()).username).toBe(alice.username);
    expect(rotations).toHaveLength(2);
  });

  it('after a 401 (its access token revoked) the client refreshes and sends the request again', async () => {
    const { client } = await nativeLogin(['profile:read']);
    const before = client.oauthTokens!;
    // RFC 7009: the app revokes its access token only; the grant and the refresh token remain.
    const revoked = await form(`${base}/oauth/revoke`, { token: before.accessToken, token_type_hint: 'access_token', client_id: nativeApp });
    expect(revoked.status).toBe(200);
    expect((await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${before.accessToken}` } })).status).toBe(401);

    expect((await client.me()).username).toBe(alice.username);
    expect(client.oauthTokens!.accessToken).not.toBe(before.accessToken);
    expect(client.oauthTokens!.refreshToken).not.toBe(before.refreshToken);
  });

  it('follow() whose access token was revoked: the socket is refused (4403), the client refreshes and follows', async () => {
    const { client } = await nativeLogin(['match:read', 'match:play']);
    const match = await client.createMatch({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
    const before = client.oauthTokens!;
    const revoked = await form(`${base}/oauth/revoke`, { token: before.accessToken, token_type_hint: 'access_token', client_id: nativeApp });
    expect(revoked.status).toBe(200);
    const first = await client.follow(match.id, 1, { untilEnd: false, maxReconnects: 0 }).next();
    expect(first.value).toMatchObject({ event: { seq: 1, type: 'MatchCreated' } });
    expect(client.oauthTokens!.accessToken).not.toBe(before.accessToken);
  });

  it('a reused refresh token ends the grant: the client that held it gets UNAUTHENTICATED and forgets its tokens', async () => {
    const { client } = await nativeLogin(['profile:read']);
    const spent = client.oauthTokens!.refreshToken!;
    await client.refreshOAuth();
    // someone replays the spent refresh token: the service revokes the whole grant
    const replay = await form(`${base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: spent, client_id: nativeApp });
    expect(replay.body.error).toBe('invalid_grant');
    const refused = await client.me().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ScopaError);
    expect(refused).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    expect(client.oauthTokens).toBeUndefined();
  });

  it('a browser-style app: begin, redirect back, complete; a forged state or a denial is refused', async () => {
    const pending = await beginOAuthLogin({ baseUrl: base, clientId: nativeApp, redirectUri: 'http://127.0.0.1:8123/callback', scopes: ['match:read'] });
    const stored = JSON.parse(JSON.stringify(pending)); // e.g. sessionStorage across the redirect
    const back = await consent(pending.authorizationUrl);
    expect(back.origin + back.pathname).toBe('http://127.0.0.1:8123/callback');
    // a redirect answering another login (forged state): refused before any exchange, the code stays usable
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged');
    await expect(completeOAuthLogin(stored, forged)).rejects.toMatchObject({ code: 'OAUTH_ERROR', reason: 'state_mismatch' });
    const client = await completeOAuthLogin(stored, back);
    expect(client.oauthTokens!.scopes).toEqual(['match:read']);
    expect(Array.isArray(await client.myMatches())).toBe(true);
    // the code is single-use
    await expect(completeOAuthLogin(stored, back)).rejects.toMatchObject({ code: 'OAUTH_ERROR', reason: 'invalid_grant' });

    const denied = await beginOAuthLogin({ baseUrl: base, clientId: nativeApp, redirectUri: LOOPBACK_REDIRECT, scopes: ['match:read'] });
    const deniedBack = await consent(denied.authorizationUrl, false);
    await expect(completeOAuthLogin(denied, deniedBack)).rejects.toMatchObject({ code: 'OAUTH_ERROR', reason: 'access_denied' });
  });
});
