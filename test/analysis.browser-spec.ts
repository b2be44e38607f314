/**
 * The post-game analysis in the web client's replay (Chromium): a match
 * against the greedy bot played through the API (always the first legal
 * play, so there are mistakes to find), then in the page: "Analyse this
 * match", the curve of each side with its marks (as many as the API's
 * inaccuracies, mistakes and blunders) and a legend naming each side's line,
 * on the panel's whole width, in words (moves, not seq; no analyzer id), and
 * a click on a mark jumps to that move and shows the option played beside the
 * best one, its cards named. The replay opens on the first deal.
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
import { englishName } from './support/card-names';

jest.setTimeout(600_000);

declare const localStorage: { setItem(key: string, value: string): void };
declare const document: {
  querySelectorAll(selector: string): { length: number };
  querySelector(selector: string): { textContent: string | null } | null;
};

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
      // The replay opens on the first event that shows something: the first deal, its table's cards on the felt.
      const events: { seq: number; type: string }[] = (await http().get(`/v1/matches/${m.id}/events?limit=1000`).set(auth)).body;
      const firstDeal = events.findIndex((e) => e.type === 'RoundDealt') + 1;
      expect(firstDeal).toBeGreaterThan(1);
      await page.waitForFunction((want) => document.querySelector('#step-label')?.textContent === want, `event ${firstDeal} / ${events.length}`);
      expect(await page.textContent('#current-event')).toContain('Round 1 dealt: on the table');
      await page.waitForSelector('#replay-table .card');
      expect(await page.locator('#replay-table .card').count()).toBeGreaterThan(0);
      await page.click('#analyse');
      await page.waitForSelector('#analysis-chart', { timeout: 240_000 });
      await page.screenshot({ path: path.join(ARTIFACTS, 'analysis-01-chart.png'), fullPage: true });

      const analysis = (await http().get(`/v1/matches/${m.id}/analysis`).set(auth)).body;
      expect(analysis.status).toBe('done');
      const marked = analysis.result.decisions.filter((d: { class: string }) => ['inaccuracy', 'mistake', 'blunder'].includes(d.class));
      expect(marked.length).toBeGreaterThan(0);
      expect(await page.locator('#analysis-chart polyline.curve').count()).toBe(2);
      expect(await page.locator('#analysis-chart circle.mark').count()).toBe(marked.length);

      // The legend says which line is which player: one entry per side, in its line's colour and dashes.
      const bot = (await http().get(`/v1/matches/${m.id}`).set(auth)).body.view.seats[1].player;
      expect(await page.locator('#analysis-legend li').allTextContents()).toEqual([`line of ${alice.username} (you)`, `line of ${bot}`]);
      for (const side of [0, 1]) {
        const curve = page.locator(`#analysis-chart polyline.curve[data-side="${side}"]`);
        const key = page.locator(`#analysis-legend li[data-side="${side}"] line`);
        expect(await key.getAttribute('stroke')).toBe(await curve.getAttribute('stroke'));
        expect(await key.getAttribute('stroke-dasharray')).toBe(await curve.getAttribute('stroke-dasharray'));
      }
      // Words, not ids: no "seq", no analyzer id on the page.
      const words = (await page.locator('#main').innerText()) + ' ' + (await page.locator('#analysis-chart').evaluate((el) => el.textContent ?? ''));
      expect(words).not.toMatch(/\bseq\b/i);
      expect(words).not.toContain('ismcts');
      expect(await page.textContent('#analysis .legend')).toContain('Valued by the strong bot’s search');
      // The chart takes the panel's whole width.
      const widths = await page.evaluate(() => {
        const q = (sel: string) => (globalThis as any).document.querySelector(sel);
        const panel = q('#analysis');
        const style = (globalThis as any).getComputedStyle(panel);
        return {
          chart: q('#analysis-chart').getBoundingClientRect().width as number,
          inner: (panel.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)) as number,
        };
      });
      expect(widths.chart).toBeGreaterThanOrEqual(widths.inner - 2);

      // The costliest marked decision: its mark jumps the replay to its seq, where played and best are shown.
      const worst = [...marked].sort((a: { loss: number }, b: { loss: number }) => b.loss - a.loss)[0];
      await page.click(`#analysis-chart circle.mark[data-seq="${worst.seq}"]`);
      await page.waitForFunction((seq) => document.querySelectorAll(`#decision-detail .decision[data-seq="${seq}"]`).length > 0, worst.seq);
      expect(await page.textContent('#step-label')).toContain(`event ${worst.seq} /`);
      const detail = (await page.textContent(`#decision-detail .decision[data-seq="${worst.seq}"][data-kind="${worst.kind}"]`)) ?? '';
      const played = worst.options[worst.played].option;
      const best = worst.options[worst.best].option;
      expect(detail).toContain(worst.class);
      expect(detail).toContain(`played: ${englishName(played.card)}`);
      expect(detail).toContain(`best: ${englishName(best.card)}`);
      // The mark names its move in words.
      expect(await page.getAttribute(`#analysis-chart circle.mark[data-seq="${worst.seq}"]`, 'aria-label')).toMatch(
        /^Move \d+: (inaccuracy|mistake|blunder), lost /,
      );
      await page.screenshot({ path: path.join(ARTIFACTS, 'analysis-02-mark.png'), fullPage: true });
      expect(pageErrors).toEqual([]);
    } catch (err) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'analysis-failure.png'), fullPage: true }).catch(() => undefined);
      throw new Error(`${(err as Error).message}\npage errors: ${JSON.stringify(pageErrors)}`);
    }
  });
});
