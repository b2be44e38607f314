/*
 * The web client's service worker (docs/notifications.md "The installable client"): it keeps the shell for an
 * offline start, shows the service's Web Push notifications and opens their match when one is clicked. Plain
 * JavaScript, served as it is from web/public (no build step), registered by web/src/pwa.ts.
 */
'use strict';

/** The shell's cache; a new version of this file (a new name) drops the old one at activation. */
const SHELL = 'scopa-shell-v1';
const API = /^\/(v1|graphql|health|metrics|docs|graphiql)(\/|$)/;

/** The shell: the page, and the hashed assets it names (their names change with their content). */
async function cacheShell() {
  const cache = await caches.open(SHELL);
  const page = await fetch('/', { cache: 'no-cache' });
  if (!page.ok) return;
  const html = await page.clone().text();
  await cache.put('/', page);
  const assets = [...html.matchAll(/(?:src|href)="(\/(?:assets|icons)\/[^"]+|\/manifest\.webmanifest)"/g)].map((m) => m[1]);
  await cache.addAll([...new Set(assets)]);
}

self.addEventListener('install', (event) => {
  event.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('scopa-shell-') && n !== SHELL).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || API.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    // The page: the network first (a new version shows at once), the cached shell when offline.
    event.respondWith(
      fetch(request)
        .then((res) => {
          if (res.ok && url.pathname === '/') {
            const copy = res.clone();
            void caches.open(SHELL).then((cache) => cache.put('/', copy));
          }
          return res;
        })
        .catch(() => caches.match('/').then((cached) => cached || Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) {
    // Hashed assets never change: the cache first, and whatever the page loads is kept.
    event.respondWith(
      caches.match(request).then(
        (cached) =>
          cached ||
          fetch(request).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              void caches.open(SHELL).then((cache) => cache.put(request, copy));
            }
            return res;
          }),
      ),
    );
  }
});

/** The notification's words for a payload (src/push/push-payloads.ts): English for now. */
function notificationOf(p) {
  const d = p.data || {};
  switch (p.kind) {
    case 'yourTurn':
      return { title: 'Your turn', body: d.deadline ? `It is your move. Your clock runs until ${new Date(d.deadline).toLocaleString()}.` : 'It is your move.' };
    case 'clockLow':
      return { title: 'Your clock is low', body: `Move before ${new Date(d.deadline).toLocaleString()}.` };
    case 'challengeReceived':
      return { title: 'New challenge', body: `${d.from} challenged you${d.preset ? ` to ${d.preset}` : ''}${d.rated ? ' (rated)' : ''}.` };
    case 'tournamentRoundPaired':
      return { title: `Round ${d.round} is paired`, body: d.matchId ? 'Your match is ready.' : 'You have a bye this round.' };
    case 'analysisReady':
      return { title: 'Analysis ready', body: 'The post-game analysis of your match is done.' };
    default:
      return { title: 'Scopa', body: '' };
  }
}

/** Whether a focused window shows this URL already (then a yourTurn needs no notification: the page shows it). */
async function focusedOn(url) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return windows.some((w) => w.focused && new URL(w.url).hash === new URL(url, self.location.origin).hash);
}

/** Shows the notification of a push's payload; exposed as self.showPush for the browser test. */
async function showPush(payload) {
  if (payload.kind === 'yourTurn' && (await focusedOn(payload.url))) return;
  const { title, body } = notificationOf(payload);
  await self.registration.showNotification(title, {
    body,
    tag: payload.matchId ? `match:${payload.matchId}` : `${payload.kind}:${payload.sentAt}`,
    renotify: true,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    data: { url: payload.url, kind: payload.kind, matchId: payload.matchId },
  });
}
self.showPush = showPush;

self.addEventListener('push', (event) => {
  let payload;
  try {
    payload = event.data ? event.data.json() : null;
  } catch {
    payload = null;
  }
  if (!payload || typeof payload.kind !== 'string') payload = { kind: 'unknown', url: '/', matchId: null, sentAt: new Date().toISOString() };
  event.waitUntil(showPush(payload));
});

/** Opens a notification's URL: in a window of the client if one is open (focused, then navigated), else a new one. */
async function openFrom(notification) {
  const url = new URL((notification.data && notification.data.url) || '/', self.location.origin).href;
  notification.close();
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const own = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (own) {
    // focus() needs the click's user activation; navigate() a window this worker controls.
    await own.focus().catch(() => undefined);
    const navigated = await own.navigate(url).catch(() => null);
    if (navigated) return navigated;
  }
  return self.clients.openWindow(url);
}
self.openFrom = openFrom;

self.addEventListener('notificationclick', (event) => {
  event.waitUntil(openFrom(event.notification));
});
