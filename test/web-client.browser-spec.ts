/**
 * The reference web client, end to end in headless Chromium (Debian's
 * `chromium` package driven by playwright-core): a person signs up, creates a
 * match against the greedy bot, plays it to the end by clicking (choosing
 * among captures when asked), then opens its replay and steps through it
 * (the client seed it gave when creating, re-checked in the page).
 * CLIENT_SEED_WINDOW is 60 s here: had the client given no seed, the start
 * would wait that long and the table would show no hand in time.
 * Screenshots go to test-artifacts/. Run with `npm run test:browser` (it
 * builds web/ first).
 */
import { jest } from '@jest/globals';
import request from 'supertest';
import { clickCard, useWebClientPage } from './support/web-page';

jest.setTimeout(600_000);

// The functions given to page.evaluate/waitForFunction run in the browser; the server's
// tsconfig has no DOM library, so declare the little they use.
declare const document: {
  querySelector(selector: string): { textContent: string | null; innerText: string } | null;
  querySelectorAll(selector: string): { length: number };
};

describe('web client (Chromium)', () => {
  const web = useWebClientPage();
  const { shot, pageErrors } = web;

  it('signs up, plays a whole match against the greedy bot by clicking, then replays it', () => web.guarded(scenario));

  async function scenario(): Promise<void> {
    const { page, base } = web;
    // ---- an error is shown with its message in the player's words first, then its code, small
    await page.goto(`${base}/`);
    await page.fill('#username', 'nobody');
    await page.fill('#password', 'wrong password');
    await page.click('#auth-submit');
    await page.waitForSelector('#error:not([hidden])');
    expect(await page.getAttribute('#error', 'data-code')).toBe('UNAUTHENTICATED');
    expect(await page.textContent('#error .error-message')).toBe('Wrong username or password, or your session has ended.');
    expect(await page.textContent('#error .error-code')).toBe('Code: UNAUTHENTICATED');
    expect(await page.textContent('#error')).toMatch(/^Wrong username or password/);
    await shot('01-login-error');

    // ---- sign up
    await page.click('#tab-register');
    await page.fill('#username', 'carla');
    await page.fill('#password', 'carla password');
    await page.click('#auth-submit');
    await page.waitForSelector('#new-match');
    await shot('02-inbox-empty');

    // ---- a match against the greedy bot, to 9 points (option overrides)
    await page.click('#new-match');
    await page.waitForSelector('#create-submit');
    await page.selectOption('#preset', 'scopa');
    await page.fill('#target', '9');
    // Another rule from its labelled control: "fifteen" captures offer more choices among captures.
    await page.click('#rules-details summary');
    await page.selectOption('#option-capture', 'fifteen');
    // The clock in words, sent as ISO 8601.
    expect((await page.textContent('#turn-limit option[value="PT1H"]'))?.trim()).toBe('1 hour per move');
    await page.selectOption('#turn-limit', 'PT1H');
    await page.selectOption('#seat-1-type', 'bot');
    await page.selectOption('#seat-1-bot', 'greedy');
    await shot('03-new-match');
    await page.click('#create-submit');
    await page.waitForSelector('#my-hand');
    // The match plays what the form said: the two overridden options and the clock.
    const created = (
      await request(web.app.getHttpServer())
        .get(`/v1/matches/${decodeURIComponent(page.url().split('#/match/')[1])}`)
        .set('authorization', `Bearer ${await web.sessionToken()}`)
    ).body;
    expect(created.view.options).toMatchObject({ target: 9, capture: 'fifteen', players: 2 });
    expect(created.view.settings.turnTimeLimit).toBe('PT1H');
    await page.waitForSelector('#my-hand .card.legal, #turn-status');
    // A timed match: the turn's deadline is shown (from the inbox query).
    await page.waitForSelector('#turn-deadline');
    await shot('04-table');
    // The inbox lists the match as my turn, with its deadline.
    await page.click('#nav-inbox');
    await page.waitForSelector('table.inbox tr.my-turn');
    expect(await page.textContent('table.inbox tr.my-turn')).toContain('your turn');
    expect(await page.textContent('table.inbox tr.my-turn')).not.toContain('untimed');
    await shot('04b-inbox-my-turn');
    await page.click('table.inbox tr.my-turn a');
    await page.waitForSelector('#my-hand .card.legal');

    // ---- play to the end by clicking
    let plays = 0;
    let choices = 0;
    let rounds = 0;
    for (let i = 0; i < 2000; i++) {
      const state = await page.evaluate(() => ({
        over: !!document.querySelector('#result'),
        summary: !!document.querySelector('#round-summary'),
        choice: !!document.querySelector('#capture-choice .capture-choice:not([disabled])'),
        legal: document.querySelectorAll('#my-hand .card.legal').length,
        capturing: document.querySelectorAll('#my-hand .card.legal.captures').length,
        error: document.querySelector('#error:not([hidden])')?.innerText ?? null,
      }));
      if (state.error) throw new Error(`the client shows an error: ${state.error}`);
      if (state.summary) {
        rounds++;
        await shot(`06-round-${rounds}-scored`);
        await page.click('#continue');
        continue;
      }
      if (state.over) break;
      if (state.choice) {
        choices++;
        if (choices === 1) await shot('05-capture-choice');
        const options = page.locator('#capture-choice .capture-choice');
        await options.nth((await options.count()) - 1).click();
        plays++;
        await page.waitForSelector('#capture-choice', { state: 'detached' });
        continue;
      }
      if (state.legal > 0) {
        // Prefer a capture (more interesting, and it may ask which capture).
        // Either the play went through, or a choice is asked, or the round's summary came up
        // over the table first (a new round dealt while we looked).
        await clickCard(page, state.capturing ? '#my-hand .card.legal.captures' : '#my-hand .card.legal');
        if (!(await page.$('#capture-choice')) && !(await page.$('#round-summary'))) plays++;
        continue;
      }
      await page.waitForTimeout(50);
    }
    expect(await page.textContent('#result')).toContain('Match over');
    expect(plays).toBeGreaterThan(10);
    expect(rounds).toBeGreaterThan(0);
    await shot('07-match-over');
    // eslint-disable-next-line no-console
    console.log(`web client: ${plays} plays clicked, ${choices} capture choices, ${rounds} rounds`);

    // ---- the inbox lists it as over
    await page.click('#nav-inbox');
    await page.waitForSelector('table.inbox');
    expect(await page.textContent('table.inbox')).toContain('over');
    await shot('08-inbox');
    await page.goBack();
    await page.waitForSelector('#open-replay');

    // ---- the replay: audit verdict, then step and scrub
    await page.click('#open-replay');
    await page.waitForSelector('#audit-verdict');
    await page.waitForSelector('#replay-table');
    expect(await page.textContent('#audit-verdict')).toContain('sound');
    expect(await page.textContent('#audit-verdict')).toContain('hash chain and rules checked');
    expect(await page.textContent('#seed-check')).toContain('equals the commitment');
    // ---- the seeds: carla's own (from the browser's CSPRNG), the bot's none, every deal re-derived in the page
    const seeds = await page.evaluate(() => ({
      carla: document.querySelector('#client-seeds li[data-seat="0"]')?.textContent ?? '',
      bot: document.querySelector('#client-seeds li[data-seat="1"]')?.textContent ?? '',
    }));
    expect(seeds.carla).toMatch(/seat 0 .*: [0-9a-f]{64}$/);
    expect(seeds.bot).toContain('a bot gives no seed');
    await page.waitForSelector('#deck-check .ok');
    expect(await page.textContent('#commitment-first')).toContain('✓ The server committed to its seed (event #1) before any client seed');
    expect(await page.textContent('#deck-check')).toMatch(/✓ Every deal \(\d+\) follows from the deck seed/);
    expect(await page.textContent('#your-seed')).toContain('✓ Your seed (seat 0) changed the deal');
    expect(await page.textContent('#operator-proof')).toContain('Operator-proof: a human seat gave a seed');
    await shot('09a-replay-seeds');
    const label = async () => (await page.textContent('#step-label')) ?? '';
    const total = Number(/\/ (\d+)/.exec(await label())![1]);
    expect(total).toBeGreaterThan(plays);
    // The replay opens on the first event that shows something: the first deal, not the match's creation.
    const opening = Number(/^event (\d+) \//.exec(await label())![1]);
    expect(opening).toBeGreaterThan(1);
    expect(await page.textContent('#current-event')).toContain('Round 1 dealt: on the table');
    expect(await page.locator('#replay-table .card').count()).toBeGreaterThan(0);
    await shot('09-replay-start');
    for (let n = opening + 1; n <= opening + 7; n++) {
      await page.click('#step-forward');
      await page.waitForFunction((want) => document.querySelector('#step-label')?.textContent === want, `event ${n} / ${total}`);
    }
    await page.waitForSelector('.cards.revealed .card');
    await shot('10-replay-step-8');
    const mid = Math.floor(total / 2);
    await page.$eval(
      '#scrub',
      (el, v) => {
        (el as unknown as { value: string }).value = String(v);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      },
      mid,
    );
    await page.waitForFunction((want) => document.querySelector('#step-label')?.textContent === want, `event ${mid} / ${total}`);
    await page.click('#step-back');
    await page.waitForFunction((want) => document.querySelector('#step-label')?.textContent === want, `event ${mid - 1} / ${total}`);
    await page.waitForSelector('#current-event strong');
    await shot('11-replay-middle');
    await page.keyboard.press('End');
    await page.waitForFunction((want) => document.querySelector('#step-label')?.textContent === want, `event ${total} / ${total}`);
    expect(await page.textContent('#current-event')).toContain('Match over:');
    await shot('12-replay-end');

    // ---- a session the service no longer accepts: back to the log-in screen, saying why
    await page.evaluate(() => {
      const store = (globalThis as unknown as { localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void } }).localStorage;
      const session = JSON.parse(store.getItem('scopa.session')!) as { token: string };
      store.setItem('scopa.session', JSON.stringify({ ...session, token: 'forged.jwt.token' }));
    });
    await page.reload();
    await page.waitForSelector('#auth-submit');
    await page.waitForSelector('#error:not([hidden])');
    expect(['UNAUTHENTICATED', 'FORBIDDEN']).toContain(await page.getAttribute('#error', 'data-code'));
    await shot('13-session-expired');

    expect(pageErrors.filter((e) => !/401|403/.test(e))).toEqual([]);
  }
});
