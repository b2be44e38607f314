/**
 * The web client's lobby page in headless Chromium (Debian's `chromium`
 * driven by playwright-core): a player sees a challenge made to them appear,
 * accepts it by clicking and lands on the started match with a hand;
 * declines another (the challenger's list shows the answer); challenges
 * someone from the form and sees the acceptance with a link to the match.
 * The open-matches list and "play someone" work against a server without
 * the lobby (a 404 is said plainly) as with it. Run with `npm run test:browser`.
 */
import { jest } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { webClientDir } from '../src/web/web-client';
import { ARTIFACTS, launchChromium } from './support/chromium';
import type { Chromium } from './support/chromium';
import { createTestApp, listenOnLoopback } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { loadConfig } from '../src/config/config';

jest.setTimeout(300_000);

describe('lobby page (Chromium)', () => {
  let app: INestApplication;
  let base: string;
  let browser: Chromium;
  let page: Page;
  const pageErrors: string[] = [];
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;
  const shot = async (name: string): Promise<void> => {
    await page.screenshot({ path: path.join(ARTIFACTS, `lobby-${name}.png`), fullPage: true });
  };

  beforeAll(async () => {
    if (!existsSync(path.join(webClientDir(loadConfig()), 'index.html')))
      throw new Error(`no web client in ${webClientDir(loadConfig())}: run npm run build:web`);
    app = await createTestApp({ RATE_LIMIT: '100000' });
    base = (await listenOnLoopback(app)).http;
    browser = await launchChromium({ width: 1200, height: 900 });
    page = browser.page;
    page.on('pageerror', (err) => pageErrors.push(String(err)));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('accepts and declines incoming challenges, challenges a player, and copes with a server without the lobby', async () => {
    try {
      await scenario();
    } catch (err) {
      await shot('failure').catch(() => undefined);
      throw new Error(`${(err as Error).message}\npage errors: ${JSON.stringify(pageErrors)}`);
    }
  });

  async function scenario(): Promise<void> {
    const alice = await register(app, 'lka');
    const dora = await register(app, 'lkd');
    // bob signs up in the browser and opens the lobby.
    const bobName = `lkb${process.pid % 1000}${Date.now() % 10000}`;
    await page.goto(`${base}/`);
    await page.click('#tab-register');
    await page.fill('#username', bobName);
    await page.fill('#password', `${bobName} password`);
    await page.click('#auth-submit');
    await page.waitForSelector('#nav-lobby');
    await page.click('#nav-lobby');
    await page.waitForSelector('#lobby');
    // The open matches: a list, or (this server has no lobby) a plain note; never an error banner.
    await page.waitForSelector('#lobby-open table, #lobby-open p:not(:has-text("Loading"))');
    expect(await page.isVisible('#error:not([hidden])')).toBe(false);
    await page.waitForSelector('#challenges-in p:has-text("No challenge for you")');

    // alice challenges bob: it shows up within a refresh; bob accepts by clicking and lands on the match.
    const c1 = (await http().post('/v1/challenges').set('authorization', auth(alice)).send({ username: bobName, preset: 'scopa', turnTimeLimit: 'P1D' })).body;
    await page.waitForSelector(`li.challenge-in[data-challenge="${c1.id}"]`, { timeout: 15_000 });
    expect(await page.textContent(`li.challenge-in[data-challenge="${c1.id}"]`)).toContain(alice.username);
    await shot('01-incoming');
    await page.click(`li.challenge-in[data-challenge="${c1.id}"] button.accept`);
    await page.waitForSelector('#my-hand');
    expect(page.url()).toContain('#/match/');
    const matchId = decodeURIComponent(page.url().split('#/match/')[1]);
    const m = (await http().get(`/v1/matches/${matchId}`).set('authorization', auth(alice))).body;
    expect(m.status).toBe('playing');
    expect(m.view.seats.map((s: { player: string }) => s.player).sort()).toEqual([alice.username, bobName].sort());
    await shot('02-accepted-match');

    // dora challenges bob; bob declines by clicking: her challenge is declined, no match made.
    await page.click('#nav-lobby');
    const c2 = (await http().post('/v1/challenges').set('authorization', auth(dora)).send({ username: bobName, preset: 'scopa' })).body;
    await page.waitForSelector(`li.challenge-in[data-challenge="${c2.id}"]`, { timeout: 15_000 });
    await page.click(`li.challenge-in[data-challenge="${c2.id}"] button.decline`);
    await page.waitForSelector(`li.challenge-in[data-challenge="${c2.id}"]`, { state: 'detached' });
    expect((await http().get(`/v1/challenges/${c2.id}`).set('authorization', auth(dora))).body).toMatchObject({ status: 'declined', matchId: null });

    // bob challenges dora from the form; she accepts; bob's page says so with a link to the match.
    await page.fill('#challenge-user', dora.username);
    await page.selectOption('#challenge-limit', 'P2D');
    await page.click('#challenge-submit');
    await page.waitForSelector('li.challenge-out');
    const mine = (await http().get('/v1/challenges').set('authorization', auth(dora))).body;
    expect(mine.in).toHaveLength(1);
    expect(mine.in[0]).toMatchObject({ challenger: bobName, turnTimeLimit: 'P2D' });
    const accepted = (await http().post(`/v1/challenges/${mine.in[0].id}/accept`).set('authorization', auth(dora))).body;
    await page.waitForSelector(`#challenge-answers li.accepted a[href="#/match/${accepted.matchId}"]`, { timeout: 15_000 });
    await shot('03-answer');

    // "Play someone": a seek, or (no seeks on this server) a plain note; no error banner either way.
    await page.click('#seek-submit');
    await page.waitForFunction(() => (document.querySelector('#seek-status')?.textContent ?? '').length > 0 || location.hash.startsWith('#/match/'));
    expect(await page.isVisible('#error:not([hidden])')).toBe(false);
    expect(pageErrors).toEqual([]);
  }
});

declare const document: { querySelector(selector: string): { textContent: string | null } | null };
declare const location: { hash: string };
