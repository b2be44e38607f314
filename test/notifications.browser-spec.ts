/**
 * The notifications page and the vacation in headless Chromium (issue 48, docs/web-client.md): the page in English
 * and in Arabic (right to left); the kinds chosen are saved for this browser's subscription (read back through the
 * API); the test notification shows in the player's language, and the service worker's push notifications take the
 * words the page gave it; the vacation starts from the page (the allowance left goes down, the API has it), the
 * opponent sees the seat on vacation with its clock paused, the inbox and the profile say it; End now ends it.
 *
 * Headless Chromium has no push service to subscribe to: the page's PushManager is given a subscription made here
 * (an https endpoint on loopback, PUSH_ALLOW_PRIVATE, with P-256 keys generated here), as a browser's would be.
 */
import { jest } from '@jest/globals';
import { createECDH, randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Worker } from 'playwright-core';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { useWebClientPage } from './support/web-page';

jest.setTimeout(240_000);

// The functions given to evaluate run in the browser; the server's tsconfig has no DOM library.
declare const localStorage: { setItem(key: string, value: string): void; removeItem(key: string): void };
declare const navigator: { serviceWorker: { ready: Promise<unknown>; controller: unknown } };
declare const document: { documentElement: { dir: string; lang: string } };
declare const self: any;
declare const caches: any;

describe('notifications page and vacation (Chromium)', () => {
  const web = useWebClientPage({ env: { CLIENT_SEED_WINDOW: '0', PUSH_ALLOW_PRIVATE: 'true' }, shotPrefix: 'notifications-' });
  const http = () => request(web.app.getHttpServer());
  let ann: Account;
  let bob: Account;
  let matchId: string;
  let worker: Worker;

  const b64url = (b: Buffer) => b.toString('base64url');
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const fake = {
    endpoint: `https://127.0.0.1:4899/push/${randomBytes(8).toString('hex')}`,
    p256dh: b64url(ecdh.getPublicKey()),
    auth: b64url(randomBytes(16)),
  };

  const signIn = async (who: Account, hash: string, language = 'en') => {
    // Another player on this browser: the previous one's refresh cookie goes too (as a log-out would take it).
    await web.page.context().clearCookies();
    await web.page.evaluate(
      ([token, username, lang]) => {
        localStorage.setItem('scopa.session', JSON.stringify({ token, username, expiresAt: Date.now() + 3_600_000 }));
        localStorage.setItem('scopa.language', lang);
      },
      [who.token, who.username, language],
    );
    await web.page.goto(`${web.base}/?load=${Date.now()}#${hash}`);
  };
  const api = async (method: 'get' | 'delete', path: string) => {
    const token = await web.sessionToken();
    return (await http()[method](path).set('authorization', `Bearer ${token}`).expect(200)).body;
  };
  /** The notifications the worker's registration shows (asked from the page: the registration the page uses). */
  const workerNotifications = () =>
    web.page.evaluate(async () =>
      ((await (navigator.serviceWorker.ready as Promise<any>).then((r) => r.getNotifications())) as any[]).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
      })),
    );
  const eventually = async <T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
    let v = await read();
    for (let i = 0; i < 100 && !ok(v); i++) {
      await new Promise((r) => setTimeout(r, 100));
      v = await read();
    }
    return v;
  };

  beforeAll(async () => {
    ann = await register(web.app, 'ntann');
    bob = await register(web.app, 'ntbob');
    const auth = (a: Account) => ({ authorization: `Bearer ${a.token}` });
    // A correspondence match (a day a turn) with ann to move.
    const made = await http()
      .post('/v1/matches')
      .set(auth(bob))
      .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: ann.username }], turnTimeLimit: 'P1D' })
      .expect(201);
    matchId = made.body.id;
    await http().post(`/v1/matches/${matchId}/join`).set(auth(ann)).send({}).expect(200);
    await http().post(`/v1/matches/${matchId}/start`).set(auth(bob)).send({}).expect(200);
    const view = (await http().get(`/v1/matches/${matchId}`).set(auth(bob)).expect(200)).body;
    if (view.view.turn === view.view.viewer) {
      const legal = (await http().get(`/v1/matches/${matchId}/legal-plays`).set(auth(bob)).expect(200)).body;
      const p = legal.plays[0];
      await http()
        .post(`/v1/matches/${matchId}/plays`)
        .set(auth(bob))
        .set('if-match', `"${legal.seq}"`)
        .send({ card: p.card, capture: p.capture })
        .expect((r) => expect(r.status).toBeLessThan(300));
    }

    const context = web.page.context();
    await context.grantPermissions(['notifications'], { origin: web.base });
    // The subscription a push service would give (see the top of this file).
    await context.addInitScript((sub: { endpoint: string; p256dh: string; auth: string }) => {
      const w = globalThis as any;
      if (!w.PushManager) return;
      // Kept across loads, as the browser keeps its subscription.
      const KEY = 'test.pushSubscribed';
      const made = {
        endpoint: sub.endpoint,
        expirationTime: null,
        toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: { p256dh: sub.p256dh, auth: sub.auth } }),
        unsubscribe: async () => (w.localStorage.removeItem(KEY), true),
      };
      w.PushManager.prototype.getSubscription = async () => (w.localStorage.getItem(KEY) ? made : null);
      w.PushManager.prototype.subscribe = async () => (w.localStorage.setItem(KEY, '1'), made);
    }, fake);
    await web.page.goto(`${web.base}/?load=0`);
    await signIn(ann, '/notifications');
    worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    // The worker installed (the shell cached) and active, then a page it controls.
    await eventually(
      () => web.page.evaluate(() => navigator.serviceWorker.ready.then((r: any) => r.active?.state ?? null)),
      (state) => state === 'activated',
    );
    await web.page.reload();
    await web.page.waitForFunction(() => !!navigator.serviceWorker.controller);
  });

  it('renders in English, saves the kinds chosen, sends a test notification, removes the browser', () =>
    web.guarded(async () => {
      const { page } = web;
      await signIn(ann, '/notifications');
      await page.locator('#push-kinds #kind-yourTurn').waitFor();
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['en', 'ltr']);
      await expect(page.locator('#notifications h1').textContent()).resolves.toBe('Notifications');
      await page.locator('#push-status', { hasText: 'Notifications are off for this browser.' }).waitFor();
      await expect(page.locator('label[for="kind-clockLow"]').textContent()).resolves.toContain('Clock running low');
      await web.shot('en');

      await page.uncheck('#kind-clockLow');
      await page.uncheck('#kind-analysisReady');
      await page.click('#push-enable');
      await page.locator('#push-subscription [data-subscription]').waitFor();
      await page.locator('#push-status', { hasText: 'Notifications are on for this browser.' }).waitFor();
      let subs = await api('get', '/v1/account/push-subscriptions');
      expect(subs).toEqual([expect.objectContaining({ endpoint: fake.endpoint, kinds: ['yourTurn', 'challengeReceived', 'tournamentRoundPaired'] })]);

      // Reloaded: the kinds are those saved; one more, saved again.
      await page.reload();
      await page.locator('#push-subscription [data-subscription]').waitFor();
      expect(await page.isChecked('#kind-clockLow')).toBe(false);
      expect(await page.isChecked('#kind-yourTurn')).toBe(true);
      await page.check('#kind-clockLow');
      await expect(page.locator('#push-enable').textContent()).resolves.toBe('Save the kinds');
      await page.click('#push-enable');
      subs = await eventually(
        () => api('get', '/v1/account/push-subscriptions'),
        (s) => s[0]?.kinds.length === 4,
      );
      expect(subs).toEqual([
        expect.objectContaining({ endpoint: fake.endpoint, kinds: ['yourTurn', 'challengeReceived', 'tournamentRoundPaired', 'clockLow'] }),
      ]);

      await page.click('#push-test');
      const shown = await eventually(workerNotifications, (n) => n.some((x: { tag: string }) => x.tag === 'test'));
      expect(shown).toContainEqual({ title: 'Test notification', body: 'Notifications work on this device.', tag: 'test' });
      await worker.evaluate(async () => (await self.registration.getNotifications()).forEach((n: any) => n.close()));

      await page.click('#push-remove');
      await page.locator('#push-status', { hasText: 'Notifications are off for this browser.' }).waitFor();
      expect(await api('get', '/v1/account/push-subscriptions')).toEqual([]);
    }));

  it('renders in Arabic, right to left, and the worker words its notifications in Arabic', () =>
    web.guarded(async () => {
      const { page } = web;
      await signIn(ann, '/notifications');
      await page.locator('#push-kinds #kind-yourTurn').waitFor();
      // Chosen from the menu: the account's language from now on.
      await page.selectOption('#language', 'ar');
      await page.locator('#notifications h1', { hasText: 'الإشعارات' }).waitFor();
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
      await expect(page.locator('#notifications h1').textContent()).resolves.toBe('الإشعارات');
      await expect(page.locator('#vacation h2').textContent()).resolves.toBe('العطلة');
      await web.shot('ar');
      // The page gave the worker its words: a push now shows in Arabic.
      const stored = await eventually(
        () => worker.evaluate(async () => (await (await (await caches.open('scopa-texts')).match('/__notification-texts'))?.json()) ?? null),
        (w: any) => w?.locale === 'ar-TN',
      );
      expect(stored).toMatchObject({ locale: 'ar-TN', texts: { yourTurnTitle: 'دورك' } });
      await worker.evaluate(
        async (id: string) =>
          self.showPush({ v: 1, kind: 'yourTurn', matchId: id, data: { deadline: null }, url: `/#/match/${id}`, sentAt: new Date().toISOString() }),
        matchId,
      );
      const shown = await eventually(workerNotifications, (n) => n.length > 0);
      expect(shown).toEqual([{ title: 'دورك', body: 'حان دورك في اللعب.', tag: `match:${matchId}` }]);
      await worker.evaluate(async () => (await self.registration.getNotifications()).forEach((n: any) => n.close()));
      // Back to English: the worker's words follow.
      await page.selectOption('#language', 'en');
      await eventually(
        () => worker.evaluate(async () => (await (await (await caches.open('scopa-texts')).match('/__notification-texts'))?.json()) ?? null),
        (w: any) => w?.locale === 'en',
      );
    }));

  it('starts a vacation from the page; the opponent sees the seat on vacation and its clock paused; End now ends it', () =>
    web.guarded(async () => {
      const { page } = web;
      await signIn(ann, '/notifications');
      const left = page.locator('#vacation-left');
      await left.waitFor();
      const before = Number(await left.getAttribute('data-days-left'));
      expect(before).toBe(30);
      await expect(left.textContent()).resolves.toBe('30 of 30 days of allowance left this year.');
      await expect(page.locator('#vacation-status').textContent()).resolves.toBe('You are not on vacation.');
      const d = new Date(Date.now() + 3 * 86_400_000);
      const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      await page.fill('#vacation-until', day);
      await page.click('#vacation-start');
      await page.locator('#vacation-end').waitFor();
      const after = Number(await left.getAttribute('data-days-left'));
      expect(after).toBeLessThan(before);
      expect(after).toBeGreaterThan(before - 4);
      await expect(page.locator('#vacation-status').textContent()).resolves.toMatch(/^You are on vacation until .+\.$/);
      const vacation = await api('get', '/v1/account/vacation');
      expect(vacation.onVacationUntil).not.toBeNull();
      expect(vacation.daysLeft).toBe(after);
      await web.shot('vacation');

      // My inbox: the match's clock paused; my profile: on vacation.
      await page.goto(`${web.base}/?load=inbox#/`);
      await page.locator(`tr[data-match="${matchId}"] [data-paused]`).waitFor();
      await page.goto(`${web.base}/?load=profile#/users/${ann.username}`);
      await expect(page.locator('#profile-vacation').textContent()).resolves.toMatch(/^On vacation until /);

      // The opponent's view: the seat on vacation, its clock paused; their inbox says it.
      await signIn(bob, `/match/${matchId}`);
      const seat = page.locator('.opponents .seat');
      await seat.locator('[data-vacation]').waitFor();
      await expect(seat.locator('[data-vacation]').textContent()).resolves.toMatch(/^On vacation until /);
      await expect(seat.locator('[data-paused]').textContent()).resolves.toBe('Clock paused');
      await web.shot('opponent-view');
      await page.goto(`${web.base}/?load=bobinbox#/`);
      await expect(page.locator(`tr[data-match="${matchId}"] [data-vacation]`).textContent()).resolves.toMatch(
        new RegExp(`^${ann.username} is on vacation until `),
      );

      // End now.
      await signIn(ann, '/notifications');
      await page.click('#vacation-end');
      await page.locator('#vacation-start').waitFor();
      await expect(page.locator('#vacation-status').textContent()).resolves.toBe('You are not on vacation.');
      expect((await api('get', '/v1/account/vacation')).onVacationUntil).toBeNull();
      await signIn(bob, `/match/${matchId}`);
      await page.locator('.opponents .seat').waitFor();
      await page.locator('#my-hand, .opponents .seat-name').first().waitFor();
      expect(await page.locator('.opponents .seat [data-vacation], .opponents .seat [data-paused]').count()).toBe(0);
    }));
});
