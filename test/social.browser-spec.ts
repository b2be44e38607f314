/**
 * The web client's social pages in headless Chromium (issue 46): two players
 * chat in a match, each in their own browser, and both see the messages (live);
 * a player sees the spectators' tab only once the match is over; the match chat
 * works at 390 px wide with no horizontal scroll; a message
 * `<img src=x onerror=alert(1)>` is shown as text in every chat panel (match,
 * lobby, tournament, team, direct): no such img element, no dialog; follow and
 * block from a profile; a team created and joined from the pages; a report
 * made from a chat message is listed in the moderators' queue, and the mute
 * given from there is said in words in the muted player's panel.
 * Run with `npm run test:browser -- test/social.browser-spec.ts`.
 */
import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import request from 'supertest';
import path from 'node:path';
import { ARTIFACTS, launchChromium } from './support/chromium';
import type { Chromium } from './support/chromium';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { useWebClientPage, useLanguage } from './support/web-page';

jest.setTimeout(300_000);

const XSS = '<img src=x onerror=alert(1)>';
const MOD = `smod${process.pid % 1000}`;

// The functions given to page.evaluate run in the browser; the server's tsconfig has no DOM library.
declare const localStorage: { setItem(key: string, value: string): void };
declare const document: {
  querySelectorAll(selector: string): { length: number; [i: number]: { textContent: string | null } };
  scrollingElement: { scrollWidth: number } | null;
  documentElement: { lang: string; dir: string };
};

describe('social pages (Chromium)', () => {
  const web = useWebClientPage({ env: { MODERATORS: MOD, CLIENT_SEED_WINDOW: '0' }, shotPrefix: 'social-' });
  const http = () => request(web.app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;
  /** alert() dialogs of every page: the markup of a message must never run. */
  const alerts: string[] = [];
  let loads = 0;

  const watch = (page: Page) =>
    page.on('dialog', (d) => {
      if (d.type() === 'alert') alerts.push(d.message());
      // confirm() of Block, Leave, ...: yes
      void (d.type() === 'confirm' ? d.accept() : d.dismiss());
    });

  /** The page signed in as `a` (its session stored as the client stores one), at `hash`. */
  async function openAs(page: Page, a: Account, hash: string): Promise<void> {
    await page.goto(`${web.base}/?load=${++loads}`);
    await page.evaluate(
      ([token, username]) => localStorage.setItem('scopa.session', JSON.stringify({ token, username, expiresAt: Date.now() + 3_600_000 })),
      [a.token, a.username],
    );
    await page.goto(`${web.base}/?load=${++loads}#${hash}`);
  }

  /** The page signed in as `a` at `hash`, in a language chosen on this device (as the language menu stores it). */
  async function openIn(page: Page, a: Account, hash: string, language: string): Promise<void> {
    await openAs(page, a, '/');
    await useLanguage(page, language);
    await page.goto(`${web.base}/?load=${++loads}#${hash}`);
  }

  /** Types a message into the panel `panel` (a CSS selector) and waits until it is listed there. */
  async function say(page: Page, panel: string, text: string): Promise<void> {
    await page.fill(`${panel} .chat-input`, text);
    await page.click(`${panel} .chat-send`);
    await page.locator(`${panel} .chat-text`, { hasText: text }).first().waitFor();
  }

  /** The page shows `text` as text in `panel`, and holds no img of the message's markup. */
  async function shownAsText(page: Page, panel: string, text: string): Promise<void> {
    await page.locator(`${panel} .chat-text`, { hasText: text }).first().waitFor();
    const texts = await page.locator(`${panel} .chat-text`).allTextContents();
    expect(texts).toContain(text);
    expect(await page.evaluate(() => document.querySelectorAll('img[src="x"], .chat img, [onerror]').length)).toBe(0);
    expect(alerts).toEqual([]);
  }

  async function registerAs(username: string): Promise<Account> {
    const res = await http()
      .post('/v1/auth/register')
      .send({ username, password: `password-of-${username}` });
    expect(res.status).toBe(201);
    return { username, token: res.body.accessToken, id: res.body.account.id };
  }

  async function startedMatch(creator: Account, other: Account): Promise<string> {
    const made = await http()
      .post('/v1/matches')
      .set('authorization', auth(creator))
      .send({ preset: 'scopa', seats: [{ type: 'creator' }] });
    expect(made.status).toBe(201);
    expect((await http().post(`/v1/matches/${made.body.id}/join`).set('authorization', auth(other)).send({})).status).toBe(200);
    expect((await http().post(`/v1/matches/${made.body.id}/start`).set('authorization', auth(creator)).send({})).status).toBe(200);
    return made.body.id as string;
  }

  let ann: Account;
  let bob: Account;
  let sam: Account;
  let mod: Account;

  beforeAll(async () => {
    [ann, bob, sam] = await Promise.all([register(web.app, 'sca'), register(web.app, 'scb'), register(web.app, 'scs')]);
    mod = await registerAs(MOD);
    watch(web.page);
  });

  it('two players chat in a match, each in a browser, and both see the messages; at 390 px wide; the spectators’ tab once it is over', () =>
    web.guarded(async () => {
      const id = await startedMatch(ann, bob);
      // a spectator's word during play: the players do not get it until the end
      expect(
        (await http().post(`/v1/matches/${id}/chat?room=spectators`).set('authorization', auth(sam)).send({ text: 'ann holds the settebello' })).status,
      ).toBe(201);

      const page = web.page;
      await page.setViewportSize({ width: 390, height: 844 });
      await openAs(page, ann, `/match/${id}`);
      await page.waitForSelector('#my-hand');
      await page.waitForSelector('#chat-players .chat-form');
      let other: Chromium | null = null;
      try {
        other = await launchChromium({ width: 1200, height: 900 });
        watch(other.page);
        await openAs(other.page, bob, `/match/${id}`);
        await other.page.waitForSelector('#chat-players .chat-form');

        await say(page, '#chat-players', 'buona fortuna, bob');
        await other.page.locator('#chat-players .chat-text', { hasText: 'buona fortuna, bob' }).waitFor();
        await other.page.screenshot({ path: path.join(ARTIFACTS, 'social-match-wide.png') });
        // bob's page gets it live
        await other.page.locator('#chat-players .chat-text', { hasText: 'buona fortuna, bob' }).waitFor();
        await say(other.page, '#chat-players', 'grazie ann');
        await page.locator('#chat-players .chat-text', { hasText: 'grazie ann' }).waitFor();
        // markup is text, on both pages
        await say(other.page, '#chat-players', XSS);
        await shownAsText(page, '#chat-players', XSS);
        await shownAsText(other.page, '#chat-players', XSS);
        const authors = await page
          .locator('#chat-players .chat-msg')
          .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { author: string } }).dataset.author));
        expect(authors).toEqual([ann.username, bob.username, bob.username]);

        // 390 px wide: no horizontal scroll, the panel within the screen, its input and button usable
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
        const box = (await page.locator('#match-chat').boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
        const send = (await page.locator('#chat-players .chat-send').boundingBox())!;
        expect(send.x + send.width).toBeLessThanOrEqual(390);
        await web.shot('match-390');

        // during play, no spectators' tab for a player
        expect(await page.locator('#chat-tab-spectators').count()).toBe(0);
        expect((await http().post(`/v1/matches/${id}/resign`).set('authorization', auth(bob)).send({})).status).toBe(200);
        await page.waitForSelector('#result');
        await page.click('#chat-tab-spectators');
        await shownAsText(page, '#chat-spectators', 'ann holds the settebello');
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
      } finally {
        await other?.close();
        await page.setViewportSize({ width: 1200, height: 900 });
      }
    }));

  it('shows a message of markup as text in the lobby, tournament, team and direct panels; a team created and joined from the pages', () =>
    web.guarded(async () => {
      const page = web.page;
      // lobby
      await openAs(page, ann, '/lobby');
      await page.waitForSelector('#lobby-chat .chat-form');
      await say(page, '#lobby-chat', XSS);
      await shownAsText(page, '#lobby-chat', XSS);

      // tournament (created from its page)
      await page.click('#nav-tournaments');
      await page.fill('#tournament-name', `social cup ${loads}`);
      await page.click('#tournament-create');
      await page.waitForSelector('#tournament-chat .chat-form');
      await say(page, '#tournament-chat', XSS);
      await shownAsText(page, '#tournament-chat', XSS);

      // team: ann creates it on #/teams, bob finds and joins it there, and writes in its chat
      const teamName = `Circolo ${process.pid % 1000}${loads}`;
      await page.click('#nav-teams');
      await page.fill('#team-name', teamName);
      await page.fill('#team-description', 'we play on Sundays');
      await page.click('#team-create');
      await page.waitForSelector('#team[data-role="leader"]');
      await page.waitForSelector('#team-chat .chat-form');
      await openAs(page, bob, '/teams');
      await page.fill('#team-search', teamName);
      await page.click('#team-search-submit');
      await page.click(`#team-list a:has-text("${teamName}")`);
      await page.waitForSelector('#team[data-role="none"]');
      expect(await page.locator('#team-chat-members-only').count()).toBe(1);
      await page.click('#team-join');
      await page.waitForSelector('#team[data-role="member"]');
      await page.locator('#team-members tr[data-player]', { hasText: bob.username }).waitFor();
      await say(page, '#team-chat', XSS);
      await shownAsText(page, '#team-chat', XSS);
      expect(await page.locator('#team-members tr[data-player]').count()).toBe(2);

      // direct: bob and ann share a team; from ann's profile
      await page.goto(`${web.base}/?load=${++loads}#/users/${ann.username}`);
      await page.click('#message-user');
      await page.waitForSelector('#direct-chat .chat-form');
      await say(page, '#direct-chat', XSS);
      await shownAsText(page, '#direct-chat', XSS);
      // ann reads it in her conversation
      await openAs(page, ann, `/messages/${bob.username}`);
      await shownAsText(page, '#direct-chat', XSS);
      // and on her home page, a direct message arriving (the player event directMessage) is listed as text
      await openAs(page, ann, '/');
      await page.waitForSelector('#friends-online h2');
      for (let i = 1; !(await page.locator('#new-messages li').count()) && i <= 20; i++) {
        expect(
          (
            await http()
              .post(`/v1/messages/${ann.username}`)
              .set('authorization', auth(bob))
              .send({ text: `${XSS} ${i}` })
          ).status,
        ).toBe(201);
        await page.waitForSelector('#new-messages li', { timeout: 1000 }).catch(() => undefined);
      }
      expect(await page.locator('#new-messages li .chat-text').first().textContent()).toMatch(/^<img src=x onerror=alert\(1\)> \d+$/);
      expect(await page.evaluate(() => document.querySelectorAll('img[src="x"], [onerror]').length)).toBe(0);
      expect(alerts).toEqual([]);
      expect(web.pageErrors).toEqual([]);
    }));

  it('says in words that a duplicate round closes the tournament room, and that a table’s chat is off', () =>
    web.guarded(async () => {
      const page = web.page;
      const field = await Promise.all([register(web.app, 'sda'), register(web.app, 'sdb'), register(web.app, 'sdc'), register(web.app, 'sdd')]);
      const t = (
        await http()
          .post('/v1/tournaments')
          .set('authorization', auth(field[0]))
          .send({ name: 'Duplicate chat cup', format: 'swiss', preset: 'scopa', rounds: 1, duplicate: true, chat: 'off' })
      ).body;
      for (const p of field) expect((await http().post(`/v1/tournaments/${t.id}/join`).set('authorization', auth(p)).send({})).status).toBe(200);
      expect((await http().post(`/v1/tournaments/${t.id}/chat`).set('authorization', auth(field[1])).send({ text: 'good luck everyone' })).status).toBe(201);
      expect((await http().post(`/v1/tournaments/${t.id}/start`).set('authorization', auth(field[0])).send({})).status).toBe(200);

      await openAs(page, field[1], `/tournament/${t.id}`);
      await page.locator('#tournament-chat .chat-notice:not([hidden])', { hasText: 'Chat is closed while duplicate round 1 runs' }).waitFor();
      await page.locator('#tournament-chat .chat-text', { hasText: 'good luck everyone' }).waitFor();
      await page.fill('#tournament-chat .chat-input', 'table 2 has the settebello');
      await page.click('#tournament-chat .chat-send');
      await page.locator('#tournament-chat .chat-status', { hasText: 'Chat is closed while a duplicate round runs' }).waitFor();

      // at its table: the players' room is off
      await page.click('#my-tournament-match a');
      await page.waitForSelector('#chat-players .chat-form');
      await page.locator('#chat-players .chat-notice:not([hidden])', { hasText: "This match's chat is off." }).waitFor();
      await page.fill('#chat-players .chat-input', 'hi');
      await page.click('#chat-players .chat-send');
      await page.locator('#chat-players .chat-status', { hasText: "This match's chat is off." }).waitFor();
    }));

  it('a team by request: its leader accepts and declines from the queue, appoints a leader and kicks', () =>
    web.guarded(async () => {
      const page = web.page;
      const [lea, req, nope] = await Promise.all([register(web.app, 'sla'), register(web.app, 'slb'), register(web.app, 'slc')]);
      const team = await http()
        .post('/v1/teams')
        .set('authorization', auth(lea))
        .send({ name: `Closed club ${process.pid % 1000}${loads}`, description: 'by request', open: false });
      expect(team.status).toBe(201);
      const id = team.body.id as string;
      // req asks from the page; nope asks over REST
      await openAs(page, req, `/teams/${id}`);
      await page.click('#team-join');
      await page.waitForSelector('#team-request-pending');
      expect((await http().post(`/v1/teams/${id}/join`).set('authorization', auth(nope)).send({})).status).toBe(200);

      await openAs(page, lea, `/teams/${id}`);
      await page.locator(`#team-requests li[data-player="${req.username}"]`).waitFor();
      await page.locator(`#team-requests li[data-player="${nope.username}"] .decline`).click();
      await page.locator(`#team-requests li[data-player="${nope.username}"]`).waitFor({ state: 'detached' });
      await page.locator(`#team-requests li[data-player="${req.username}"] .accept`).click();
      await page.locator(`#team-members tr[data-player="${req.username}"][data-role="member"]`).waitFor();
      await page.waitForSelector('#no-team-requests');
      await page.locator(`#team-members tr[data-player="${req.username}"] .appoint`).click();
      await page.locator(`#team-members tr[data-player="${req.username}"][data-role="leader"]`).waitFor();
      await page.locator(`#team-members tr[data-player="${req.username}"] .kick`).click();
      await page.locator(`#team-members tr[data-player="${req.username}"]`).waitFor({ state: 'detached' });
      const members = await http().get(`/v1/teams/${id}/members`).set('authorization', auth(lea));
      expect(members.body.items.map((m: { username: string }) => m.username)).toEqual([lea.username]);
    }));

  it('follows and blocks from a profile: the lists, friends online, the refusal in words', () =>
    web.guarded(async () => {
      const page = web.page;
      const [cat, dan] = await Promise.all([register(web.app, 'scc'), register(web.app, 'scd')]);
      await openAs(page, cat, `/users/${dan.username}`);
      await page.click('#follow');
      await page.waitForSelector('#unfollow');
      await page.locator('#followers li', { hasText: cat.username }).waitFor();
      expect(
        (await http().get(`/v1/users/${cat.username}/following`).set('authorization', auth(cat))).body.items.map((e: { username: string }) => e.username),
      ).toEqual([dan.username]);
      // dan online (a live stream of his): in cat's friends online
      const stream = new AbortController();
      void fetch(`${web.base}/v1/stream/events`, { headers: { authorization: auth(dan) }, signal: stream.signal }).catch(() => undefined);
      try {
        await page.click('#nav-inbox');
        await page.locator('#friends-online li', { hasText: dan.username }).waitFor({ timeout: 20_000 });
      } finally {
        stream.abort();
      }

      // block: the follow ends, the button turns into Unblock, dan's message is refused
      await page.goto(`${web.base}/?load=${++loads}#/users/${dan.username}`);
      await page.click('#block');
      await page.waitForSelector('#unblock');
      expect(await page.locator('#follow, #unfollow').count()).toBe(0);
      await page.locator('#social-state', { hasText: 'You block' }).waitFor();
      const blocks = await http().get('/v1/account/blocks').set('authorization', auth(cat));
      expect(blocks.body.items.map((b: { username: string }) => b.username)).toEqual([dan.username]);
      // on cat's own profile: her blocks and the message setting
      await page.goto(`${web.base}/?load=${++loads}#/users/${cat.username}`);
      await page.locator('#my-blocks li', { hasText: dan.username }).waitFor();
      await page.selectOption('#dm-setting', 'followed');
      await page.locator('#dm-setting-saved', { hasText: 'saved' }).waitFor();
      expect((await http().get('/v1/account/message-settings').set('authorization', auth(cat))).body).toEqual({ directMessages: 'followed' });

      // dan's message to cat: refused, said in words in his panel
      await openAs(page, dan, `/messages/${cat.username}`);
      await page.waitForSelector('#direct-chat .chat-form');
      await page.fill('#direct-chat .chat-input', 'hello?');
      await page.click('#direct-chat .chat-send');
      await page.locator('#direct-chat .chat-status:not([hidden])').waitFor();
      expect(await page.locator('#direct-chat .chat-status').textContent()).toBe('You cannot message this player.');
    }));

  it('a message a moderator removes leaves an open chat panel at once', () =>
    web.guarded(async () => {
      const page = web.page;
      const text = `to be removed ${loads}`;
      const said = await http().post('/v1/lobby/chat').set('authorization', auth(bob)).send({ text });
      expect(said.status).toBe(201);
      await openAs(page, ann, '/lobby');
      const line = page.locator('#lobby-chat .chat-msg', { hasText: text });
      await line.waitFor();
      // the panel is live once a message said now reaches it
      const probe = `still here ${loads}`;
      expect((await http().post('/v1/lobby/chat').set('authorization', auth(bob)).send({ text: probe })).status).toBe(201);
      await page.locator('#lobby-chat .chat-msg', { hasText: probe }).waitFor();
      expect((await http().delete(`/v1/chat/messages/${said.body.id}?reason=spam`).set('authorization', auth(mod))).status).toBe(200);
      await line.waitFor({ state: 'detached', timeout: 5000 });
      expect(await page.locator('#lobby-chat .chat-msg', { hasText: probe }).count()).toBe(1);
    }));

  it("speaks the player's language: a profile's social box in Arabic, right to left; a chat refusal and a profile in French", () =>
    web.guarded(async () => {
      const page = web.page;
      const [gia, hal] = await Promise.all([register(web.app, 'sga'), register(web.app, 'sgb')]);
      try {
        await inLanguages(page, gia, hal);
      } finally {
        // the next tests read English
        await useLanguage(page, 'en');
      }
    }));

  /** gia's pages in Arabic and in French, hal her contact: the words, the direction, the empty states. */
  async function inLanguages(page: Page, gia: Account, hal: Account): Promise<void> {
    await openIn(page, gia, `/users/${hal.username}`, 'ar');
    await page.waitForSelector('#follow');
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    expect(await page.textContent('#follow')).toBe('متابعة');
    expect(await page.textContent('#report-user')).toBe('إبلاغ');
    await page.locator('p#followers', { hasText: 'لا متابِعين بعد.' }).waitFor();
    await page.click('#follow');
    await page.locator('#social-state', { hasText: `أنت تتابع ${hal.username}.` }).waitFor();
    await page.locator('#followers li', { hasText: gia.username }).waitFor();

    // hal blocks gia: her message is refused, in French
    expect((await http().put(`/v1/users/${gia.username}/block`).set('authorization', auth(hal))).status).toBe(200);
    await openIn(page, gia, `/messages/${hal.username}`, 'fr');
    await page.waitForSelector('#direct-chat .chat-form');
    expect(await page.getAttribute('#direct-chat .chat-input', 'placeholder')).toBe(`Écrire à ${hal.username}`);
    await page.fill('#direct-chat .chat-input', 'bonjour ?');
    await page.click('#direct-chat .chat-send');
    await page.locator('#direct-chat .chat-status:not([hidden])').waitFor();
    expect(await page.textContent('#direct-chat .chat-status')).toBe('Vous ne pouvez pas écrire à ce joueur.');
    // her own profile: the summary and the empty states in words
    await page.goto(`${web.base}/?load=${++loads}#/users/${gia.username}`);
    await page.waitForSelector('#profile-summary');
    expect(await page.textContent('#profile-summary')).toMatch(/^Membre depuis le .+ · parties classées : 0 victoire, 0 défaite, 0 nulle$/);
    expect(await page.textContent('#no-ratings')).toBe('Pas encore de partie classée : le classement commence avec la première partie classée.');
    await page.locator('#no-matches', { hasText: `${gia.username} n’a pas encore de partie terminée.` }).waitFor();
    await page.locator('#my-blocks', { hasText: 'Personne.' }).waitFor();
  }

  it('a report made from a chat message is listed in the moderators’ queue; the mute given there is said in the muted panel', () =>
    web.guarded(async () => {
      const page = web.page;
      const rude = `you play like a bot ${loads}`;
      expect((await http().post('/v1/lobby/chat').set('authorization', auth(bob)).send({ text: rude })).status).toBe(201);
      // ann reports it from the lobby's panel; no moderator link for her
      await openAs(page, ann, '/lobby');
      const line = page.locator('#lobby-chat .chat-msg', { hasText: rude });
      await line.waitFor();
      expect(await page.locator('#nav-moderation').count()).toBe(0);
      await line.locator('.chat-report').click();
      await page.fill('#report-reason', 'insults in the lobby');
      await page.click('#report-submit');
      await page.waitForSelector('#report-sent');
      await page.click('#report-close');

      // the moderator: the nav link, the queue with the report
      await openAs(page, mod, '/');
      await page.click('#nav-moderation');
      const report = page.locator('#reports li.report[data-kind="message"]', { hasText: 'insults in the lobby' });
      await report.waitFor();
      expect(await report.textContent()).toContain(ann.username);
      expect(await report.textContent()).toContain(rude);
      await web.shot('moderation-queue');
      // mute bob from the report, then remove the message
      await report.locator('.mute').click();
      await page.locator('#moderation-done', { hasText: 'muted' }).waitFor();
      await page.locator('#reports li.report[data-kind="message"]', { hasText: 'insults in the lobby' }).locator('.remove-message').click();
      await page.locator('#moderation-done', { hasText: 'message removed' }).waitFor();

      // bob: his lobby message is gone, and his next one is refused with the mute's end in words
      await openAs(page, bob, '/lobby');
      await page.waitForSelector('#lobby-chat .chat-form');
      await page.waitForFunction(() => document.querySelectorAll('#lobby-chat .chat-text').length >= 0);
      expect(await page.locator('#lobby-chat .chat-text', { hasText: rude }).count()).toBe(0);
      await page.fill('#lobby-chat .chat-input', 'sorry');
      await page.click('#lobby-chat .chat-send');
      await page.locator('#lobby-chat .chat-status', { hasText: 'muted by a moderator until' }).waitFor();
      expect(alerts).toEqual([]);
    }));

  it('a moderator lifts a ban from the queue page by username: the account logs in again', () =>
    web.guarded(async () => {
      const page = web.page;
      const banned = await register(web.app, 'sub');
      const login = () =>
        http()
          .post('/v1/auth/login')
          .send({ username: banned.username, password: `password-of-${banned.username}` });
      expect((await http().post(`/v1/admin/users/${banned.username}/ban`).set('authorization', auth(mod)).send({ reason: 'spam' })).status).toBe(200);
      expect((await login()).body.code).toBe('ACCOUNT_BANNED');

      await openAs(page, mod, '/moderation');
      await page.waitForSelector('#unban-form');
      expect(await page.getByLabel('Username').getAttribute('id')).toBe('unban-username');
      await page.fill('#unban-username', ` ${banned.username.toUpperCase()} `);
      await page.fill('#unban-reason', 'appeal accepted');
      await page.click('#unban-submit');
      await page.locator('#moderation-done', { hasText: `${banned.username} may log in again` }).waitFor();
      expect((await login()).status).toBe(200);
      const log = await http().get('/v1/admin/moderation-log').set('authorization', auth(mod)).set('accept', 'application/x-ndjson');
      expect(log.text).toContain('appeal accepted');

      // lifting the ban of an account that is not banned, or of no account: said in the banner
      await page.fill('#unban-username', `nobody${loads}x`);
      await page.click('#unban-submit');
      await page.waitForSelector('#error:not([hidden])');
      expect(await page.getAttribute('#error', 'data-code')).toBe('NOT_FOUND');
    }));
});
