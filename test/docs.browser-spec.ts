/**
 * The /docs site (built by `npm run docs`: the guides from docs/*.md, Redoc for
 * REST from openapi.yaml, TypeDoc for the SDK), in headless Chromium under the
 * service's own headers: the pages render with their scripts running under the
 * strict CSP (no violation, no page error), the play operation is on the REST
 * page, the SDK page documents ScopaClient.play, and the guides are reached
 * from the entry page, the walkthrough first, their links landing on the
 * headings they name. Run with `npm run test:browser`
 * (it builds the docs first). Screenshots go to test-artifacts/.
 */
import { jest } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { BrowserContext, Page } from 'playwright-core';
import { docsDir } from '../src/docs/docs-site';
import { ARTIFACTS, confineTo, launchChromium } from './support/chromium';
import type { Chromium } from './support/chromium';
import { createTestApp, listenOnLoopback } from './support/app';
import { loadConfig } from '../src/config/config';

jest.setTimeout(300_000);

// page.evaluate runs in the browser; the server's tsconfig has no DOM library.
declare const document: { querySelectorAll(selector: string): { length: number } };

/** Redoc titles the page with the contract's version (openapi.yaml info.version, which follows package.json). */
const API_VERSION = (JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as { version: string }).version;

describe('API reference at /docs (Chromium)', () => {
  let app: INestApplication;
  let base: string;
  let browser: Chromium;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  let offsite: string[] = [];

  beforeAll(async () => {
    if (!existsSync(path.join(docsDir(loadConfig()), 'index.html'))) throw new Error(`no API reference in ${docsDir(loadConfig())}: run npm run docs`);
    app = await createTestApp({ RATE_LIMIT: '100000' });
    base = (await listenOnLoopback(app)).http;
    browser = await launchChromium({ width: 1280, height: 900 });
    context = browser.context;
    page = browser.page;
    page.on('pageerror', (err) => problems.push(`pageerror: ${String(err)}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    // the docs must not reach beyond the service (no CDN: many users are offline)
    offsite = await confineTo(context, base);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `docs-${name}.png`) });

  it('serves the entry page at /docs with the strict CSP', async () => {
    const response = await page.goto(`${base}/docs`);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`${base}/docs/`);
    // the service's CSP, unrelaxed: scripts from this origin only (no inline script, no eval, no CDN)
    const csp = Object.fromEntries(
      (response?.headers()['content-security-policy'] ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['script-src-attr']).toEqual(["'none'"]);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(await page.textContent('h1')).toContain('API reference');
    await shot('index');
  });

  it('renders the REST reference (Redoc) with its scripts running, the play operation on it', async () => {
    problems.length = 0;
    await page.goto(`${base}/docs/`);
    await page.click('a[href="api/"]');
    await page.waitForURL(`${base}/docs/api/`);
    await page.getByText(`Scopa as a service (${API_VERSION})`).first().waitFor({ timeout: 60_000 });
    // Redoc's own script runs (no prerendered shell only): its search finds the play operation
    await page.getByText('Search').first().click();
    const search = page.locator('input[placeholder^="Search"]').first();
    await search.waitFor({ state: 'visible', timeout: 60_000 });
    await search.fill('Play a card');
    await page.getByText('/v1/matches/{id}/plays').first().waitFor({ timeout: 60_000 });
    await shot('api-search');
    await page.keyboard.press('Escape');
    // the operation itself, with its path and the If-Match header
    await page.goto(`${base}/docs/api/#operation/play`);
    await page.getByText('/v1/matches/{id}/plays').first().waitFor({ timeout: 60_000 });
    const text = await page.locator('body').innerText();
    expect(text).toContain('Play a card');
    expect(text).toContain('If-Match');
    await shot('api-play');
    expect(problems).toEqual([]);
    expect(offsite).toEqual([]);
  });

  it('renders the SDK reference (TypeDoc): ScopaClient and its play method', async () => {
    problems.length = 0;
    await page.goto(`${base}/docs/`);
    await page.click('a[href="sdk/"]');
    await page.waitForURL(`${base}/docs/sdk/`);
    await page.getByText('Quick start').first().waitFor();
    await page.click('a[href*="classes/ScopaClient"]');
    await page
      .getByRole('heading', { name: /ScopaClient/ })
      .first()
      .waitFor();
    expect(await page.locator('body').innerText()).toContain('follow');
    expect(await page.evaluate(() => document.querySelectorAll('[id="play"], a[href$="#play"]').length)).toBeGreaterThan(0);
    await shot('sdk-client');
    expect(problems).toEqual([]);
    expect(offsite).toEqual([]);
  });

  it('renders the guides: the walkthrough from the entry page, its links to other guides landing on their headings', async () => {
    problems.length = 0;
    await page.goto(`${base}/docs/`);
    await page.click('a[href="guides/getting-started.html"]');
    await page.waitForURL(`${base}/docs/guides/getting-started.html`);
    expect(await page.textContent('h1')).toBe('Getting started');
    // the walkthrough's commands are there as code, as the guide has them
    expect(await page.locator('pre code').filter({ hasText: 'npm install && npm start' }).count()).toBe(1);
    expect(await page.locator('pre code').filter({ hasText: '/v1/matches/$M/plays' }).count()).toBeGreaterThan(0);
    await shot('guide-getting-started');
    // a link to another guide's heading opens that page at that heading
    await page.click('main a[href="operations.html#environment"]');
    await page.waitForURL(`${base}/docs/guides/operations.html#environment`);
    expect(await page.textContent('h2#environment')).toBe('Environment');
    expect(await page.locator('h2#environment ~ table').first().innerText()).toContain('LOG_LEVEL');
    // every guide is in the navigation
    expect(await page.locator('nav[aria-label="Guides"] li a').count()).toBeGreaterThanOrEqual(16);
    await shot('guide-operations');
    expect(problems).toEqual([]);
    expect(offsite).toEqual([]);
  });
});
