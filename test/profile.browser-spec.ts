/**
 * The web client's profile page, end to end in headless Chromium: two
 * accounts play rated matches through the API (resigning right after the
 * start: every result counts), then the page shows both ratings moved, a
 * chart with one point per rated match, the pool's leaderboard, the
 * head-to-head record, and the match list, each match opening the replay.
 *
 * The match list comes from `GET /v1/users/{username}/matches` (the archives
 * part of #16). When the service answers it, the list is checked against it;
 * otherwise the page must say "Match list unavailable". A second test serves
 * that endpoint's documented JSON shape from the browser's side (real match
 * ids, so the replay they open is real), to check the list and its paging
 * whatever the service has. Screenshots go to test-artifacts/.
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
import { playOneCardEach } from './support/play';
import { clearBrowserStorage } from './support/web-page';
import type { Account } from './support/clients';
import { loadConfig } from '../src/config/config';

jest.setTimeout(600_000);

/** Rated scopa matches between the two accounts: enough for RD to fall to 110 or below (established: on the leaderboard). */
const RATED = 16;
/** The client's page size (web/src/profile.ts MATCH_PAGE). */
const PAGE = 10;

interface Played {
  id: string;
  pool: string;
  rated: boolean;
  /** Seat 0 creates, seat 1 joins. */
  seats: [string, string];
  loser: string;
  createdAt: string;
  endedAt: string;
}

describe('profile page (Chromium)', () => {
  let app: INestApplication;
  let base: string;
  let browser: Chromium;
  let page: Page;
  let dora: Account;
  let enzo: Account;
  const played: Played[] = [];
  const pageErrors: string[] = [];

  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;
  const shot = async (name: string): Promise<void> => {
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  };

  /** A match the first creates with a seat kept for the second, started, then resigned by `loser`. */
  async function play(creator: Account, other: Account, loser: Account, pool: string, rated: boolean): Promise<void> {
    const created = await http()
      .post('/v1/matches')
      .set('authorization', auth(creator))
      .send({ preset: pool, rated, seats: [{ type: 'creator' }, { type: 'reserved', username: other.username }] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await http().post(`/v1/matches/${id}/join`).set('authorization', auth(other)).send({})).status).toBe(200);
    expect((await http().post(`/v1/matches/${id}/start`).set('authorization', auth(creator)).send({})).status).toBe(200);
    // A rated match counts once every side has played a card (docs/ratings.md); leaving before that is an abort.
    if (rated) await playOneCardEach(app, [creator, other], id);
    expect((await http().post(`/v1/matches/${id}/resign`).set('authorization', auth(loser)).send({})).status).toBe(200);
    const events = (await http().get(`/v1/matches/${id}/events?limit=1000`).set('authorization', auth(creator))).body as { type: string; time: string }[];
    played.push({
      id,
      pool,
      rated,
      seats: [creator.username, other.username],
      loser: loser.username,
      createdAt: events[0].time,
      endedAt: events.find((e) => e.type === 'MatchEnded')!.time,
    });
  }

  /** The profile once every rated match of the player is recorded (the recorder runs right after each end). */
  async function profileWhenRecorded(a: Account, games: number): Promise<any> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await http().get(`/v1/users/${a.username}`);
      expect(res.status).toBe(200);
      const total = (res.body.ratings as { games: number }[]).reduce((n, r) => n + r.games, 0);
      if (total === games) return res.body;
      if (Date.now() > deadline) throw new Error(`${a.username}: ${total} rated games recorded, expected ${games}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    if (!existsSync(path.join(webClientDir(loadConfig()), 'index.html')))
      throw new Error(`no web client in ${webClientDir(loadConfig())}: run npm run build:web`);
    app = await createTestApp({ RATE_LIMIT: '100000' });
    base = (await listenOnLoopback(app)).http;
    [dora, enzo] = [await register(app, 'dora'), await register(app, 'enzo')];
    // Creators alternate; enzo resigns one match in three, dora the others.
    for (let i = 0; i < RATED; i++) {
      const [a, b] = i % 2 ? [enzo, dora] : [dora, enzo];
      await play(a, b, i % 3 === 0 ? enzo : dora, 'scopa', true);
    }
    await play(enzo, dora, dora, 're-bello', true); // a second pool, one match
    await play(dora, enzo, enzo, 'scopa', false); // unrated: listed, never charted
    browser = await launchChromium({ width: 1200, height: 900 });
    page = browser.page;
    page.on('pageerror', (err) => pageErrors.push(String(err)));
    page.on('console', (msg) => {
      if (msg.type() === 'error') pageErrors.push(msg.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** Runs a scenario; on failure keeps a screenshot and the page's errors. */
  async function scenario(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (err) {
      await shot(`profile-failure-${name}`).catch(() => undefined);
      throw new Error(`${(err as Error).message}\npage errors: ${JSON.stringify(pageErrors)}`);
    }
  }

  const texts = (selector: string) => page.locator(selector).allTextContents();
  const attrs = (selector: string, name: string) => page.locator(selector).evaluateAll((els, n) => els.map((e) => e.getAttribute(n as string)), name);

  /** Signs in through the log-in form (after dropping any session the browser kept). */
  async function logIn(a: Account): Promise<void> {
    await clearBrowserStorage(page, base);
    await page.goto(`${base}/`);
    await page.fill('#username', a.username);
    await page.fill('#password', `password-of-${a.username}`);
    await page.click('#auth-submit');
    await page.waitForSelector('#nav-profile');
  }

  /** My result in a played match, from `who`'s side. */
  const resultOf = (m: Played, who: string) => (m.loser === who ? 'lost' : 'won');
  /** The totals the mocked archive gives a match (the winner 11, the loser 4), in seat order as the service lists them. */
  const totalsOf = (m: Played) => m.seats.map((player) => (player === m.loser ? 4 : 11));

  it('shows ratings, the chart, the leaderboard, the head-to-head record and the match list', () =>
    scenario('main', async () => {
      const doraApi = await profileWhenRecorded(dora, RATED + 1);
      const enzoApi = await profileWhenRecorded(enzo, RATED + 1);
      const doraScopa = doraApi.ratings.find((r: any) => r.ruleset === 'scopa');
      const enzoScopa = enzoApi.ratings.find((r: any) => r.ruleset === 'scopa');
      expect(doraScopa.games).toBe(RATED);
      expect(doraScopa.rating).not.toBe(1500);
      expect(enzoScopa.rating).not.toBe(1500);
      const leaderboard = (await http().get('/v1/leaderboard/scopa?limit=20')).body as { username: string }[];
      // Both are established after RATED matches: the board lists them both.
      expect(leaderboard.map((e) => e.username).sort()).toEqual([dora.username, enzo.username].sort());

      // ---- log in as dora, open "My profile"
      await logIn(dora);
      // Names in the inbox link to profiles.
      await page.waitForSelector('table.inbox');
      expect(await page.locator(`table.inbox a.player[data-player="${enzo.username}"]`).first().getAttribute('href')).toBe(`#/users/${enzo.username}`);
      await page.click('#nav-profile');
      await page.waitForSelector(`#profile[data-user="${dora.username}"]`);
      await page.waitForSelector('#rating-chart');
      await page.waitForSelector('#leaderboard, #leaderboard-empty');
      await page.waitForSelector('#match-list, #matches-unavailable');

      // ---- ratings per pool: the rating moved, games, W/L/D; provisional marked in text
      const row = page.locator('#ratings tr[data-pool="scopa"]');
      expect(await row.locator('.rating').textContent()).toBe(`${Math.round(doraScopa.rating)}${doraScopa.provisional ? '?' : ''}`);
      expect(await row.locator('.games').textContent()).toBe(String(RATED));
      const doraLosses = played.filter((m) => m.rated && m.pool === 'scopa' && m.loser === dora.username).length;
      expect(await row.textContent()).toContain(doraScopa.provisional ? 'provisional' : 'established');
      expect((await row.locator('td').allTextContents()).slice(4, 7)).toEqual([String(RATED - doraLosses), String(doraLosses), '0']);
      expect(await page.locator('#ratings tr[data-pool="re-bello"] .rating').textContent()).toMatch(/^\d+\?$/);
      expect(await page.textContent('#profile-summary')).toContain('Member since');

      // ---- the chart: one point per rated match of the pool, the line through them from the start
      const history = (await http().get(`/v1/users/${dora.username}/rating-history?ruleset=scopa`)).body as { matchId: string; result: string }[];
      expect(history).toHaveLength(RATED);
      expect(await page.locator('#rating-chart .point').count()).toBe(RATED);
      expect(await attrs('#rating-chart .point', 'data-match')).toEqual(history.map((p) => p.matchId));
      expect(await attrs('#rating-chart .point', 'data-result')).toEqual(history.map((p) => p.result));
      const polyline = await page.locator('#rating-chart .rating-line').getAttribute('points');
      expect(polyline!.trim().split(/\s+/)).toHaveLength(RATED + 1);
      expect(await page.locator('#rating-chart .rd-band').count()).toBe(1);
      const label = await page.locator('#rating-chart').getAttribute('aria-label');
      expect(label).toContain(`over ${RATED} rated matches`);
      expect(label).toContain(`to ${Math.round(doraScopa.rating)}`);
      expect(await page.locator('#rating-chart > title').textContent()).toBe(label);
      expect(await page.locator('#rating-chart').getAttribute('role')).toBe('img');

      // ---- the leaderboard of the pool, as the API ranks it, each name linking to a profile
      expect(await attrs('#leaderboard tbody tr', 'data-player')).toEqual(leaderboard.map((e) => e.username));
      expect(await attrs('#leaderboard tbody a.player', 'href')).toEqual(leaderboard.map((e) => `#/users/${e.username}`));
      expect(await page.locator('#leaderboard caption').textContent()).toContain('scopa');
      // My own profile: no head-to-head with myself.
      await page.waitForSelector('#h2h-self');
      await shot('profile-01-mine');

      // ---- the match list: from the service when it has the endpoint, else a clear notice
      const probe = await http().get(`/v1/users/${dora.username}/matches?max=1`).set('authorization', auth(dora)).set('accept', 'application/json');
      if (probe.status === 200) {
        // eslint-disable-next-line no-console
        console.log('profile page: GET /v1/users/{u}/matches answered 200: the match list is checked against the service');
        const newestFirst = [...played].sort((a, b) => b.endedAt.localeCompare(a.endedAt) || b.id.localeCompare(a.id));
        expect(await attrs('#match-list tbody tr', 'data-match')).toEqual(newestFirst.slice(0, PAGE).map((m) => m.id));
        await page.click('#more-matches');
        await page.waitForFunction((n) => (globalThis as any).document.querySelectorAll('#match-list tbody tr').length === n, played.length);
        expect(await attrs('#match-list tbody tr', 'data-match')).toEqual(newestFirst.map((m) => m.id));
        expect(await page.locator('#more-matches').count()).toBe(0);
        const outcomes = await texts('#match-list tbody td.outcome');
        expect(outcomes.map((t) => t.split(' ')[0])).toEqual(newestFirst.map((m) => resultOf(m, dora.username)));
        await shot('profile-02-match-list');
        // A click on a row opens that match in the replay viewer.
        const target = newestFirst[3];
        await page.locator(`#match-list tr[data-match="${target.id}"] td.outcome`).click();
        await page.waitForSelector('#audit-verdict');
        expect(page.url()).toContain(`#/replay/${target.id}`);
        expect(await page.textContent('#audit-verdict')).toContain('sound');
        await page.goBack();
      } else {
        // eslint-disable-next-line no-console
        console.log(`profile page: GET /v1/users/{u}/matches answered ${probe.status}: the page must say the match list is unavailable`);
        expect(await page.textContent('#matches-unavailable')).toContain('Match list unavailable');
        expect(await page.locator('#matches-unavailable').getAttribute('role')).toBe('status');
        // The rest of the page works regardless, and no error banner hides it.
        expect(await page.locator('#error').isHidden()).toBe(true);
      }

      // ---- the pool select: the chart and leaderboard of another pool
      await page.waitForSelector(`#profile[data-user="${dora.username}"] #rating-chart`);
      expect(await page.locator('#pool option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value))).toEqual(['scopa', 're-bello']);
      await page.selectOption('#pool', 're-bello');
      await page.waitForFunction(() => (globalThis as any).document.querySelector('#rating-chart')?.getAttribute('data-points') === '1');
      expect(await page.locator('#rating-chart .point').count()).toBe(1);
      expect(await page.locator('#rating-chart .point').getAttribute('data-result')).toBe('loss');
      await page.waitForSelector('#leaderboard-empty');
      expect(await page.textContent('#leaderboard-empty')).toContain('re-bello');
      await page.selectOption('#pool', 'scopa');
      await page.waitForFunction((n) => (globalThis as any).document.querySelector('#rating-chart')?.getAttribute('data-points') === String(n), RATED);
      await page.waitForSelector('#leaderboard');

      // ---- another player's profile, from the leaderboard: their rating moved, and the head-to-head
      await page.click(`#leaderboard a.player[data-player="${enzo.username}"]`);
      await page.waitForSelector(`#profile[data-user="${enzo.username}"] #crosstable`);
      expect(await page.locator('#ratings tr[data-pool="scopa"] .rating').textContent()).toBe(
        `${Math.round(enzoScopa.rating)}${enzoScopa.provisional ? '?' : ''}`,
      );
      expect(Math.round(enzoScopa.rating)).not.toBe(Math.round(doraScopa.rating));
      await page.waitForSelector('#rating-chart');
      expect(await page.locator('#rating-chart .point').count()).toBe(RATED);
      const table = (await http().get(`/v1/crosstable/${dora.username}/${enzo.username}`)).body;
      const rated = played.filter((m) => m.rated);
      const doraWins = rated.filter((m) => m.loser === enzo.username).length;
      expect([table.wins, table.losses, table.draws]).toEqual([doraWins, rated.length - doraWins, 0]);
      expect(await page.locator('#crosstable tfoot td').allTextContents()).toEqual([String(table.wins), String(table.losses), String(table.draws)]);
      expect(await attrs('#crosstable tbody tr', 'data-pool')).toEqual(table.pools.map((p: any) => p.ruleset));
      expect(await page.locator('#crosstable caption').textContent()).toContain(dora.username);
      expect(await attrs('#h2h-matches tbody tr', 'data-match')).toEqual(table.lastMatches.map((m: any) => m.matchId));
      expect(table.lastMatches).toHaveLength(10);
      await shot('profile-03-other');

      // ---- the head-to-head's replay link opens the replay viewer
      const last = table.lastMatches[0].matchId as string;
      await page.click(`#h2h-matches tr[data-match="${last}"] a.replay-link`);
      await page.waitForSelector('#audit-verdict');
      expect(page.url()).toContain(`#/replay/${last}`);
      expect(await page.textContent('#audit-verdict')).toContain('sound');
      // Seat names in the replay link to the players' profiles (it opens on the first deal: both seats taken).
      await page.waitForSelector('.seat-name a.player');
      expect(await attrs('.seat-name a.player', 'data-player')).toEqual(played.find((m) => m.id === last)!.seats);

      // ---- an unknown player: the error code, and a plain message
      await page.goto(`${base}/#/users/nobody-at-all`);
      await page.waitForSelector('#profile-missing');
      expect(await page.getAttribute('#error', 'data-code')).toBe('NOT_FOUND');

      expect(pageErrors.filter((e) => !/404/.test(e))).toEqual([]);
    }));

  it('lists matches as GET /v1/users/{username}/matches documents them, page by page, each opening its replay', () =>
    scenario('contract', async () => {
      // The endpoint's JSON mode, served from the browser's side in the documented shape.
      const newestFirst = [...played].sort((a, b) => b.endedAt.localeCompare(a.endedAt) || b.id.localeCompare(a.id));
      const asListed = (m: Played) => ({
        id: m.id,
        preset: m.pool,
        rulesetId: m.pool,
        rated: m.rated,
        imported: false,
        sourceId: null,
        players: m.seats.map((player, seat) => ({ seat, side: seat, player })),
        result: { winner: m.seats.indexOf(m.loser) === 0 ? 1 : 0, reason: 'resignation', totals: totalsOf(m) },
        createdAt: m.createdAt,
        endedAt: m.endedAt,
      });
      const asked: string[] = [];
      await page.route('**/v1/users/*/matches?*', async (route) => {
        const url = new URL(route.request().url());
        asked.push(url.search);
        const max = Number(url.searchParams.get('max'));
        const from = Number(url.searchParams.get('after') ?? 0);
        const slice = newestFirst.slice(from, from + max);
        const next = from + max < newestFirst.length ? String(from + max) : null;
        await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ matches: slice.map(asListed), next }) });
      });
      try {
        await logIn(dora);
        await page.goto(`${base}/#/users/${dora.username}`);
        await page.waitForSelector('#match-list');
        expect(await attrs('#match-list tbody tr', 'data-match')).toEqual(newestFirst.slice(0, PAGE).map((m) => m.id));
        expect((await texts('#match-list tbody td.outcome')).map((t) => t.split(' ')[0])).toEqual(
          newestFirst.slice(0, PAGE).map((m) => resultOf(m, dora.username)),
        );
        // The score reads from the profile's player's side first, whichever seat she had: "lost 4–11", "won 11–4".
        expect(new Set(newestFirst.slice(0, PAGE).map((m) => m.seats.indexOf(dora.username))).size).toBe(2);
        expect(await texts('#match-list tbody td.outcome')).toEqual(
          newestFirst.slice(0, PAGE).map((m) => `${resultOf(m, dora.username)} (resignation), ${m.loser === dora.username ? '4–11' : '11–4'}`),
        );
        // The unrated match is marked so in words; the profile's player is in bold.
        expect(await page.locator(`#match-list tr[data-match="${newestFirst[0].id}"]`).textContent()).toContain('unrated');
        expect(await page.locator(`#match-list tr[data-match="${newestFirst[0].id}"] strong`).textContent()).toBe(dora.username);
        await page.click('#more-matches');
        await page.waitForFunction((n) => (globalThis as any).document.querySelectorAll('#match-list tbody tr').length === n, played.length);
        expect(await attrs('#match-list tbody tr', 'data-match')).toEqual(newestFirst.map((m) => m.id));
        expect(await page.locator('#more-matches').count()).toBe(0);
        expect(asked).toEqual([`?max=${PAGE}`, `?max=${PAGE}&after=${PAGE}`]);
        await shot('profile-04-match-list');

        // A click on the row (not on its link) opens the replay of that match.
        const target = newestFirst[PAGE + 2];
        await page.locator(`#match-list tr[data-match="${target.id}"] td.outcome`).click();
        await page.waitForSelector('#audit-verdict');
        expect(page.url()).toContain(`#/replay/${target.id}`);
        expect(await page.textContent('#audit-verdict')).toContain('sound');
        expect(await page.textContent('#replay-result')).toContain('resignation');
      } finally {
        await page.unroute('**/v1/users/*/matches?*');
      }
      expect(pageErrors.filter((e) => !/404/.test(e))).toEqual([]);
    }));
});
