/**
 * The forms that make matches, in players' words (issue 47, items 3 to 6), in
 * headless Chromium: every game of GET /v1/rulesets offered by name with its
 * two-line summary in New match, Play someone, Challenge and the tournament
 * form (the two-player ones where only two play), translated; the clock in
 * words and the rules as labelled controls, no JSON and no ISO on screen; a
 * rated match made from the browser through a challenge (then finished, and
 * the player's profile shows the rating), a seek and New match; the
 * tournament form with every field labelled and its game, format, rounds,
 * size, start, clock, rated and duplicate sent, and words in every empty
 * section. Run with `npm run test:browser -- test/forms.browser-spec.ts`.
 */
import { jest } from '@jest/globals';
import request from 'supertest';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { playOneCardEach } from './support/play';
import { useWebClientPage, useLanguage } from './support/web-page';

jest.setTimeout(300_000);

// The functions given to page.evaluate run in the browser; the server's tsconfig has no DOM library.
declare const document: {
  querySelector(selector: string): unknown;
  querySelectorAll(selector: string): ArrayLike<FormControl>;
};
interface FormControl {
  id: string;
  type?: string;
  getAttribute(name: string): string | null;
  closest(selector: string): unknown;
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
  nextElementSibling: { tagName: string; getAttribute(name: string): string | null; getBoundingClientRect(): { left: number; right: number } } | null;
}

interface Preset {
  id: string;
  name: string;
  summary: string;
  options: { players: number };
}

describe('match forms in players’ words (Chromium)', () => {
  const web = useWebClientPage({ env: { CLIENT_SEED_WINDOW: '0' }, shotPrefix: 'forms-' });
  const http = () => request(web.app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;
  const shot = (name: string) => web.shot(name);
  let presets: Preset[];
  let bob: Account;

  beforeAll(async () => {
    presets = (await http().get('/v1/rulesets')).body;
    const { page } = web;
    const name = `fmb${process.pid % 1000}${Date.now() % 10000}`;
    await page.goto(`${web.base}/`);
    await page.click('#tab-register');
    await page.fill('#username', name);
    await page.fill('#password', `${name} password`);
    await page.click('#auth-submit');
    await page.waitForSelector('#nav-lobby');
    // bob's own session, for the few calls the test makes as him (playing a card, reading his match)
    bob = { username: name, token: await web.sessionToken(), id: '' };
  });

  const options = (selector: string) =>
    web.page.$$eval(`${selector} option`, (els) => els.map((o) => ({ value: o.getAttribute('value') ?? '', text: (o.textContent ?? '').trim() })));
  const twoPlayer = () => presets.filter((p) => p.options.players === 2);

  /** Every form control with an id has a label for it (label[for]) or an aria-label; the ids of those without. */
  const unlabelled = (form: string) =>
    web.page.evaluate((sel) => {
      const out: string[] = [];
      for (const el of Array.from(document.querySelectorAll(`${sel} input, ${sel} select, ${sel} textarea`))) {
        if (el.type === 'hidden' || el.type === 'submit') continue;
        if (!el.id || (!document.querySelector(`label[for="${el.id}"]`) && !el.getAttribute('aria-label'))) out.push(el.id || '(no id)');
      }
      return out;
    }, form);

  /** Each checkbox of a form and its label: the label is the element right after it, and starts within 16 px of it. */
  const checkboxesBesideLabels = (form: string) =>
    web.page.evaluate((sel) => {
      const out: { id: string; next: boolean; gap: number }[] = [];
      for (const box of Array.from(document.querySelectorAll(`${sel} input[type="checkbox"]`))) {
        const label = box.nextElementSibling;
        const next = !!label && label.tagName === 'LABEL' && label.getAttribute('for') === box.id;
        const b = box.getBoundingClientRect();
        const l = label?.getBoundingClientRect();
        // left to right or right to left: the space between the two boxes
        const gap = l ? Math.max(l.left - b.right, b.left - l.right) : Infinity;
        out.push({ id: box.id, next, gap });
      }
      return out;
    }, form);

  it('the tournament form: every field labelled, each checkbox beside its label; game, format, rounds, size, start, clock, rated and duplicate sent; words in every empty section', () =>
    web.guarded(async () => {
      const { page } = web;
      await page.click('#nav-tournaments');
      // ---- no tournament yet: the list says so
      await page.waitForSelector('#no-tournaments');
      expect((await page.textContent('#no-tournaments'))?.trim()).toBe('No tournament yet: create the first one below.');
      await page.waitForSelector('#tournament-preset');
      expect(await unlabelled('#tournament-form')).toEqual([]);
      const checks = await checkboxesBesideLabels('#tournament-form');
      expect(checks.map((c) => c.id).sort()).toEqual(['tournament-duplicate', 'tournament-rated']);
      for (const c of checks) {
        expect(c).toMatchObject({ next: true });
        expect(c.gap).toBeLessThanOrEqual(16);
      }
      // ---- every two-player game, by name
      expect(await options('#tournament-preset')).toEqual(twoPlayer().map((p) => ({ value: p.id, text: p.name })));
      for (const id of ['escoba', 'cirulla', 'acchiappaquindici', 'chkobba', 'chkop']) expect(twoPlayer().map((p) => p.id)).toContain(id);
      await shot('01-tournament-form');

      await page.fill('#tournament-name', 'Forms cup');
      await page.selectOption('#tournament-preset', 'escoba');
      expect(await page.locator('#tournament-preset-summary p').allTextContents()).toEqual(presets.find((p) => p.id === 'escoba')!.summary.split('\n'));
      // a round robin: its rounds follow from the players (at most 16), said in words
      await page.selectOption('#tournament-format', 'roundRobin');
      expect(await page.isDisabled('#tournament-rounds')).toBe(true);
      expect(await page.inputValue('#tournament-size')).toBe('16');
      expect(await page.getAttribute('#tournament-size', 'max')).toBe('16');
      expect(await page.textContent('#tournament-rounds-hint')).toContain('everyone meets everyone once');
      await page.selectOption('#tournament-format', 'swiss');
      expect(await page.isDisabled('#tournament-rounds')).toBe(false);
      await page.fill('#tournament-rounds', '2');
      await page.fill('#tournament-size', '8');
      const local = new Date(Date.now() + 2 * 86_400_000);
      const pad = (n: number) => String(n).padStart(2, '0');
      const startsAt = `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}T${pad(local.getHours())}:${pad(local.getMinutes())}`;
      await page.fill('#tournament-starts-at', startsAt);
      const expectedStart = await page.evaluate((v) => new Date(v).toISOString(), startsAt);
      // no clock: nothing to run out; with one, what its running out does, in words
      expect(await page.isVisible('#tournament-limit-expiry')).toBe(false);
      await page.selectOption('#tournament-limit', 'P1D');
      expect(await options('#tournament-limit-expiry')).toEqual([
        { value: 'autoPlay', text: 'a card is played for them' },
        { value: 'forfeit', text: 'they lose the match' },
      ]);
      await page.selectOption('#tournament-limit-expiry', 'forfeit');
      await page.check('#tournament-rated');
      await page.check('#tournament-duplicate');
      await page.click('#tournament-create');
      await page.waitForSelector('#tournament[data-status="created"]');
      const id = decodeURIComponent(page.url().split('#/tournament/')[1]);
      expect((await http().get(`/v1/tournaments/${id}`)).body).toMatchObject({
        name: 'Forms cup',
        preset: 'escoba',
        format: 'swiss',
        rounds: 2,
        maxPlayers: 8,
        startsAt: expectedStart,
        turnTimeLimit: 'P1D',
        onExpiry: 'forfeit',
        rated: true,
        duplicate: true,
        overrides: {},
      });
      // ---- its page: the settings in words, and each empty section says why
      const facts = (await page.textContent('#tournament-facts')) ?? '';
      expect(facts).toContain('Escoba');
      expect(facts).toContain('1 day per move');
      expect(facts).toContain('0 of at most 8 players');
      expect(facts).not.toMatch(/\bP1D\b|escoba/);
      expect((await page.textContent('#no-players'))?.trim()).toBe('No player yet: join to be the first.');
      expect((await page.textContent('#no-standings'))?.trim()).toBe('The standings appear after the first round is paired.');
      expect((await page.textContent('#no-rounds'))?.trim()).toBe('No round yet: the first is paired when the tournament starts.');
      await shot('02-tournament-empty');
      // ---- the list names the game
      await page.click('#nav-tournaments');
      await page.waitForSelector(`tr[data-tournament="${id}"]`);
      expect(await page.textContent(`tr[data-tournament="${id}"]`)).toContain('Escoba');
      expect(web.pageErrors).toEqual([]);
    }));

  it('offers every game by name with its two-line summary in New match, Play someone and Challenge; clocks in words, rules as controls; in Italian too', () =>
    web.guarded(async () => {
      const { page } = web;
      const ids = presets.map((p) => p.id);
      for (const id of ['escoba', 'cirulla', 'acchiappaquindici', 'chkobba', 'chkop', 'scopone']) expect(ids).toContain(id);

      // ---- New match: every game, by name; the chosen game's two lines
      await page.click('#nav-new');
      await page.waitForSelector('#create-submit');
      expect(await options('#preset')).toEqual(presets.map((p) => ({ value: p.id, text: p.name })));
      for (const p of presets) {
        await page.selectOption('#preset', p.id);
        expect(await page.locator('#preset-summary p').allTextContents()).toEqual(p.summary.split('\n'));
      }
      // no JSON, no ISO: the clock in words, the rules as labelled controls
      expect(await page.locator('#create-form textarea').count()).toBe(0);
      const clocks = await options('#turn-limit');
      expect(clocks.map((c) => c.text)).toEqual(expect.arrayContaining(['No clock', '30 seconds per move', '1 day per move', '3 days per move']));
      expect(clocks.find((c) => c.value === 'P3D')?.text).toBe('3 days per move');
      for (const c of clocks) expect(c.text).not.toMatch(/^P|PT\d/);
      await page.selectOption('#preset', 'cirulla');
      await page.click('#rules-details summary');
      expect(await unlabelled('#create-form')).toEqual([]);
      for (const c of await checkboxesBesideLabels('#create-form')) {
        expect(c.next).toBe(true);
        expect(c.gap).toBeLessThanOrEqual(16);
      }
      // the controls start at the game's values (cirulla: sums or 15, an ace sweeps, the seven of hearts wild)
      expect(await page.inputValue('#option-capture')).toBe('matchOrFifteen');
      expect(await page.isChecked('#option-aceSweeps')).toBe(true);
      expect(await page.inputValue('#option-matta')).toBe('7C');
      expect(await page.inputValue('#option-tripleBonus')).toBe('10');
      expect(await page.textContent('#option-capture option:checked')).not.toContain('matchOrFifteen');
      await shot('03-new-match-rules');

      // ---- Play someone: every game; Challenge: every two-player game
      await page.click('#nav-lobby');
      await page.waitForSelector('#seek-preset');
      expect(await options('#seek-preset')).toEqual(presets.map((p) => ({ value: p.id, text: p.name })));
      expect(await options('#challenge-preset')).toEqual(twoPlayer().map((p) => ({ value: p.id, text: p.name })));
      expect((await options('#seek-limit')).find((c) => c.value === 'P1D')?.text).toBe('1 day per move');
      expect(await unlabelled('#seek-form')).toEqual([]);
      expect(await unlabelled('#challenge-form')).toEqual([]);
      await page.selectOption('#seek-preset', 'chkop');
      expect(await page.locator('#seek-preset-summary p').allTextContents()).toEqual(presets.find((p) => p.id === 'chkop')!.summary.split('\n'));
      await shot('04-lobby-forms');

      // ---- in Italian: the names, summaries and clocks translated
      await useLanguage(page, 'it');
      try {
        await page.goto(`${web.base}/?lang=it#/new`);
        await page.waitForSelector('#create-submit');
        expect(await page.textContent('#preset option[value="scopa-simple"]')).toBe('Scopa semplice');
        expect(await page.textContent('#turn-limit option[value="P3D"]')).toBe('3 giorni per mossa');
        expect(await page.textContent('#turn-limit option[value=""]')).toBe('Senza tempo');
        await page.selectOption('#preset', 'escoba');
        const summary = await page.locator('#preset-summary p').allTextContents();
        expect(summary).toHaveLength(2);
        expect(summary[0]).toMatch(/^Il gioco spagnolo/);
        expect(await page.textContent('label[for="rated"]')).toBe('Valida per il punteggio');
        await shot('05-new-match-it');
        // ---- in Arabic, right to left: Arabic's plural forms, each checkbox still beside its label
        await useLanguage(page, 'ar');
        await page.goto(`${web.base}/?lang=ar#/new`);
        await page.waitForSelector('#create-submit');
        expect(await page.evaluate(() => (document.querySelector('html') as { dir: string }).dir)).toBe('rtl');
        expect(await page.textContent('#turn-limit option[value="P3D"]')).toBe('3 أيام لكل نقلة');
        expect(await page.textContent('#turn-limit option[value="P14D"]')).toBe('14 يومًا لكل نقلة');
        expect(await page.textContent('#preset option[value="chkobba"]')).toBe('شكبّة');
        await page.click('#rules-details summary');
        for (const c of await checkboxesBesideLabels('#create-form')) {
          expect(c.next).toBe(true);
          expect(c.gap).toBeLessThanOrEqual(16);
        }
        await shot('05b-new-match-ar');
      } finally {
        await useLanguage(page, 'en');
        await page.goto(`${web.base}/?lang=en#/`);
        await page.waitForSelector('#nav-lobby');
      }

      // ---- on a phone (360 px): nothing of the forms sticks out of its panel (the top bar is another part's)
      await page.setViewportSize({ width: 360, height: 800 });
      try {
        for (const [hash, ready] of [
          ['#/new', '#create-submit'],
          ['#/lobby', '#seek-preset'],
          ['#/tournaments', '#tournament-preset'],
        ]) {
          await page.goto(`${web.base}/${hash}`);
          await page.waitForSelector(ready);
          if (hash === '#/new') await page.click('#rules-details summary');
          const widths = await page.evaluate(() => {
            const panel = document.querySelector('main .panel') as { scrollWidth: number; clientWidth: number };
            return { scroll: panel.scrollWidth, client: panel.clientWidth };
          });
          expect({ hash, ...widths }).toEqual({ hash, scroll: widths.client, client: widths.client });
          await shot(`07-phone-${hash.slice(2)}`);
        }
      } finally {
        await page.setViewportSize({ width: 1200, height: 900 });
      }
      expect(web.pageErrors).toEqual([]);
    }));

  it('makes rated matches from the browser (a challenge, a seek, New match); the finished one gives the player a rating on the profile', () =>
    web.guarded(async () => {
      const { page } = web;
      const alice = await register(web.app, 'fma');

      // ---- a rated challenge, in a new game
      await page.click('#nav-lobby');
      await page.waitForSelector('#challenge-preset');
      await page.fill('#challenge-user', alice.username);
      await page.selectOption('#challenge-preset', 'chkobba');
      await page.selectOption('#challenge-limit', 'P1D');
      await page.check('#challenge-rated');
      await page.click('#challenge-submit');
      await page.waitForSelector('li.challenge-out');
      expect(await page.textContent('li.challenge-out')).toContain('Chkobba, 1 day per move, rated');
      const mine = (await http().get('/v1/challenges').set('authorization', auth(alice))).body;
      expect(mine.in).toHaveLength(1);
      expect(mine.in[0]).toMatchObject({ challenger: bob.username, preset: 'chkobba', turnTimeLimit: 'P1D', rated: true });
      const accepted = (await http().post(`/v1/challenges/${mine.in[0].id}/accept`).set('authorization', auth(alice))).body;
      const matchId = accepted.matchId as string;
      await page.waitForSelector(`#challenge-answers li.accepted a[href="#/match/${matchId}"]`, { timeout: 15_000 });
      const m = (await http().get(`/v1/matches/${matchId}`).set('authorization', auth(alice))).body;
      expect(m.view.settings.rated).toBe(true);
      expect(m.view.preset).toBe('chkobba');

      // finished: a card each (a rated match counts from then), then alice resigns
      await playOneCardEach(web.app, [alice, bob], matchId);
      expect((await http().post(`/v1/matches/${matchId}/resign`).set('authorization', auth(alice)).send({})).status).toBe(200);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const profile = (await http().get(`/v1/users/${bob.username}`)).body;
        if ((profile.ratings as { ruleset: string }[]).some((r) => r.ruleset === 'chkobba')) break;
        if (Date.now() > deadline) throw new Error('the rated match was never recorded');
        await new Promise((r) => setTimeout(r, 100));
      }
      await page.click('#nav-profile');
      const row = page.locator('#ratings tr[data-pool="chkobba"]');
      await row.waitFor();
      expect(await row.locator('.rating').textContent()).toMatch(/^\d{3,4}\??$/);
      expect(await row.locator('.games').textContent()).toBe('1');
      await shot('06-profile-rated');

      // ---- a rated seek: paired with alice's, the match is rated
      await page.click('#nav-lobby');
      await page.waitForSelector('#seek-preset');
      await page.selectOption('#seek-preset', 'escoba');
      await page.check('#seek-rated');
      await page.click('#seek-submit');
      await page.waitForFunction(() => ((document.querySelector('#seek-status') as { textContent: string } | null)?.textContent ?? '').length > 0);
      expect(await page.textContent('#seek-status')).toContain('Seeking an opponent');
      const paired = (await http().post('/v1/seeks').set('authorization', auth(alice)).send({ preset: 'escoba', rated: true })).body;
      expect(paired.matchId).toEqual(expect.any(String));
      const sm = (await http().get(`/v1/matches/${paired.matchId}`).set('authorization', auth(alice))).body;
      expect(sm.view.settings.rated).toBe(true);
      expect(sm.view.preset).toBe('escoba');
      expect(sm.view.seats.map((s: { player: string }) => s.player).sort()).toEqual([alice.username, bob.username].sort());

      // ---- New match, rated: the rules locked to the game's, no bot seat, an open seat
      await page.click('#nav-new');
      await page.waitForSelector('#create-submit');
      await page.selectOption('#preset', 'scopa');
      await page.fill('#target', '5');
      await page.check('#rated');
      expect(await page.inputValue('#target')).toBe('11');
      expect(await page.isDisabled('#target')).toBe(true);
      expect(await page.isDisabled('#option-capture')).toBe(true);
      expect(await page.inputValue('#seat-1-type')).toBe('open');
      expect(await page.isDisabled('#seat-1-type option[value="bot"]')).toBe(true);
      await page.click('#create-submit');
      await page.waitForURL(/#\/match\//);
      const created = (
        await http()
          .get(`/v1/matches/${decodeURIComponent(page.url().split('#/match/')[1])}`)
          .set('authorization', auth(bob))
      ).body;
      expect(created.view.settings.rated).toBe(true);
      expect(created.view.options.target).toBe(11);
      expect(created.view.seats[1].player ?? null).toBeNull();
      expect(await page.isVisible('#error:not([hidden])')).toBe(false);
      expect(web.pageErrors).toEqual([]);
    }));
});
