/**
 * Every route of the web client (web/src/main.ts's router) on phones and on
 * a desktop, in the five languages (issue 47): a player signs up in the
 * page, and the API makes what each route shows (a match against the greedy
 * bot played to its end and analysed, for the replay and its analysis; a
 * match in play, for the table; a rated match with a friend, for the
 * profile's ratings; a tournament under way, a team, a conversation, a
 * lobby message, a report for the moderators' queue, an OAuth app and its
 * consent page). Then, at 360×740, 390×844 and 1280×800, each route:
 *
 * - does not scroll sideways (document scrollWidth <= innerWidth);
 * - on the two phone sizes, has no button, link, form control, tab or
 *   summary smaller than 44×44 CSS px (a link inside running text excepted);
 * - in English and in Arabic, axe-core reports no serious or critical
 *   violation (colour contrast among them); in Arabic the page is <html dir="rtl">;
 * - a screenshot at 390×844 and at 1280×800 in each language goes to
 *   test-artifacts/screens/<language>/<width>x<height>/<route>.png.
 *
 * A last test plays a match at 390×844 whose first deal offers a choice
 * among captures: the capture choice (at 1280×800 too), the round's summary
 * and the report dialog of a chat message lie inside the screen, their
 * buttons in reach. Run with
 * `npm run test:browser -- test/routes.browser-spec.ts`.
 */
import { jest } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { legalPlaysOf } from '../src/engine';
import { ARTIFACTS } from './support/chromium';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { clientSeedFor, serverSeedOf } from './support/dealt-seeds';
import { axeViolations, inViewport, sidewaysScroll, smallTargets } from './support/layout-checks';
import { authorizeUrl, pkce } from './support/oauth';
import { playOneCardEach } from './support/play';
import { clickCard, useWebClientPage } from './support/web-page';

jest.setTimeout(1_200_000);

/** The player who signs up in the page; a moderator (MODERATORS), so that #/moderation is hers to see. */
const ME = `rtme${process.pid % 1000}${Date.now() % 1000}`;
const PASSWORD = `${ME} password`;
const LANGUAGES = ['en', 'ar', 'it', 'fr', 'es'] as const;
type Language = (typeof LANGUAGES)[number];
/** axe-core runs in these; the others are checked for layout and photographed. */
const AXE_LANGUAGES: ReadonlySet<Language> = new Set<Language>(['en', 'ar']);
const SIZES = [
  { width: 360, height: 740, phone: true, shot: false },
  { width: 390, height: 844, phone: true, shot: true },
  { width: 1280, height: 800, phone: false, shot: true },
];
const SCREENS = path.join(ARTIFACTS, 'screens');
const ENV = { MODERATORS: ME, CLIENT_SEED_WINDOW: '0', ANALYSIS_ITERATIONS: '16', ANALYSIS_POLL_SECONDS: '0.5' };

interface Route {
  name: string;
  hash: string;
  /** Every selector here is on the page once the route has loaded what it shows. */
  ready: string[];
  /** The route is the signed-out one (the log-in form). */
  signedOut?: boolean;
  /** Brings the page to the state worth checking once ready (e.g. the replay's last step, its analysis open). */
  after?: (page: Page) => Promise<void>;
}

describe('every route on a phone and a desktop, in five languages (Chromium)', () => {
  const web = useWebClientPage({ env: ENV, viewport: { width: 1280, height: 800 }, shotPrefix: 'routes-' });
  const http = () => request(web.app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;
  let me: Account;
  let friend: Account;
  let routes: Route[] = [];
  let loads = 0;

  afterAll(() => {
    for (const k of Object.keys(ENV)) delete process.env[k];
  });

  async function ok(res: request.Test | Promise<request.Response>, status: number, what: string): Promise<any> {
    const r = await res;
    if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
    return r.body;
  }

  /** A match of mine against a bot, started (target 1: one round or two). */
  async function botMatch(bot: string): Promise<string> {
    const m = await ok(
      http()
        .post('/v1/matches')
        .set('authorization', auth(me))
        .send({ preset: 'scopa', overrides: { target: 1 }, seats: [{ type: 'creator' }, { type: 'bot', bot }] }),
      201,
      'create a bot match',
    );
    await ok(http().post(`/v1/matches/${m.id}/start`).set('authorization', auth(me)).send({}), 200, 'start');
    return m.id as string;
  }

  /** Plays my first legal play each turn until the match is over (the bot answers on its own). */
  async function playOut(id: string): Promise<void> {
    for (let n = 0; n < 2000; n++) {
      const legal = (await http().get(`/v1/matches/${id}/legal-plays`).set('authorization', auth(me))).body;
      if (legal.plays?.length) {
        await http()
          .post(`/v1/matches/${id}/plays`)
          .set('authorization', auth(me))
          .send({ card: legal.plays[0].card, capture: legal.plays[0].capture, expectedSeq: legal.seq });
        continue;
      }
      if ((await http().get(`/v1/matches/${id}`).set('authorization', auth(me))).body.status === 'over') return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`match ${id} did not end`);
  }

  beforeAll(async () => {
    const { page, base } = web;
    // ---- sign up in the page
    await page.goto(`${base}/`);
    await page.click('#tab-register');
    await page.fill('#username', ME);
    await page.fill('#password', PASSWORD);
    await page.click('#auth-submit');
    await page.waitForSelector('#nav-profile');
    me = { username: ME, token: await web.sessionToken(), id: '' };
    friend = await register(web.app, 'rtfr');

    // ---- a finished match against the greedy bot, analysed: the replay and its analysis
    const over = await botMatch('greedy');
    await playOut(over);
    await ok(http().post(`/v1/matches/${over}/analysis`).set('authorization', auth(me)).send({}), 202, 'ask for the analysis');
    for (const deadline = Date.now() + 240_000; ;) {
      const a = (await http().get(`/v1/matches/${over}/analysis`).set('authorization', auth(me))).body;
      if (a.status === 'done') break;
      if (a.status === 'failed' || Date.now() > deadline) throw new Error(`analysis of ${over}: ${JSON.stringify(a)}`);
      await new Promise((r) => setTimeout(r, 500));
    }

    // ---- a match in play: the table
    const playing = await botMatch('random');

    // ---- a rated match with a friend (each plays a card, then the friend resigns): ratings and a chart on the profile
    const rated = await ok(
      http()
        .post('/v1/matches')
        .set('authorization', auth(me))
        .send({ preset: 'scopa', rated: true, seats: [{ type: 'creator' }, { type: 'reserved', username: friend.username }] }),
      201,
      'create a rated match',
    );
    await ok(http().post(`/v1/matches/${rated.id}/join`).set('authorization', auth(friend)).send({}), 200, 'join');
    await ok(http().post(`/v1/matches/${rated.id}/start`).set('authorization', auth(me)).send({}), 200, 'start');
    await playOneCardEach(web.app, [me, friend], rated.id);
    await ok(http().post(`/v1/matches/${rated.id}/resign`).set('authorization', auth(friend)).send({}), 200, 'resign');

    // ---- a tournament of two, started: players, standings, round 1 with our table
    const cup = await ok(
      http().post('/v1/tournaments').set('authorization', auth(me)).send({ name: 'Coppa di prova', format: 'swiss', preset: 'scopa', rounds: 1 }),
      201,
      'create a tournament',
    );
    for (const p of [me, friend]) await ok(http().post(`/v1/tournaments/${cup.id}/join`).set('authorization', auth(p)).send({}), 200, 'join the tournament');
    await ok(http().post(`/v1/tournaments/${cup.id}/start`).set('authorization', auth(me)).send({}), 200, 'start the tournament');
    await ok(http().post(`/v1/tournaments/${cup.id}/chat`).set('authorization', auth(friend)).send({ text: 'buona fortuna a tutti' }), 201, 'tournament chat');

    // ---- a team with the friend in it, and its chat
    const team = await ok(
      http()
        .post('/v1/teams')
        .set('authorization', auth(me))
        .send({ name: `Circolo ${ME}`, description: 'we play on Sundays, at the bar by the station' }),
      201,
      'create a team',
    );
    await ok(http().post(`/v1/teams/${team.id}/join`).set('authorization', auth(friend)).send({}), 200, 'join the team');

    // ---- follows, a conversation, the lobby's chat, a report for the moderators
    await ok(http().put(`/v1/users/${friend.username}/follow`).set('authorization', auth(me)).send({}), 200, 'follow');
    await ok(http().post(`/v1/messages/${ME}`).set('authorization', auth(friend)).send({ text: 'ciao! a rematch tonight?' }), 201, 'a direct message');
    await ok(http().post(`/v1/messages/${friend.username}`).set('authorization', auth(me)).send({ text: 'sure, after dinner' }), 201, 'a direct message');
    const said = await ok(http().post('/v1/lobby/chat').set('authorization', auth(friend)).send({ text: 'anyone for a quick scopa?' }), 201, 'lobby chat');
    await ok(
      http()
        .post('/v1/reports')
        .set('authorization', auth(me))
        .send({ target: { messageId: said.id }, reason: 'shouting in the lobby' }),
      201,
      'a report',
    );

    // ---- an OAuth app of mine, and its consent page (the browser brought there by the authorize endpoint)
    const registered = await ok(
      http()
        .post('/v1/oauth/apps')
        .set('authorization', auth(me))
        .send({ name: 'Scopa scoreboard', redirectUris: ['http://127.0.0.1/callback'] }),
      201,
      'register an app',
    );
    await page.goto(
      authorizeUrl(base, {
        response_type: 'code',
        client_id: registered.app.id,
        redirect_uri: 'http://127.0.0.1/callback',
        scope: 'match:read match:play',
        state: 'routes',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }),
    );
    await page.waitForSelector('#consent-approve');
    const consent = new URL(page.url()).hash.replace(/^#/, '');

    const signedIn = ['#nav-moderation'];
    routes = [
      { name: 'login', hash: '/', signedOut: true, ready: ['#auth-submit'] },
      { name: 'inbox', hash: '/', ready: [...signedIn, 'table.inbox tr[data-match]', '#friends-online h2'] },
      { name: 'new', hash: '/new', ready: [...signedIn, '#create-submit', '#seat-1-type'] },
      { name: 'lobby', hash: '/lobby', ready: [...signedIn, '#challenge-submit', '#lobby-chat .chat-form', '#lobby-chat .chat-msg, #lobby-chat .chat-empty'] },
      { name: 'tournaments', hash: '/tournaments', ready: [...signedIn, `tr[data-tournament="${cup.id}"]`, '#tournament-create'] },
      {
        name: 'tournament',
        hash: `/tournament/${cup.id}`,
        ready: [...signedIn, '#tournament #standings', '.round[data-round="1"] li', '#tournament-chat .chat-text'],
      },
      { name: 'teams', hash: '/teams', ready: [...signedIn, `#team-list li[data-team="${team.id}"]`, '#team-create'] },
      { name: 'team', hash: `/teams/${team.id}`, ready: [...signedIn, '#team[data-role="leader"]', '#team-members tr[data-player]', '#team-chat .chat-form'] },
      {
        name: 'profile',
        hash: `/users/${ME}`,
        ready: [...signedIn, `#profile[data-user="${ME}"]`, '#ratings', '#rating-chart', '#match-list, #matches-unavailable', '#profile-social h3'],
      },
      {
        name: 'friend',
        hash: `/users/${friend.username}`,
        ready: [...signedIn, `#profile[data-user="${friend.username}"]`, '#social-actions button', '#crosstable, #h2h-none'],
      },
      { name: 'apps', hash: '/apps', ready: [...signedIn, '#my-apps', '#app-name'] },
      { name: 'notifications', hash: '/notifications', ready: [...signedIn, '#push-kinds #kind-yourTurn', '#push-status', '#vacation-left'] },
      { name: 'consent', hash: consent, ready: [...signedIn, '#consent-approve', '#consent-scopes li'] },
      { name: 'messages', hash: `/messages/${friend.username}`, ready: [...signedIn, '#direct-chat .chat-form', '#direct-chat .chat-text'] },
      { name: 'match', hash: `/match/${playing}`, ready: [...signedIn, '#my-hand .card', '#chat-players .chat-form'] },
      {
        name: 'replay',
        hash: `/replay/${over}`,
        ready: [...signedIn, '#audit-verdict', '#step-last', '#analyse'],
        after: async (page) => {
          await page.click('#step-last');
          await page.waitForSelector('#step-last:disabled');
          await page.click('#analyse');
          await page.waitForSelector('#analysis-chart');
        },
      },
      { name: 'moderation', hash: '/moderation', ready: [...signedIn, '#reports li, #no-reports'] },
    ];
  });

  /**
   * The page reloaded in `language`, signed in or not, at `hash`: chosen on this device, and the account's too (the
   * account's language is the one a signed-in page takes).
   */
  async function load(language: Language, hash: string, signedIn: boolean): Promise<void> {
    const { page, base } = web;
    if (signedIn && me) await ok(http().patch('/v1/account').set('authorization', auth(me)).send({ language }), 200, "the account's language");
    const session = await page.evaluate(() => (globalThis as any).localStorage.getItem('scopa.session') as string | null);
    if (session) keptSession = session;
    await page.evaluate(
      ([lang, kept, inside]) => {
        const store = (globalThis as any).localStorage;
        store.setItem('scopa.language', lang);
        if (inside && kept) store.setItem('scopa.session', kept);
        else store.removeItem('scopa.session');
      },
      [language, keptSession, signedIn] as const,
    );
    await page.goto(`${base}/?load=${++loads}#${hash}`);
  }
  let keptSession: string | null = null;

  /** The route shown (by its hash, the app loaded), ready and settled. */
  async function open(route: Route): Promise<void> {
    const { page } = web;
    for (const selector of route.ready) await page.waitForSelector(selector, { timeout: 30_000 });
    await route.after?.(page);
    await page.evaluate(() => (globalThis as any).document.fonts.ready);
    // a frame for the last layout (a refresh of the list, the nav's moderator link)
    await page.waitForTimeout(100);
  }

  /** Goes to a route of the signed-in page through its hash (the app stays loaded, as a player goes). */
  async function goTo(route: Route): Promise<void> {
    await web.page.evaluate((hash) => ((globalThis as any).location.hash = hash), `#${route.hash}`);
    await open(route);
  }

  async function check(language: Language, size: (typeof SIZES)[number]): Promise<string[]> {
    const { page } = web;
    const problems: string[] = [];
    await page.setViewportSize({ width: size.width, height: size.height });
    const at = `${language} ${size.width}x${size.height}`;
    for (const [i, route] of routes.entries()) {
      const where = `${at} ${route.name}`;
      try {
        if (route.signedOut) await load(language, route.hash, false);
        else if (i === 0 || routes[i - 1].signedOut) await load(language, route.hash, true);
        else await goTo(route);
        if (i === 0 || routes[i - 1].signedOut || route.signedOut) await open(route);
      } catch (err) {
        problems.push(`${where}: did not load: ${(err as Error).message.split('\n')[0]}`);
        await web.shot(`failure-${language}-${size.width}-${route.name}`).catch(() => undefined);
        continue;
      }
      const dir = await page.evaluate(() => [(globalThis as any).document.documentElement.lang, (globalThis as any).document.documentElement.dir]);
      if (dir[0] !== language || dir[1] !== (language === 'ar' ? 'rtl' : 'ltr')) problems.push(`${where}: <html lang="${dir[0]}" dir="${dir[1]}">`);
      const scroll = await sidewaysScroll(page);
      if (scroll.excess > 0) problems.push(`${where}: scrolls sideways by ${scroll.excess} px: ${scroll.widest.join(', ')}`);
      if (size.phone) for (const small of await smallTargets(page)) problems.push(`${where}: target smaller than 44×44: ${small}`);
      if (AXE_LANGUAGES.has(language)) for (const v of await axeViolations(page)) problems.push(`${where}: axe: ${v}`);
      if (size.shot) {
        const dir = path.join(SCREENS, language, `${size.width}x${size.height}`);
        mkdirSync(dir, { recursive: true });
        await page.screenshot({ path: path.join(dir, `${route.name}.png`), fullPage: true });
      }
    }
    return problems;
  }

  it.each(LANGUAGES)('%s: no sideways scroll, 44 px targets on phones, no serious axe violation (en, ar), a screenshot of every route', (language) =>
    web.guarded(async () => {
      const problems: string[] = [];
      for (const size of SIZES) problems.push(...(await check(language, size)));
      expect(problems).toEqual([]);
    }),
  );

  it('at 390×844 the capture choice, the round summary and the report dialog lie inside the screen, their buttons in reach', () =>
    web.guarded(async () => {
      const { page } = web;
      await page.setViewportSize({ width: 390, height: 844 });
      const created = await ok(
        http()
          .post('/v1/matches')
          .set('authorization', auth(me))
          .send({ preset: 'scopa', overrides: { target: 1 }, seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] }),
        201,
        'create',
      );
      const id: string = created.id;
      // A first deal where it is my turn and a card of my hand captures in two ways or more.
      const clientSeed = clientSeedFor(await serverSeedOf(web.app, id), 'scopa', [null, null], 0, ({ state }) => {
        if (state.turn !== 0 || !state.options) return false;
        const plays = legalPlaysOf(state.options, state.hands[0], state.table, false);
        return state.hands[0].some((card) => plays.filter((p) => p.card === card && p.capture.length > 0).length >= 2);
      });
      await ok(http().post(`/v1/matches/${id}/client-seed`).set('authorization', auth(me)).send({ clientSeed }), 200, 'client seed');
      await ok(http().post(`/v1/matches/${id}/start`).set('authorization', auth(me)).send({}), 200, 'start');
      await load('en', `/match/${id}`, true);
      await page.waitForSelector('#my-hand .card.legal');
      const legal = (await http().get(`/v1/matches/${id}/legal-plays`).set('authorization', auth(me))).body;
      const counts = new Map<string, number>();
      for (const p of legal.plays as { card: string; capture: string[] }[]) if (p.capture.length) counts.set(p.card, (counts.get(p.card) ?? 0) + 1);
      const card = [...counts].find(([, n]) => n >= 2)![0];
      // The hand is at the bottom of a phone's page: scrolled to, as a player would.
      await page.locator(`#my-hand .card[data-card="${card}"]`).scrollIntoViewIfNeeded();
      await page.click(`#my-hand .card[data-card="${card}"]`);
      await page.waitForSelector('#capture-choice');
      await page.waitForTimeout(100);
      const problems: string[] = [];
      const box = await inViewport(page, '#capture-choice');
      if (!box.inside) problems.push(`#capture-choice is not inside the screen: ${box.box}`);
      const options = await page.locator('#capture-choice .capture-choice').count();
      expect(options).toBeGreaterThanOrEqual(2);
      for (let i = 0; i < options; i++) {
        const b = await page.locator('#capture-choice .capture-choice').nth(i).boundingBox();
        if (!b || b.y < 0 || b.y + b.height > 844 || b.x < 0 || b.x + b.width > 390)
          problems.push(`capture option ${i} is off the screen: ${JSON.stringify(b)}`);
      }
      problems.push(...(await smallTargets(page)).filter((t) => t.includes('capture-choice')).map((t) => `capture choice: ${t}`));
      problems.push(...(await axeViolations(page)).map((v) => `capture choice: axe: ${v}`));
      await page.screenshot({ path: path.join(SCREENS, 'capture-choice-390x844.png') });
      // On the desktop, the same choice (cancelled, asked again) shows under the table, inside the screen too.
      await page.click('#capture-choice button.link');
      await page.waitForSelector('#capture-choice', { state: 'detached' });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.click(`#my-hand .card[data-card="${card}"]`);
      await page.waitForSelector('#capture-choice');
      const wide = await inViewport(page, '#capture-choice');
      if (!wide.inside) problems.push(`#capture-choice is not inside the desktop's screen: ${wide.box}`);
      await page.screenshot({ path: path.join(SCREENS, 'capture-choice-1280x800.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      // Choosing works from where it is.
      await page.locator('#capture-choice .capture-choice').first().click();
      await page.waitForSelector('#capture-choice', { state: 'detached' });

      // ---- the round to its end by clicking; then its summary
      for (let i = 0; i < 500 && !(await page.$('#round-summary')); i++) {
        const state = await page.evaluate(() => {
          const d = (globalThis as any).document;
          return {
            choice: !!d.querySelector('#capture-choice .capture-choice:not([disabled])'),
            legal: d.querySelectorAll('#my-hand .card.legal').length as number,
            error: (d.querySelector('#error:not([hidden])')?.innerText ?? null) as string | null,
          };
        });
        if (state.error) throw new Error(`the client shows an error: ${state.error}`);
        if (state.choice) {
          await page.locator('#capture-choice .capture-choice').first().click();
          await page.waitForSelector('#capture-choice', { state: 'detached' });
        } else if (state.legal > 0) await clickCard(page);
        else await page.waitForTimeout(50);
      }
      await page.waitForSelector('#round-summary');
      await page.waitForTimeout(100);
      const summary = await inViewport(page, '#round-summary');
      if (!summary.inside) problems.push(`#round-summary is not inside the screen: ${summary.box}`);
      const next = await inViewport(page, '#continue');
      if (!next.inside) problems.push(`#continue is not inside the screen: ${next.box}`);
      problems.push(...(await smallTargets(page)).filter((t) => t.includes('#continue')).map((t) => `round summary: ${t}`));
      problems.push(...(await axeViolations(page)).map((v) => `round summary: axe: ${v}`));
      await page.screenshot({ path: path.join(SCREENS, 'round-summary-390x844.png') });
      // The button is reached without panning: a click at its place closes the summary.
      await page.click('#continue');
      await page.waitForSelector('#round-summary', { state: 'detached' });

      // ---- the report dialog a chat message opens (the friend's, in the lobby)
      await page.evaluate(() => ((globalThis as any).location.hash = '#/lobby'));
      await page.click('#lobby-chat .chat-report');
      await page.waitForSelector('#report-dialog');
      for (const selector of ['#report-dialog', '#report-submit']) {
        const at = await inViewport(page, selector);
        if (!at.inside) problems.push(`${selector} is not inside the screen: ${at.box}`);
      }
      problems.push(...(await smallTargets(page)).filter((t) => t.includes('report')).map((t) => `report dialog: ${t}`));
      problems.push(...(await axeViolations(page)).map((v) => `report dialog: axe: ${v}`));
      await page.screenshot({ path: path.join(SCREENS, 'report-dialog-390x844.png') });
      expect(problems).toEqual([]);
    }));
});
