/**
 * The OAuth consent page in headless Chromium: a public client (a native
 * app with a loopback redirect, any port) sends the browser to
 * /oauth/authorize; the user, not signed in yet, logs in on the way, sees the
 * app and the scopes on the consent page, approves; the browser lands on the
 * app's redirect URI with the code and the state; the app exchanges the code
 * with its PKCE verifier and calls the API. Then the user revokes the app on
 * the Apps page and the token stops working. Screenshots go to test-artifacts/.
 */
import { jest } from '@jest/globals';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { Page } from 'playwright-core';
import { webClientDir } from '../src/web/web-client';
import { ARTIFACTS, launchChromium } from './support/chromium';
import type { Chromium } from './support/chromium';
import { createTestApp, listenOnLoopback } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { authorizeUrl, form, pkce } from './support/oauth';
import { loadConfig } from '../src/config/config';

jest.setTimeout(300_000);

/** The app's registered redirect; it listens on a port of its own at run time (RFC 8252 loopback). */
const REGISTERED = 'http://127.0.0.1/callback';
/** Access tokens of 40 s: the client refreshes 30 s before the end (web/src/api.ts REFRESH_MARGIN_MS), so 10 s after a login. */
const JWT_TTL = 40;
const savedTtl = process.env.JWT_TTL;

describe('OAuth consent page (Chromium)', () => {
  let app: INestApplication;
  let base: string;
  let browser: Chromium;
  let page: Page;
  let carla: Account;
  let clientId: string;
  const pageErrors: string[] = [];
  /** The native app's loopback listener: the requests the browser brought it. */
  let appServer: Server;
  let appPort: number;
  const landed: URL[] = [];

  const api = (p: string, token: string, init: RequestInit = {}) =>
    fetch(base + p, {
      ...init,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    if (!existsSync(path.join(webClientDir(loadConfig()), 'index.html')))
      throw new Error(`no web client in ${webClientDir(loadConfig())}: run npm run build:web`);
    appServer = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/callback') landed.push(url);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>app: done</h1>');
    });
    await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
    appPort = (appServer.address() as { port: number }).port;
    // Short access tokens: the web client must refresh its session on its own (third test).
    app = await createTestApp({ JWT_TTL: String(JWT_TTL) });
    base = (await listenOnLoopback(app)).http;
    carla = await register(app, 'carla');
    const reg = await api('/v1/oauth/apps', carla.token, { method: 'POST', body: JSON.stringify({ name: 'Carla Bot Deluxe', redirectUris: [REGISTERED] }) });
    clientId = ((await reg.json()) as any).app.id;
    browser = await launchChromium({ width: 1000, height: 800 });
    page = browser.page;
    page.on('pageerror', (err) => pageErrors.push(String(err)));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (savedTtl === undefined) delete process.env.JWT_TTL;
    else process.env.JWT_TTL = savedTtl;
    await new Promise((resolve) => appServer?.close(resolve));
  });

  it('signs in on the way, shows the app and its scopes, approves; the app gets a code, exchanges it and calls the API; revoking on the Apps page ends it', async () => {
    try {
      // No session in this browser yet.
      await page.goto(`${base}/`);
      await page.evaluate(() => (globalThis as any).localStorage.clear());

      const { verifier, challenge } = pkce();
      const state = 'browser-state-42';
      const redirectUri = `http://127.0.0.1:${appPort}/callback`;
      await page.goto(
        authorizeUrl(base, {
          response_type: 'code',
          client_id: clientId,
          redirect_uri: redirectUri,
          scope: 'match:read match:play',
          state,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }),
      );
      // Not signed in: the log-in form, on the consent route.
      await page.waitForSelector('#auth-submit');
      expect(page.url()).toMatch(/#\/oauth\/consent\/[\w-]+$/);
      await page.fill('#username', carla.username);
      await page.fill('#password', `password-of-${carla.username}`);
      await page.click('#auth-submit');

      await page.waitForSelector('#consent-approve');
      expect(await page.textContent('#consent-app')).toBe('Carla Bot Deluxe');
      expect(await page.textContent('#consent-redirect-host')).toBe(`127.0.0.1:${appPort}`);
      expect(await page.locator('#consent-scopes li').evaluateAll((els) => els.map((e) => e.getAttribute('data-scope')))).toEqual(['match:read', 'match:play']);
      await shot('oauth-consent');
      await page.click('#consent-approve');
      await page.waitForURL(`http://127.0.0.1:${appPort}/**`);
      expect(landed).toHaveLength(1);
      const back = landed[0];
      expect(back.pathname).toBe('/callback');
      expect(back.searchParams.get('state')).toBe(state);
      const code = back.searchParams.get('code');
      expect(code).toBeTruthy();

      // The app exchanges the code (PKCE) and acts with the token.
      const tokens = await form(`${base}/oauth/token`, {
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: verifier,
      });
      expect(tokens.status).toBe(200);
      expect(tokens.body.scope).toBe('match:read match:play');
      expect((await api('/v1/matches', tokens.body.access_token)).status).toBe(200);

      // The Apps page lists it; "Revoke access" ends the token.
      await page.goto(`${base}/#/apps`);
      await page.waitForSelector('#authorized-apps tr[data-grant]');
      expect(await page.locator('#authorized-apps tbody tr').first().textContent()).toContain('Carla Bot Deluxe');
      await shot('oauth-apps');
      await page.click('#authorized-apps .revoke-app');
      await page.waitForSelector('p#authorized-apps');
      expect((await api('/v1/matches', tokens.body.access_token)).status).toBe(401);
      expect(pageErrors).toEqual([]);
    } catch (err) {
      await shot('oauth-failure').catch(() => undefined);
      throw new Error(`${(err as Error).message}\npage errors: ${JSON.stringify(pageErrors)}`);
    }
  });

  it('deny sends the app access_denied with its state', async () => {
    landed.length = 0;
    const { challenge } = pkce();
    await page.goto(
      authorizeUrl(base, {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: `http://127.0.0.1:${appPort}/callback`,
        scope: 'profile:read',
        state: 's2',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    await page.waitForSelector('#consent-deny');
    await page.click('#consent-deny');
    await page.waitForURL(`http://127.0.0.1:${appPort}/**`);
    const back = landed[0];
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('s2');
  });

  it('the web client refreshes its session before the access token ends: no password asked again, the old token replaced', async () => {
    const stored = () =>
      page.evaluate(() => JSON.parse((globalThis as any).localStorage.getItem('scopa.session') ?? 'null')) as Promise<{
        token: string;
        refreshToken: string;
        expiresAt: number;
      } | null>;
    await page.goto(`${base}/#/`);
    await page.waitForSelector('#nav-apps');
    const before = await stored();
    expect(before?.refreshToken).toMatch(/^scopa_rt_/);
    const deadline = Date.now() + (JWT_TTL + 10) * 1000;
    let after = before;
    while (after?.refreshToken === before!.refreshToken && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      after = await stored();
    }
    expect(after?.refreshToken).not.toBe(before!.refreshToken);
    expect(after!.expiresAt).toBeGreaterThan(before!.expiresAt);
    expect((await api('/v1/me', after!.token)).status).toBe(200);
    // Still signed in after the first access token's end, without the log-in form.
    await new Promise((r) => setTimeout(r, Math.max(0, before!.expiresAt - Date.now() + 1000)));
    await page.goto(`${base}/#/apps`);
    await page.waitForSelector('#nav-apps');
    await page.waitForSelector('#authorized-apps');
    expect(await page.locator('#auth-submit').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
