/**
 * The table with the keyboard alone, and what a screen reader hears (issue
 * 47), in headless Chromium: a person plays a whole match against the greedy
 * bot with page.keyboard only, no click: the hand's cards are focusable
 * buttons (the arrow keys move between them, Enter plays), the capture
 * choice opens with its first option focused, each round's summary is a
 * dialog whose "Next round" has the focus, and at the end "Play again" has
 * it and starts the rematch. Meanwhile the polite live region
 * (`#table-announcer`) tells each play in words (who played which card, what
 * it took, scopa), whose turn it is, each round's result and the match's,
 * checked against the service's own log.
 */
import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { playAnswered, useWebClientPage, useLanguage } from './support/web-page';
import { register } from './support/clients';
import { CARD_CODE, englishList, englishName } from './support/card-names';
import { clientSeedFor, serverSeedOf } from './support/dealt-seeds';
import { cardCode, legalPlaysOf } from '../src/engine';

jest.setTimeout(600_000);

interface DomElement {
  getAttribute(name: string): string | null;
  closest(selector: string): DomElement | null;
  textContent: string | null;
  id: string;
  tagName: string;
  disabled?: boolean;
}
declare const document: {
  activeElement: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): { length: number } & Iterable<DomElement>;
};
declare const localStorage: { setItem(key: string, value: string): void };
declare const location: { hash: string };

/** Where the keyboard is, and what the table asks for. */
interface TableState {
  focus: { id: string; tag: string; card: string | null; inHand: boolean; legal: boolean; inChoice: boolean };
  summary: boolean;
  choice: boolean;
  over: boolean;
  myTurn: boolean;
  legal: number;
  hand: number;
  error: string | null;
}

const state = (page: Page): Promise<TableState> =>
  page.evaluate(() => {
    const el = document.activeElement;
    return {
      focus: {
        id: el?.id ?? '',
        tag: el?.tagName ?? '',
        card: el?.getAttribute('data-card') ?? null,
        inHand: !!el?.closest('#my-hand'),
        legal: (el?.getAttribute('class') ?? '').split(' ').includes('legal'),
        inChoice: !!el?.closest('#capture-choice'),
      },
      summary: !!document.querySelector('#round-summary'),
      choice: !!document.querySelector('#capture-choice .capture-choice:not([disabled])'),
      over: !!document.querySelector('#result'),
      myTurn: !!document.querySelector('#turn-status.mine'),
      legal: document.querySelectorAll('#my-hand .card.legal').length,
      hand: document.querySelectorAll('#my-hand button.card').length,
      error: document.querySelector('#error:not([hidden])')?.textContent ?? null,
    };
  });

describe('the table with the keyboard alone, and its live announcements (Chromium)', () => {
  const web = useWebClientPage({ shotPrefix: 'keyboard-' });
  const { shot, pageErrors, guarded } = web;

  it('plays a whole match against the greedy bot with the keyboard only, announcing plays, turns and results; then the rematch', () =>
    guarded(async () => {
      const { page, base } = web;
      const http = () => request(web.app.getHttpServer());
      const me = await register(web.app, 'keys');
      const auth = { authorization: `Bearer ${me.token}` };
      const created = await http()
        .post('/v1/matches')
        .set(auth)
        .send({ preset: 'scopa', overrides: { target: 4 }, seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
      expect(created.status).toBe(201);
      const id: string = created.body.id;
      /** The card of my first hand that captures in more than one way. */
      let chooser = '';
      // The first deal through my client seed (test/support/dealt-seeds.ts): I play first, and a card of my hand
      // can capture in more than one way, so that the capture choice comes up and is played by keyboard too.
      const clientSeed = clientSeedFor(await serverSeedOf(web.app, id), 'scopa', [null, null], 0, ({ state }) => {
        if (state.turn !== 0 || !state.options) return false;
        const ways = new Map<number, number>();
        for (const p of legalPlaysOf(state.options, state.hands[0], state.table, false)) ways.set(p.card, (ways.get(p.card) ?? 0) + 1);
        const card = [...ways].find(([, n]) => n > 1)?.[0];
        if (card === undefined) return false;
        chooser = cardCode(card);
        return true;
      });
      expect((await http().post(`/v1/matches/${id}/client-seed`).set(auth).send({ clientSeed })).status).toBe(200);
      expect((await http().post(`/v1/matches/${id}/start`).set(auth).send({})).status).toBe(200);

      await page.goto(`${base}/`);
      await page.evaluate(
        ([token, username]) => localStorage.setItem('scopa.session', JSON.stringify({ token, username, expiresAt: Date.now() + 3_600_000 })),
        [me.token, me.username],
      );
      await page.goto(`${base}/#/match/${id}`);
      await page.reload(); // the client reads its stored session when it loads
      await page.waitForSelector('#my-hand button.card');
      const opened = (await http().get(`/v1/matches/${id}`).set(auth)).body.seq as number;

      // The live region is polite and there from the start.
      expect(await page.getAttribute('#table-announcer', 'aria-live')).toBe('polite');
      const heard: string[] = [];
      const listen = async () => {
        const lines = await page.$$eval('#table-announcer p', (els) => els.map((el) => (el as unknown as DomElement).textContent ?? ''));
        // The region keeps its last lines: add the new ones (a line repeats only when said again, e.g. "Your turn.").
        let overlap = Math.min(heard.length, lines.length);
        while (overlap > 0 && heard.slice(heard.length - overlap).join('\n') !== lines.slice(0, overlap).join('\n')) overlap--;
        heard.push(...lines.slice(overlap));
      };

      let plays = 0;
      let choices = 0;
      let rounds = 0;
      let arrows = 0;
      let movedAlong = false;
      for (let i = 0; i < 4000; i++) {
        await listen();
        const s = await state(page);
        if (s.error) throw new Error(`the client shows an error: ${s.error}`);
        if (s.summary) {
          // The round's summary is a dialog: its button has the focus; Tab stays on it; Enter goes on.
          await page.waitForFunction(() => document.activeElement?.id === 'continue');
          await page.keyboard.press('Tab');
          expect((await state(page)).focus.id).toBe('continue');
          rounds++;
          if (rounds === 1) await shot('02-round-summary');
          await page.keyboard.press('Enter');
          await page.waitForSelector('#round-summary', { state: 'detached' });
          continue;
        }
        if (s.over) break;
        if (s.choice) {
          // The choice opens with its first option focused; Tab reaches the others, Enter takes one.
          await page.waitForFunction(() => !!document.activeElement?.closest('#capture-choice'));
          choices++;
          if (choices === 1) await shot('03-capture-choice');
          await page.keyboard.press('Tab');
          expect((await state(page)).focus.inChoice).toBe(true);
          await page.keyboard.press('Enter');
          plays++;
          await page.waitForSelector('#capture-choice', { state: 'detached' });
          continue;
        }
        if (s.myTurn && s.legal > 0) {
          // My turn: the focus is in my hand (on the first card when nothing else had it).
          if (!s.focus.inHand) {
            for (let tab = 0; tab < 60 && !(await state(page)).focus.inHand; tab++) await page.keyboard.press('Tab');
          }
          if (!movedAlong && s.hand > 1) {
            // Along the hand: right goes to the next card, left back, End to the last, Home to the first.
            const cards = await page.$$eval('#my-hand button.card', (els) => els.map((el) => el.getAttribute('data-card')));
            const from = (await state(page)).focus.card;
            const at = cards.indexOf(from);
            await page.keyboard.press('ArrowRight');
            expect((await state(page)).focus.card).toBe(cards[(at + 1) % cards.length]);
            await page.keyboard.press('ArrowLeft');
            expect((await state(page)).focus.card).toBe(from);
            await page.keyboard.press('End');
            expect((await state(page)).focus.card).toBe(cards[cards.length - 1]);
            await page.keyboard.press('Home');
            expect((await state(page)).focus.card).toBe(cards[0]);
            movedAlong = true;
          }
          // The arrows move along the hand to a card that can be played (first, the one that asks which capture).
          const wanted = (f: TableState['focus']) => (choices === 0 && s.hand === 3 && !plays ? f.card === chooser : f.legal);
          for (let step = 0; step < s.hand && !wanted((await state(page)).focus); step++) {
            await page.keyboard.press('ArrowRight');
            arrows++;
          }
          const f = (await state(page)).focus;
          expect(f.inHand).toBe(true);
          expect(f.legal).toBe(true);
          await page.keyboard.press('Enter');
          await playAnswered(page, f.card);
          if (!(await page.$('#capture-choice'))) plays++;
          if (plays === 1) await shot('01-first-play');
          continue;
        }
        await page.waitForTimeout(50);
      }
      await listen();
      expect(await page.textContent('#result')).toContain('Match over');
      expect(plays).toBeGreaterThan(5);
      expect(rounds).toBeGreaterThan(0);
      expect(movedAlong).toBe(true);
      expect(choices).toBeGreaterThan(0);

      // ---- what was announced, against the service's log (the events after the page opened)
      const events: any[] = (await http().get(`/v1/matches/${id}/events?limit=1000`).set(auth)).body;
      const view = (await http().get(`/v1/matches/${id}`).set(auth)).body.view;
      const nameOf = (seat: number) => view.seats[seat].player as string;
      const bot = nameOf(1);
      const said = heard.join('\n');
      for (const line of heard) if (CARD_CODE.test(line)) throw new Error(`an announcement names a card by its code: ${JSON.stringify(line)}`);
      const later = events.filter((e) => e.seq > opened);
      const botPlays = later.filter((e) => e.type === 'CardPlayed' && e.payload.seat === 1);
      expect(botPlays.length).toBeGreaterThan(0);
      for (const e of [...later.filter((x) => x.type === 'CardPlayed')]) {
        const who = nameOf(e.payload.seat);
        const card = englishName(e.payload.card);
        const expected = e.payload.capture.length
          ? `${who} played ${card}, capturing ${englishList(e.payload.capture.map((c: string) => englishName(c)))}`
          : `${who} played ${card} to the table`;
        expect(heard).toContain(`${expected}${e.payload.scopa ? ' — scopa!' : ''}`);
      }
      // Whose turn: mine and the bot's.
      expect(heard).toContain('Your turn.');
      expect(heard).toContain(`Turn of ${bot}.`);
      // Each round's result, and the match's.
      for (const e of later.filter((x) => x.type === 'RoundScored'))
        expect(said).toContain(
          `Round ${e.payload.round} over: ${me.username} (you) ${e.payload.breakdown.points[0]} and ${bot} ${e.payload.breakdown.points[1]}. Totals ${e.payload.totals.join('–')}.`,
        );
      const ended = later.find((x) => x.type === 'MatchEnded');
      const why: Record<string, string> = { points: 'on points', allDenari: 'by taking all ten coins' };
      expect(said).toContain(
        `Match over: ${ended.payload.winner === 0 ? `${me.username} (you) wins` : `${bot} wins`} ${why[ended.payload.reason]}, ${ended.payload.totals.join('–')}`,
      );
      await shot('04-over');
      // eslint-disable-next-line no-console
      console.log(`keyboard: ${plays} plays, ${choices} choices, ${rounds} rounds, ${arrows} arrow presses, ${heard.length} announcements`);

      // ---- at the end the focus is on "Play again": Enter starts the rematch, with its table
      await page.waitForFunction(() => document.activeElement?.id === 'rematch');
      expect(await page.textContent('#rematch')).toBe('Play again');
      await page.keyboard.press('Enter');
      await page.waitForFunction((old) => !location.hash.endsWith(old) && /#\/match\//.test(location.hash), id);
      const next = decodeURIComponent(/#\/match\/([^/]+)$/.exec(page.url())![1]);
      expect(next).not.toBe(id);
      const rematch = (await http().get(`/v1/matches/${next}`).set(auth)).body;
      expect(rematch.rematchOf).toBe(id);
      await page.waitForSelector('#my-hand button.card');
      // As soon as it is my turn there, the keyboard is in my hand.
      await page.waitForSelector('#turn-status.mine');
      await page.waitForFunction(() => !!document.activeElement?.closest('#my-hand'));
      await shot('05-rematch');

      // ---- in Arabic (right to left): the same table, its cards named in Arabic, the turn announced in Arabic
      await useLanguage(page, 'ar');
      await page.reload();
      await page.waitForSelector('#my-hand button.card');
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      const titles = await page.$$eval('#my-hand button.card', (els) => els.map((el) => el.getAttribute('title') ?? ''));
      expect(titles.length).toBeGreaterThan(0);
      for (const title of titles) expect(title).toMatch(/(الدنانير|الكؤوس|السيوف|العصي)/);
      await page.waitForSelector('#turn-status.mine');
      await page.waitForFunction(() => [...document.querySelectorAll('#table-announcer p')].some((p) => p.textContent === 'دورك.'));
      await shot('06-arabic');
      await useLanguage(page, 'en');
      expect(pageErrors).toEqual([]);
    }));
});
