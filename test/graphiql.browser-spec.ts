/**
 * GraphiQL in headless Chromium (Debian's chromium via playwright-core), on a
 * network that reaches only the service: the page renders with no request
 * to another origin and no CSP violation, runs a query the user types, runs
 * an authenticated query with the web client's session (prefilled in the
 * Headers editor), and a subscription over graphql-ws. Run with
 * `npm run test:browser` (it builds graphiql/ first).
 */
import { jest } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { graphiqlDir } from '../src/web/graphiql';
import { ARTIFACTS, confineTo, launchChromium } from './support/chromium';
import type { Chromium } from './support/chromium';
import { createTestApp, listenOnLoopback } from './support/app';
import { register } from './support/clients';
import { loadConfig } from '../src/config/config';

jest.setTimeout(300_000);

declare const document: { querySelector(selector: string): { textContent: string | null } | null };
declare const localStorage: { setItem(key: string, value: string): void };

describe('GraphiQL (Chromium)', () => {
  let app: INestApplication;
  let base: string;
  let browser: Chromium;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  let foreign: string[] = [];

  beforeAll(async () => {
    if (!existsSync(path.join(graphiqlDir(loadConfig()), 'index.html')))
      throw new Error(`no GraphiQL in ${graphiqlDir(loadConfig())}: run npm run build:graphiql`);
    app = await createTestApp({ RATE_LIMIT: '100000' });
    base = (await listenOnLoopback(app)).http;
    browser = await launchChromium({ width: 1400, height: 900 });
    context = browser.context;
    // Only the service is reachable: anything else is recorded and refused.
    foreign = await confineTo(context, base);
    page = browser.page;
    page.on('pageerror', (err) => problems.push(String(err)));
    page.on('console', (msg) => {
      if (msg.type() === 'error' || /Content Security Policy/i.test(msg.text())) problems.push(msg.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `graphiql-${name}.png`) });

  /** Replaces the query editor's text and runs it; returns the result pane's text once it holds `expected`. */
  async function run(query: string, expected: string): Promise<string> {
    const editor = page.locator('.graphiql-query-editor .monaco-editor').first();
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(query);
    await page.click('.graphiql-execute-button');
    await page.waitForFunction((text) => (document.querySelector('.graphiql-response')?.textContent ?? '').includes(text), expected, { timeout: 60_000 });
    return (await page.textContent('.graphiql-response')) ?? '';
  }

  it('renders offline, runs a query, an authenticated query with the session and a subscription', async () => {
    try {
      // the web client's session, as web/src/api.ts keeps it
      const alice = await register(app, 'giql');
      await page.goto(`${base}/graphiql`);
      await page.evaluate(
        ([token, username]) => localStorage.setItem('scopa.session', JSON.stringify({ token, username, expiresAt: Date.now() + 3_600_000 })),
        [alice.token, alice.username],
      );
      await page.reload();
      await page.waitForSelector('.graphiql-query-editor .monaco-editor', { timeout: 120_000 });
      await shot('01-loaded');

      const presets = await run('{ rulesets { id } }', 'scopone-scientifico');
      expect(presets).toContain('"rulesets"');

      const me = await run('{ me { username } }', alice.username);
      expect(me).toContain(alice.username);

      // a subscription over graphql-ws: the log of a match from seq 1, then live
      const created = await request(app.getHttpServer())
        .post('/v1/matches')
        .set('authorization', `Bearer ${alice.token}`)
        .send({ preset: 'scopa', seats: [{ type: 'bot', bot: 'random' }, { type: 'creator' }] });
      expect(created.status).toBe(201);
      const logged = await run(`subscription { matchEventsLive(matchId: "${created.body.id}", fromSeq: 1) { event { seq type } } }`, 'MatchCreated');
      expect(logged).toMatch(/"type":\s*"MatchCreated"/);
      // then live: the start's events reach the open subscription (GraphiQL shows the latest)
      const started = await request(app.getHttpServer()).post(`/v1/matches/${created.body.id}/start`).set('authorization', `Bearer ${alice.token}`).send({});
      expect(started.status).toBe(200);
      await page.waitForFunction(
        () => /MatchStarted|RoundDealt|HandsDealt|CardPlayed/.test(document.querySelector('.graphiql-response')?.textContent ?? ''),
        undefined,
        { timeout: 60_000 },
      );
      await shot('02-subscription');

      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } catch (err) {
      await shot('failure').catch(() => undefined);
      throw new Error(`${(err as Error).message}\nproblems: ${JSON.stringify(problems)}\nforeign requests: ${JSON.stringify(foreign)}`);
    }
  });
});
