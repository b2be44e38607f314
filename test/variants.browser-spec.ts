/**
 * The web client and the games of other packs (issue 28), in headless
 * Chromium:
 *
 * 1. escoba and chkobba against the real service: a person signs up,
 *    creates a match against the greedy bot and plays it by clicking; every
 *    card on the page (hand, table, captured cards) is drawn and named with
 *    the game's pack: Spanish (oros, copas, espadas, bastos; the sota,
 *    caballo and rey printed 10, 11 and 12 in their corners), Tunisian
 *    (dinari, cœur, pique, trèfle; rank 8 the queen, 9 the jack), in the
 *    player's language: one name per card (web/src/cards.ts cardName) on the
 *    faces, in the event log, in the capture prompt and the round summary
 *    ("King of clubs" in English, "Rey de bastos" in Spanish for escoba's 10B
 *    printed 12; cirulla's 8S is the "Jack of spades", printed J), never a code.
 * 2. cirulla, against the real service too: the match is created over REST
 *    with the browser's session and its first deal chosen through the
 *    person's client seed (test/support/dealt-seeds.ts: the server seed read
 *    from the store, a deterministic search run through the engine): the
 *    dealer takes the initial table, the person's hand holds the matta (7C)
 *    and may be declared with it, and the greedy bot's hand may be declared
 *    too. A "Declare" button lists the declarations the service lists, one
 *    per matta value with its scope; the one chosen goes to `POST
 *    /v1/matches/{id}/declarations` and the log records it; the matta then
 *    shows its capture value; the bot's declared hand shows face up at the
 *    person's side of the table; and once the round is played out by
 *    clicking, its summary shows the dealer's capture of the first table,
 *    every declaration, the bonus scope, the piccola and the grande, as the
 *    service scored them.
 *
 * Screenshots go to test-artifacts/variants-*.png. Run with `npm run
 * test:browser` (it builds web/ first).
 */
import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { clickCard, useWebClientPage } from './support/web-page';
import { clientSeedFor, firstHandDeclarations, holds, initialTableCaptured, serverSeedOf } from './support/dealt-seeds';
import { CARD_CODE, englishList, englishName, spanishName } from './support/card-names';

jest.setTimeout(600_000);

// The functions given to page.evaluate/waitForFunction run in the browser; the server's
// tsconfig has no DOM library, so declare the little they use.
interface DomElement {
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomElement | null;
  textContent: string | null;
  innerText: string;
}
declare const document: {
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): { length: number } & Iterable<DomElement>;
};

/** What a card on the page says of itself: its code, its title (its name) and the index its corner prints. */
interface DrawnCard {
  code: string;
  title: string;
  index: string;
}

describe('web client: the games of other packs (Chromium)', () => {
  const web = useWebClientPage({ shotPrefix: 'variants-' });
  const { shot, pageErrors, guarded } = web;
  let page: Page;
  let base: string;
  beforeAll(() => {
    ({ page, base } = web);
  });

  const api = () => request(web.app.getHttpServer());
  const get = async (p: string) => {
    const res = await api()
      .get(p)
      .set('authorization', `Bearer ${await web.sessionToken()}`);
    if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${res.text}`);
    return res.body;
  };
  const matchIdOfPage = async () => decodeURIComponent(/#\/match\/([^/]+)$/.exec(page.url())![1]);

  /**
   * The event log's lines on the page: none names a card by its code, and each
   * play names its card and what it took as the faces do (`name`), in `played`'s words.
   */
  async function checkLog(name: (code: string) => string, played: (card: string, captures: boolean) => string): Promise<number> {
    const events: any[] = await get(`/v1/matches/${await matchIdOfPage()}/events?limit=1000`);
    const lines = await page.$$eval('.log li', (els) =>
      els.map((el) => ({
        seq: Number(el.getAttribute('data-seq')),
        type: el.getAttribute('data-type'),
        text: (el as unknown as DomElement).textContent ?? '',
      })),
    );
    expect(lines.length).toBeGreaterThan(0);
    let plays = 0;
    for (const line of lines) {
      if (CARD_CODE.test(line.text)) throw new Error(`the log names a card by its code: ${JSON.stringify(line.text)}`);
      const e = events.find((x) => x.seq === line.seq);
      expect(e?.type).toBe(line.type);
      if (e.type !== 'CardPlayed') continue;
      plays++;
      expect(line.text).toContain(played(name(e.payload.card), e.payload.capture.length > 0));
      for (const c of e.payload.capture as string[]) expect(line.text).toContain(name(c));
    }
    return plays;
  }

  /** Every face-up card on the page. */
  const drawnCards = (): Promise<DrawnCard[]> =>
    web.page.evaluate(() =>
      [...document.querySelectorAll('.card[data-card]')].map((el) => ({
        code: el.getAttribute('data-card') ?? '',
        title: el.getAttribute('title') ?? '',
        index: el.querySelector('svg text.index')?.textContent ?? '',
      })),
    );

  /**
   * Creates a match of `preset` against the greedy bot and plays it by
   * clicking until a card of each of the ranks 8, 9 and 10 has been on the
   * page (hand, table or captures), checking every card shown with `expected`
   * (its name, and the index its corners print). The figures seen, by rank.
   */
  async function playAndCheckPack(
    preset: string,
    pack: string,
    expected: (rank: number, suit: string) => { name: string; index: string },
  ): Promise<Map<number, DrawnCard>> {
    const nameOf = (code: string) => expected(Number(/^(10|[1-9])/.exec(code)![1]), code.slice(-1)).name;
    await page.click('#nav-new');
    await page.waitForSelector('#create-submit');
    await page.selectOption('#preset', preset);
    await page.selectOption('#seat-1-type', 'bot');
    await page.selectOption('#seat-1-bot', 'greedy');
    await page.click('#create-submit');
    await page.waitForSelector('#my-hand .card');
    // The heading names the game as the service names it (GET /v1/rulesets: `name`), not by its id.
    const named = await page.evaluate(
      async (id) => ((await (await fetch('/v1/rulesets')).json()) as { id: string; name: string }[]).find((p) => p.id === id)?.name,
      preset,
    );
    expect(named).toBeTruthy();
    expect(await page.textContent('.match-head h1')).toContain(named);
    expect(await page.textContent('#pack')).toContain(pack);

    const figuresSeen = new Map<number, DrawnCard>();
    let checked = 0;
    const checkAll = async () => {
      for (const card of await drawnCards()) {
        const m = /^(10|[1-9])([DCSB])$/.exec(card.code);
        expect(m).not.toBeNull();
        const rank = Number(m![1]);
        const { name, index } = expected(rank, m![2]);
        // The title names the card (a playable card's title goes on with what it does).
        if (!(card.title === name || card.title.startsWith(`${name}:`) || card.title.startsWith(`${name} ·`)))
          throw new Error(`${card.code} is titled ${JSON.stringify(card.title)}, not ${JSON.stringify(name)}`);
        expect(card.index).toBe(index);
        if (rank >= 8) figuresSeen.set(rank, card);
        checked++;
      }
    };
    await checkAll();
    await shot(`${preset}-01-table`);

    for (let i = 0; i < 2000 && figuresSeen.size < 3; i++) {
      const state = await page.evaluate(() => ({
        over: !!document.querySelector('#result'),
        summary: !!document.querySelector('#round-summary'),
        choice: !!document.querySelector('#capture-choice .capture-choice:not([disabled])'),
        legal: document.querySelectorAll('#my-hand .card.legal').length,
        error: document.querySelector('#error:not([hidden])')?.innerText ?? null,
      }));
      if (state.error) throw new Error(`the client shows an error: ${state.error}`);
      await checkAll();
      if (state.summary) {
        await shot(`${preset}-02-round-scored`);
        await page.click('#continue');
      } else if (state.over) {
        break;
      } else if (state.choice) {
        // The question names the card as its face does.
        const chosen = (await page.getAttribute('#my-hand .card.chosen', 'data-card'))!;
        expect(await page.textContent('#capture-question')).toBe(`Which cards does your ${nameOf(chosen)} capture?`);
        await page.locator('#capture-choice .capture-choice').first().click();
        await page.waitForSelector('#capture-choice', { state: 'detached' });
      } else if (state.legal > 0) {
        await clickCard(page);
      } else {
        await page.waitForTimeout(50);
      }
    }
    await checkAll();
    expect(await checkLog(nameOf, (name, captures) => (captures ? ` played ${name}, capturing ` : ` played ${name} to the table`))).toBeGreaterThan(0);
    expect([...figuresSeen.keys()].sort((x, y) => x - y)).toEqual([8, 9, 10]);
    expect(checked).toBeGreaterThanOrEqual(3);
    await shot(`${preset}-03-figures`);
    // eslint-disable-next-line no-console
    console.log(`${preset}: ${checked} cards checked, figures ${[...figuresSeen.values()].map((c) => `${c.code}=${c.title}`).join(', ')}`);
    return figuresSeen;
  }

  it('draws an escoba match with the Spanish pack: oros, copas, espadas, bastos; sota, caballo, rey printed 10, 11, 12', () =>
    guarded(async () => {
      await page.goto(`${base}/`);
      await page.click('#tab-register');
      await page.fill('#username', 'dora');
      await page.fill('#password', 'dora password');
      await page.click('#auth-submit');
      await page.waitForSelector('#new-match');

      // In English, the Spanish pack's figures are the jack, knight and king, printed 10, 11 and 12.
      const printed: Record<number, string> = { 8: '10', 9: '11', 10: '12' };
      const seen = await playAndCheckPack('escoba', 'Spanish cards', (rank, suit) => ({
        name: englishName(`${rank}${suit}`, 'spanish'),
        index: printed[rank] ?? String(rank),
      }));
      expect(seen.get(8)).toMatchObject({ index: '10', title: expect.stringMatching(/^Jack of (coins|cups|swords|clubs)/) });
      expect(seen.get(9)).toMatchObject({ index: '11', title: expect.stringMatching(/^Knight of (coins|cups|swords|clubs)/) });
      expect(seen.get(10)).toMatchObject({ index: '12', title: expect.stringMatching(/^King of (coins|cups|swords|clubs)/) });

      // In Spanish, the same page names them sota, caballo, rey de oros, copas, espadas, bastos: faces and log alike.
      // Chosen from the menu, as a player does (it is kept for the account: a reload keeps it).
      await page.selectOption('#language', 'es');
      await page.waitForSelector('html[lang="es"]');
      await page.reload();
      await page.waitForSelector('#my-hand .card, #result');
      // The log's last events come over the live connection.
      await page.waitForSelector('.log li[data-type="CardPlayed"]');
      expect(await page.textContent('#pack')).toContain('baraja española');
      const faces = await drawnCards();
      expect(faces.length).toBeGreaterThan(0);
      for (const card of faces) {
        const name = spanishName(card.code);
        if (!(card.title === name || card.title.startsWith(`${name}:`) || card.title.startsWith(`${name} ·`)))
          throw new Error(`${card.code} is titled ${JSON.stringify(card.title)} in Spanish, not ${JSON.stringify(name)}`);
      }
      if (faces.some((c) => c.code === '10B')) expect(faces.find((c) => c.code === '10B')!.title).toMatch(/^Rey de bastos/);
      expect(await checkLog(spanishName, (name, captures) => (captures ? ` jugó ${name} y se llevó ` : ` echó ${name} a la mesa`))).toBeGreaterThan(0);
      await shot('escoba-04-spanish');
      await page.selectOption('#language', 'en');
      await page.waitForSelector('html[lang="en"]');
      await page.waitForSelector('#my-hand .card, #result');
      expect(pageErrors).toEqual([]);
    }));

  it('draws a chkobba match with the Tunisian pack: dinari, cœur, pique, trèfle; rank 8 the queen, 9 the jack', () =>
    guarded(async () => {
      const printed: Record<number, string> = { 8: 'Q', 9: 'J', 10: 'K' };
      const seen = await playAndCheckPack('chkobba', 'Tunisian cards', (rank, suit) => ({
        name: englishName(`${rank}${suit}`, 'tunisian'),
        index: printed[rank] ?? String(rank),
      }));
      expect(seen.get(8)).toMatchObject({ index: 'Q', title: expect.stringMatching(/^Queen of (diamonds|hearts|spades|clubs)/) });
      expect(seen.get(9)).toMatchObject({ index: 'J', title: expect.stringMatching(/^Jack of (diamonds|hearts|spades|clubs)/) });
      expect(pageErrors).toEqual([]);
    }));

  it('cirulla against the service: the declaration button lists the legal declarations by matta value, declared cards show face up, the round summary shows the first table and the bonuses', () =>
    guarded(async () => {
      // dora signed up in the first test: her session is in the browser's storage.
      const token = await web.sessionToken();
      const api = () => request(web.app.getHttpServer());
      const get = async (p: string) => {
        const res = await api().get(p).set('authorization', `Bearer ${token}`);
        if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${res.text}`);
        return res.body;
      };
      const created = await api()
        .post('/v1/matches')
        .set('authorization', `Bearer ${token}`)
        .send({ preset: 'cirulla', seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
      expect(created.status).toBe(201);
      const id: string = created.body.id;
      // The first deal: the dealer takes the initial table; dora's hand holds the matta and may
      // be declared with it; the bot's may be declared too (the greedy bot declares what scores).
      const clientSeed = clientSeedFor(await serverSeedOf(web.app, id), 'cirulla', [null, null], 0, (started) => {
        const { state } = started;
        return (
          initialTableCaptured(started) &&
          holds(state, 0, '7C') &&
          firstHandDeclarations(state, 0).some((d) => d.mattaValue !== null) &&
          firstHandDeclarations(state, 1).length > 0
        );
      });
      expect((await api().post(`/v1/matches/${id}/client-seed`).set('authorization', `Bearer ${token}`).send({ clientSeed })).status).toBe(200);
      expect((await api().post(`/v1/matches/${id}/start`).set('authorization', `Bearer ${token}`).send({})).status).toBe(200);

      await page.goto(`${base}/#/match/${id}`);
      await page.waitForSelector('#my-hand .card');
      expect(await page.textContent('#pack')).toContain('Genoese cards');
      // The Genoese pack: French suits, J Q K on the figures (the jack is rank 8), every card named as its face shows it.
      const genoese = (code: string) => englishName(code, 'genoese');
      const printed: Record<string, string> = { '8': 'J', '9': 'Q', '10': 'K' };
      expect((await drawnCards()).find((c) => c.code === '7C')).toMatchObject({ title: expect.stringMatching(/^7 of hearts/), index: '7' });
      const checkFaces = async () => {
        for (const card of await drawnCards()) {
          const rank = /^(10|[1-9])/.exec(card.code)![1];
          expect(card.index).toBe(printed[rank] ?? rank);
          if (!(card.title === genoese(card.code) || card.title.startsWith(`${genoese(card.code)}:`) || card.title.startsWith(`${genoese(card.code)} ·`)))
            throw new Error(`${card.code} is titled ${JSON.stringify(card.title)}, not ${JSON.stringify(genoese(card.code))}`);
        }
      };
      await checkFaces();
      const scope = (n: number) => (n === 1 ? '1 scopa' : `${n} scope`);

      // ---- my turn (the bot may have moved first): the declarations the service lists, as one button
      await page.waitForSelector('#declare:not([disabled])');
      const legal = await get(`/v1/matches/${id}/legal-plays`);
      const offeredByService: { mattaValue: number; points: number }[] = legal.declarations;
      expect(offeredByService.length).toBeGreaterThan(0);
      expect(offeredByService.every((d) => d.mattaValue !== null)).toBe(true);
      expect(await page.textContent('#declare')).toContain(`Declare your hand (up to ${scope(Math.max(...offeredByService.map((d) => d.points)))})`);
      await page.click('#declare');
      await page.waitForSelector('#declaration-choice');
      expect(await page.textContent('#declaration-choice')).toContain('Which value does your matta, 7 of hearts, take?');
      const offered = await page.$$eval('#declaration-choice .declaration', (els) =>
        els.map((el) => ({
          mattaValue: Number(el.getAttribute('data-matta-value')),
          points: Number(el.getAttribute('data-points')),
          text: (el as unknown as DomElement).textContent,
        })),
      );
      expect(offered.map(({ mattaValue, points }) => ({ mattaValue, points }))).toEqual(offeredByService);
      expect(offered.map((o) => o.text)).toEqual(offeredByService.map((d) => `as ${d.mattaValue}: ${scope(d.points)}`));
      await shot('04-cirulla-declarations');

      // The last one listed (the largest matta value that scores).
      const chosen = offeredByService[offeredByService.length - 1];
      const hand: string[] = (await get(`/v1/matches/${id}`)).view.hand;
      await page.click(`#declaration-choice .declaration[data-matta-value="${chosen.mattaValue}"]`);
      await page.waitForSelector('#my-declared');
      await page.waitForSelector('#declare', { state: 'detached' });
      const log = async (): Promise<any[]> => get(`/v1/matches/${id}/events?limit=1000`);
      const mine = (await log()).find((e) => e.type === 'HandDeclared' && e.payload.seat === 0);
      expect(mine.payload).toEqual({ seat: 0, cards: expect.any(Array), mattaValue: chosen.mattaValue, scope: chosen.points });
      expect([...mine.payload.cards].sort()).toEqual([...hand].sort());
      // Declared: my three cards are marked; the matta captures as the value chosen, for everyone.
      expect((await page.$$eval('#my-hand .card.declared', (els) => els.map((el) => el.getAttribute('data-card')))).sort()).toEqual([...hand].sort());
      expect(await page.textContent('#capture-values')).toContain(`The matta, 7 of hearts, captures as ${chosen.mattaValue} until the round ends.`);
      expect(await page.textContent('#my-hand .card[data-card="7C"] .capture-value')).toBe(`= ${chosen.mattaValue}`);
      const logLine = `declared ${englishList(mine.payload.cards.map(genoese))}, the matta as ${chosen.mattaValue}: ${scope(chosen.points)}`;
      await page.waitForFunction((line) => (document.querySelector('.log')?.textContent ?? '').includes(line), logLine);
      await shot('05-cirulla-declared');

      // ---- I play a card that is not the matta; the bot declares its hand: face up at my side of the table
      const first = hand.find((c) => c !== '7C')!;
      await page.click(`#my-hand .card[data-card="${first}"]`);
      if (await page.$('#capture-choice')) await page.locator('#capture-choice .capture-choice').first().click();
      await page.waitForFunction((c) => !document.querySelector(`#my-hand .card[data-card="${c}"]`), first);
      await page.waitForFunction(() => !!document.querySelector('.opponents [data-seat="1"] .declared .card'));
      // The bot has moved (my turn again): the page shows what the service shows.
      await page.waitForSelector('#my-hand .card.legal');
      const botDeclared = (await log()).find((e) => e.type === 'HandDeclared' && e.payload.seat === 1);
      expect(botDeclared).toBeDefined();
      // What the service shows every seat: the bot's declared cards it still holds, and the page shows those, face up.
      const stillHeld: string[] = (await get(`/v1/matches/${id}`)).view.seats[1].declared;
      expect(stillHeld.length).toBeGreaterThan(0);
      expect(botDeclared.payload.cards).toEqual(expect.arrayContaining(stillHeld));
      const botHand = await page.$$eval('.opponents [data-seat="1"] .declared .card', (els) =>
        els.map((el) => ({ code: el.getAttribute('data-card'), title: el.getAttribute('title'), back: (el.getAttribute('class') ?? '').includes('back') })),
      );
      expect(botHand.map((c) => c.code).sort()).toEqual([...stillHeld].sort());
      for (const c of botHand) {
        expect(c.back).toBe(false);
        expect(c.title).toMatch(/ of (diamonds|hearts|spades|clubs)$/);
        expect(c.title).toBe(genoese(c.code!));
      }
      await shot('06-cirulla-bot-declared');

      // ---- play the round out by clicking: its summary shows the first table, the declarations and the bonuses
      for (let i = 0; i < 500 && !(await page.$('#round-summary')); i++) {
        const state = await page.evaluate(() => ({
          choice: !!document.querySelector('#capture-choice .capture-choice:not([disabled])'),
          legal: document.querySelectorAll('#my-hand .card.legal').length,
          error: document.querySelector('#error:not([hidden])')?.innerText ?? null,
        }));
        if (state.error) throw new Error(`the client shows an error: ${state.error}`);
        if (state.choice) {
          const chosen = (await page.getAttribute('#my-hand .card.chosen', 'data-card'))!;
          expect(await page.textContent('#capture-question')).toBe(`Which cards does your ${genoese(chosen)} capture?`);
          await page.locator('#capture-choice .capture-choice').first().click();
          await page.waitForSelector('#capture-choice', { state: 'detached' });
        } else if (state.legal > 0) {
          await checkFaces();
          await clickCard(page);
        } else {
          await page.waitForTimeout(50);
        }
      }
      await page.waitForSelector('#round-summary');
      // The log names each play's cards as the faces do: the Genoese jack of spades is "Jack of spades", never "8S".
      expect(await checkLog(genoese, (name, captures) => (captures ? ` played ${name}, capturing ` : ` played ${name} to the table`))).toBeGreaterThan(0);
      const events = await log();
      const scored = events.find((e) => e.type === 'RoundScored' && e.payload.round === 1);
      expect(scored).toBeDefined();
      const round1 = events.filter((e) => e.seq < scored.seq);
      const initial = round1.find((e) => e.type === 'InitialTableCaptured');
      expect(initial).toBeDefined();
      const view = (await get(`/v1/matches/${id}`)).view;
      const nameOf = (seat: number) => (seat === 0 ? 'you' : view.seats[seat].player);

      const summary = page.locator('#round-summary');
      const initialItem = summary.locator('.round-bonuses .initial-capture');
      expect(await initialItem.textContent()).toContain(`First table taken by the dealer, ${nameOf(initial.payload.dealer)}`);
      expect(await initialItem.textContent()).toContain(scope(initial.payload.scope));
      expect(await initialItem.locator('.card').evaluateAll((els) => els.map((el) => el.getAttribute('data-card')))).toEqual(initial.payload.cards);
      const declaredEvents = round1.filter((e) => e.type === 'HandDeclared');
      expect(declaredEvents.length).toBeGreaterThanOrEqual(2);
      const declarations = summary.locator('.round-bonuses .declaration');
      expect(await declarations.count()).toBe(declaredEvents.length);
      for (const [n, e] of declaredEvents.entries()) {
        const text = (await declarations.nth(n).textContent()) ?? '';
        expect(text).toContain(`Hand declared by ${nameOf(e.payload.seat)}: `);
        expect(text).toContain(`${e.payload.mattaValue === null ? '' : `the matta as ${e.payload.mattaValue}, `}${scope(e.payload.scope)}`);
        expect(
          await declarations
            .nth(n)
            .locator('.card')
            .evaluateAll((els) => els.map((el) => el.getAttribute('data-card'))),
        ).toEqual(e.payload.cards);
      }
      const row = async (selector: string) => summary.locator(`table.breakdown ${selector} td`).allTextContents();
      const b = scored.payload.breakdown;
      // The bonus scope as the service scored it: the initial capture's and the declarations'.
      const bonus = [0, 1].map(
        (side) =>
          (initial.payload.side === side ? initial.payload.scope : 0) +
          declaredEvents.filter((e) => e.payload.seat === side).reduce((n, e) => n + e.payload.scope, 0),
      );
      expect(b.bonusScope).toEqual(bonus);
      expect(await row('tr.bonus-scope')).toEqual(bonus.map(String));
      expect(await row('tr.points')).toEqual(b.points.map(String));
      expect(await summary.locator('tr[data-award="piccola"] th').textContent()).toBe('Piccola (1-2-3 of diamonds, up to 6)');
      expect(await summary.locator('tr[data-award="grande"] th').textContent()).toMatch(/^Grande/);
      expect(await summary.locator('tr[data-award="denari"] th').textContent()).toBe('Most diamonds');
      // The settebello is named by the pack, not by its code.
      if (await summary.locator('tr[data-award="settebello"]').count())
        expect(await summary.locator('tr[data-award="settebello"] th').textContent()).toBe('Settebello (7 of diamonds)');
      // Its words (the cards' own faces aside) name no card by its code.
      const words = await page.$eval('#round-summary', (el) => {
        const copy = (el as unknown as { cloneNode(deep: boolean): any }).cloneNode(true);
        for (const card of copy.querySelectorAll('.card')) card.remove();
        return String(copy.textContent ?? '');
      });
      expect(words).not.toMatch(CARD_CODE);
      const awardCell = async (award: string, side: number | null) =>
        side === null ? (await row(`tr[data-award="${award}"]`)).join(' ') : (await row(`tr[data-award="${award}"]`))[side];
      expect(await awardCell('piccola', b.awards.piccola)).toContain(b.awards.piccola === null ? 'nobody' : `✓ ${b.piccolaPoints}`);
      expect(await awardCell('grande', b.awards.grande)).toContain(b.awards.grande === null ? 'nobody' : '✓');
      await shot('07-cirulla-round-summary');
      expect(pageErrors).toEqual([]);
    }));
});
