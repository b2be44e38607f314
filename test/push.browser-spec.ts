/**
 * The installable client in headless Chromium (issue 48, docs/notifications.md "The installable client"): the page
 * links its manifest, registers its service worker (web/public/sw.js), which takes the page over and caches the
 * shell, so that the page opens offline; a push delivered through the DevTools protocol
 * (`ServiceWorker.deliverPushMessage`) with the service's payload shows the notification of its kind, and clicking
 * it opens the match. Headless Chromium has no notification on screen to click, and a `notificationclick` dispatched
 * by script cannot waitUntil (the event is not trusted): the click runs the worker's own click handler
 * (`self.openFrom`, what its notificationclick listener calls) on the notification shown.
 */
import { jest } from '@jest/globals';
import request from 'supertest';
import type { Worker } from 'playwright-core';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { useWebClientPage } from './support/web-page';

jest.setTimeout(180_000);

// The functions given to evaluate run in the browser; the server's tsconfig has no DOM library.
declare const localStorage: { setItem(key: string, value: string): void };
declare const navigator: { serviceWorker: { ready: Promise<{ active: { state: string } | null }>; controller: unknown } };
declare const document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };
declare const self: any;

describe('installable client and push notifications (Chromium)', () => {
  const web = useWebClientPage({ env: { CLIENT_SEED_WINDOW: '0' }, shotPrefix: 'push-' });
  const http = () => request(web.app.getHttpServer());
  let ann: Account;
  let bob: Account;
  let matchId: string;

  beforeAll(async () => {
    ann = await register(web.app, 'swann');
    bob = await register(web.app, 'swbob');
    const made = await http()
      .post('/v1/matches')
      .set('authorization', `Bearer ${ann.token}`)
      .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] })
      .expect(201);
    matchId = made.body.id;
    await http().post(`/v1/matches/${matchId}/join`).set('authorization', `Bearer ${bob.token}`).send({}).expect(200);
    await http().post(`/v1/matches/${matchId}/start`).set('authorization', `Bearer ${ann.token}`).send({}).expect(200);
  });

  let worker: Worker;

  it('links its manifest and registers a service worker that controls the page and opens it offline', () =>
    web.guarded(async () => {
      const { page } = web;
      const context = page.context();
      await context.grantPermissions(['notifications'], { origin: web.base });
      await page.goto(`${web.base}/?load=1`);
      await page.evaluate(
        ([token, username]) => localStorage.setItem('scopa.session', JSON.stringify({ token, username, expiresAt: Date.now() + 3_600_000 })),
        [ann.token, ann.username],
      );
      // Loaded again, signed in (the client reads its session at load).
      await page.goto(`${web.base}/?load=2#/`);
      const manifestHref = await page.evaluate(() => document.querySelector('link[rel="manifest"]')?.getAttribute('href') ?? null);
      expect(manifestHref).toBe('/manifest.webmanifest');
      const served = await http().get('/manifest.webmanifest').buffer(true).expect(200);
      expect(served.headers['content-type']).toMatch(/^application\/manifest\+json/);
      const parsed = JSON.parse(served.text);
      expect(parsed).toMatchObject({ name: 'Scopa', start_url: '/', display: 'standalone' });
      for (const icon of parsed.icons as { src: string }[]) await http().get(icon.src).expect(200);

      const found = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
      worker = found;
      expect(worker.url()).toBe(`${web.base}/sw.js`);
      let state: string | null = null;
      for (let i = 0; i < 100 && state !== 'activated'; i++) {
        state = await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active?.state ?? null));
        if (state !== 'activated') await new Promise((r) => setTimeout(r, 100));
      }
      expect(state).toBe('activated');
      await page.waitForFunction(() => !!navigator.serviceWorker.controller);

      await context.setOffline(true);
      try {
        // Offline indeed: the API cannot be reached (the worker leaves it to the network)...
        expect(
          await page.evaluate(() =>
            fetch('/health/live').then(
              () => 'reached',
              () => 'offline',
            ),
          ),
        ).toBe('offline');
        // ...and the page opens all the same, from the cached shell.
        await page.reload();
        await page.locator('nav.top').waitFor();
        await web.shot('offline');
      } finally {
        await context.setOffline(false);
      }
    }));

  it('shows the notification of a push delivered through the DevTools protocol, and its click opens the match', () =>
    web.guarded(async () => {
      const { page } = web;
      // A new load (not a hash change): the page starts signed in, on the inbox.
      await page.goto(`${web.base}/?load=3#/`);
      await page.locator('nav.top #nav-inbox').waitFor();
      const cdp = await page.context().newCDPSession(page);
      const registrations: { registrationId: string; scopeURL: string }[] = [];
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string }[] }) =>
        registrations.push(...e.registrations),
      );
      await cdp.send('ServiceWorker.enable');
      for (let i = 0; i < 50 && !registrations.some((r) => r.scopeURL === `${web.base}/`); i++) await new Promise((r) => setTimeout(r, 100));
      const registration = registrations.find((r) => r.scopeURL === `${web.base}/`);
      expect(registration).toBeDefined();

      // What the service sends for yourTurn (src/push/push-payloads.ts), as the push service hands it over.
      const payload = {
        v: 1,
        kind: 'yourTurn',
        matchId,
        data: { matchId, seq: 3, seat: 0, deadline: null },
        url: `/#/match/${matchId}`,
        sentAt: new Date().toISOString(),
      };
      await cdp.send('ServiceWorker.deliverPushMessage', { origin: web.base, registrationId: registration!.registrationId, data: JSON.stringify(payload) });

      const shown = async () =>
        worker.evaluate(async () => (await self.registration.getNotifications()).map((n: any) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })));
      let notifications: { title: string; body: string; tag: string; data: { url: string } }[] = [];
      for (let i = 0; i < 50 && notifications.length === 0; i++) {
        notifications = await shown();
        if (notifications.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(notifications).toEqual([
        { title: 'Your turn', body: 'It is your move.', tag: `match:${matchId}`, data: expect.objectContaining({ url: payload.url }) },
      ]);

      // The click: the worker's notificationclick handler on that notification.
      await worker.evaluate(async () => {
        const [n] = await self.registration.getNotifications();
        await self.openFrom(n);
      });
      const context = page.context();
      const opened = async () => context.pages().find((p) => p.url().endsWith(`#/match/${matchId}`));
      for (let i = 0; i < 50 && !(await opened()); i++) await new Promise((r) => setTimeout(r, 100));
      const tab = await opened();
      expect(tab?.url()).toBe(`${web.base}/#/match/${matchId}`);
      await tab!.locator('#my-hand').waitFor();
      // The notification was closed by its click.
      expect(await shown()).toEqual([]);
      await web.shot('opened');
    }));
});
