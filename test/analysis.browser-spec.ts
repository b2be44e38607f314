/**
 * The post-game analysis in the web client's replay (Chromium): a match
 * against the greedy bot played through the API (always the first legal
 * play, so there are mistakes to find), then in the page: "Analyse this
 * match", the curve of each side with its marks (as many as the API's
 * inaccuracies, mistakes and blunders), and a click on a mark jumps to that
 * seq and shows the option played beside the best one.
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
import { loadConfig } from '../src/config/config';

jest.setTimeout(600_000);

declare const localStorage: { setItem(key: string, value: string): void };
declare const document: { querySelectorAll(selector: string): { length: number } };

describe('post-game analysis in the replay (Chromium)', () => {
  let app: INestApplication;
  let base: string;
  let browser: Chromium;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(path.join(webClientDir(loadConfig()), 'index.html')))
      throw new Error(`no web client in ${webClientDir(loadConfig())}: run npm run build:web`);
    app = await createTestApp({ RATE_LIMIT: '100000', ANALYSIS_ITERATIONS: '16', ANALYSIS_POLL_SECONDS: '0.5' });
    base = (await listenOnLoopback(app)).http;
    browser = await launchChromium({ width: 1200, height: 1000 });
    page = browser.page;
    page.on('pageerror', (err) => pageErrors.push(String(err)));
  });
  afterAll(async () => {
    for (const k of ['ANALYSIS_ITERATIONS', 'ANALYSIS_POLL_SECONDS']) delete process.env[k];
    await browser?.close();
    await app?.close();
  });

  it('asks for the analysis, draws each side’s curve with its marks, and a mark jumps to its seq with best against played', async () => {
    const http = () => request(app.getHttpServer());
    const alice = await register(app, 'brana');
    const auth = { authorization: `Bearer ${alice.token}` };
    const m = (
      await http()
        .post('/v1/matches')
        .set(auth)
        .send({ preset: 'scopa', overrides: { target: 1 }, seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] })
    ).body;
    expect((await http().post(`/v1/matches/${m.id}/start`).set(auth).send({})).status).toBe(200);
    for (let n = 0; n < 2000; n++) {
      const legal = (await http().get(`/v1/matches/${m.id}/legal-plays`).set(auth)).body;
      if (legal.plays?.length) {
        await http().post(`/v1/matches/${m.id}/plays`).set(auth).send({ card: legal.plays[0].card, capture: legal.plays[0].capture, expectedSeq: legal.seq });
        continue;
      }
      if ((await http().get(`/v1/matches/${m.id}`).set(auth)).body.status === 'over') break;
      await new Promise((r) => setTimeout(r, 100)); // the bot's turn
    }

    try {
      await page.goto(`${base}/`);
      await page.evaluate(
        ([token, username]) => localStorage.setItem('scopa.session', JSON.stringify({ token, username, expiresAt: Date.now() + 3_600_000 })),
        [alice.token, alice.username],
      );
      await page.goto(`${base}/#/replay/${m.id}`);
      await page.reload(); // the client reads its stored session when it loads
      await page.waitForSelector('#analyse', { timeout: 60_000 });
      await page.click('#analyse');
      await page.waitForSelector('#analysis-chart', { timeout: 240_000 });
      await page.screenshot({ path: path.join(ARTIFACTS, 'analysis-01-chart.png'), fullPage: true });

      const analysis = (await http().get(`/v1/matches/${m.id}/analysis`).set(auth)).body;
      expect(analysis.status).toBe('done');
      const marked = analysis.result.decisions.filter((d: { class: string }) => ['inaccuracy', 'mistake', 'blunder'].includes(d.class));
      expect(marked.length).toBeGreaterThan(0);
      expect(await page.locator('#analysis-chart polyline.curve').count()).toBe(2);
      expect(await page.locator('#analysis-chart circle.mark').count()).toBe(marked.length);

      // The costliest marked decision: its mark jumps the replay to its seq, where played and best are shown.
      const worst = [...marked].sort((a: { loss: number }, b: { loss: number }) => b.loss - a.loss)[0];
      await page.click(`#analysis-chart circle.mark[data-seq="${worst.seq}"]`);
      await page.waitForFunction((seq) => document.querySelectorAll(`#decision-detail .decision[data-seq="${seq}"]`).length > 0, worst.seq);
      expect(await page.textContent('#step-label')).toContain(`event ${worst.seq} /`);
      const detail = (await page.textContent(`#decision-detail .decision[data-seq="${worst.seq}"][data-kind="${worst.kind}"]`)) ?? '';
      const played = worst.options[worst.played].option;
      const best = worst.options[worst.best].option;
      expect(detail).toContain(worst.class);
      expect(detail).toContain(`played: ${played.card}`);
      expect(detail).toContain(`best: ${best.card}`);
      await page.screenshot({ path: path.join(ARTIFACTS, 'analysis-02-mark.png'), fullPage: true });
      expect(pageErrors).toEqual([]);
    } catch (err) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'analysis-failure.png'), fullPage: true }).catch(() => undefined);
      throw new Error(`${(err as Error).message}\npage errors: ${JSON.stringify(pageErrors)}`);
    }
  });
});
