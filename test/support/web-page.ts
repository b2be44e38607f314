/**
 * The page setup the web client's browser suites share: one service
 * (createTestApp) listening on loopback, one headless Chromium tab on it,
 * every page error and console error kept, screenshots into test-artifacts/,
 * and a scenario wrapper that screenshots the page and names the page errors
 * when it fails. Call `useWebClientPage()` inside a `describe`: it registers
 * the beforeAll/afterAll that start and stop both; its fields are set once
 * beforeAll has run.
 */
import { afterAll, beforeAll } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { Page } from 'playwright-core';
import { webClientDir } from '../../src/web/web-client';
import { createTestApp, listenOnLoopback } from './app';
import { ARTIFACTS, launchChromium } from './chromium';
import type { Chromium } from './chromium';
import { loadConfig } from '../../src/config/config';

export interface WebClientPage {
  readonly app: INestApplication;
  /** The service's origin, e.g. http://127.0.0.1:PORT. */
  readonly base: string;
  readonly page: Page;
  /** Uncaught page errors and console errors, in order. */
  readonly pageErrors: string[];
  /** A full-page screenshot, test-artifacts/<prefix><name>.png. */
  shot(name: string): Promise<void>;
  /** Runs a scenario; on failure, a `failure` screenshot and the page errors join the error. */
  guarded(scenario: () => Promise<void>): Promise<void>;
  /** The bearer token of the session the browser keeps (localStorage `scopa.session`), for calls the test makes itself. */
  sessionToken(): Promise<string>;
}

export interface WebClientPageOptions {
  /** Service settings beside the suites' defaults (RATE_LIMIT 100000, CLIENT_SEED_WINDOW 60 s). */
  env?: Record<string, string>;
  /** Prefix of the screenshots' file names. */
  shotPrefix?: string;
  viewport?: { width: number; height: number };
}

// The function given to page.evaluate runs in the browser; the server's tsconfig has no DOM library.
declare const localStorage: { getItem(key: string): string | null };
declare const document: { querySelector(selector: string): unknown };

export function useWebClientPage(options: WebClientPageOptions = {}): WebClientPage {
  let app: INestApplication;
  let base: string;
  let browser: Chromium;
  const pageErrors: string[] = [];
  const prefix = options.shotPrefix ?? '';

  beforeAll(async () => {
    if (!existsSync(path.join(webClientDir(loadConfig()), 'index.html')))
      throw new Error(`no web client in ${webClientDir(loadConfig())}: run npm run build:web`);
    // CLIENT_SEED_WINDOW is 60 s: had the client given no seed, a start would wait that long.
    app = await createTestApp({ RATE_LIMIT: '100000', CLIENT_SEED_WINDOW: '60', ...options.env });
    base = (await listenOnLoopback(app)).http;
    browser = await launchChromium(options.viewport ?? { width: 1200, height: 900 });
    browser.page.on('pageerror', (err) => pageErrors.push(String(err)));
    browser.page.on('console', (msg) => {
      if (msg.type() === 'error') pageErrors.push(msg.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const shot = async (name: string): Promise<void> => {
    await browser.page.screenshot({ path: path.join(ARTIFACTS, `${prefix}${name}.png`), fullPage: true });
  };

  return {
    get app() {
      return app;
    },
    get base() {
      return base;
    },
    get page() {
      return browser.page;
    },
    pageErrors,
    shot,
    async guarded(scenario) {
      try {
        await scenario();
      } catch (err) {
        await shot('failure').catch(() => undefined);
        throw new Error(`${(err as Error).message}\npage errors: ${JSON.stringify(pageErrors)}`);
      }
    },
    async sessionToken() {
      const stored = await browser.page.evaluate(() => localStorage.getItem('scopa.session'));
      if (!stored) throw new Error('the browser keeps no session');
      return (JSON.parse(stored) as { token: string }).token;
    },
  };
}

/** Waits for the client's answer to the card `code` played: it left the hand, or a capture choice, the round's summary or an error came up. */
export async function playAnswered(page: Page, code: string | null): Promise<void> {
  await page.waitForFunction(
    (c) =>
      !document.querySelector(`#my-hand .card[data-card="${c}"]`) ||
      !!document.querySelector('#capture-choice') ||
      !!document.querySelector('#round-summary') ||
      !!document.querySelector('#error:not([hidden])'),
    code,
  );
}

/**
 * Clicks the first card of the hand that `selector` finds and waits for the
 * client's answer: the card left the hand (the play went through), or a
 * capture choice, the round's summary or an error came up. Returns the card's code.
 */
export async function clickCard(page: Page, selector = '#my-hand .card.legal'): Promise<string | null> {
  const card = page.locator(selector).first();
  const code = await card.getAttribute('data-card');
  await card.click();
  await playAnswered(page, code);
  return code;
}

/**
 * The page's language from its next load on, as a player who picks it: kept on this device, and for the signed-in
 * account too (PATCH /v1/account `language`), whose language a signed-in page takes over the device's.
 */
export async function useLanguage(page: Page, language: string): Promise<void> {
  await page.evaluate(async (lang) => {
    const store = (globalThis as any).localStorage;
    store.setItem('scopa.language', lang);
    const session = store.getItem('scopa.session') as string | null;
    if (!session) return;
    const response = await fetch('/v1/account', {
      method: 'PATCH',
      headers: { authorization: `Bearer ${(JSON.parse(session) as { token: string }).token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ language: lang }),
    });
    if (!response.ok) throw new Error(`PATCH /v1/account: ${response.status}`);
  }, language);
}

/**
 * Drops what this browser keeps for the service (session, language): cleared on a page of the same origin that does
 * not run the client, since a client still running with the old session could store it again (its account's
 * language, a refreshed token) after the clear. The next page loaded starts signed out, in the browser's language.
 */
export async function clearBrowserStorage(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/manifest.webmanifest`);
  await page.evaluate(() => (globalThis as any).localStorage.clear());
}
