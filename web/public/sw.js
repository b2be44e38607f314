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

/**
 * The notifications' words: the page posts them in the player's language (web/src/notifications.ts
 * postNotificationTexts, at each load and language change) and they are kept in the Cache Storage for the pushes
 * that come while no page is open; English until then.
 */
const TEXTS = 'scopa-texts';
const TEXTS_KEY = '/__notification-texts';
const ENGLISH = {
  locale: 'en',
  texts: {
    yourTurnTitle: 'Your turn',
    yourTurnBody: 'It is your move.',
    yourTurnBodyDeadline: 'It is your move. Your clock runs until {deadline}.',
    clockLowTitle: 'Your clock is low',
    clockLowBody: 'Move before {deadline}.',
    challengeTitle: 'New challenge',
    challengeBody: '{from} challenged you.',
    challengeBodyRated: '{from} challenged you (rated).',
    challengeBodyPreset: '{from} challenged you to {preset}.',
    challengeBodyPresetRated: '{from} challenged you to {preset} (rated).',
    tournamentTitle: 'Round {round} is paired',
    tournamentBodyMatch: 'Your match is ready.',
    tournamentBodyBye: 'You have a bye this round.',
    analysisTitle: 'Analysis ready',
    analysisBody: 'The post-game analysis of your match is done.',
    fallbackTitle: 'Scopa',
  },
};

async function storedTexts() {
  try {
    const res = await (await caches.open(TEXTS)).match(TEXTS_KEY);
    const words = res ? await res.json() : null;
    if (words && typeof words.locale === 'string' && words.texts && typeof words.texts === 'object') return words;
  } catch {
    // Unreadable: English.
  }
  return ENGLISH;
}

self.addEventListener('message', (event) => {
  const m = event.data;
  if (!m || m.type !== 'notificationTexts' || typeof m.locale !== 'string' || !m.texts || typeof m.texts !== 'object') return;
  const texts = {};
  for (const key of Object.keys(ENGLISH.texts)) if (typeof m.texts[key] === 'string') texts[key] = m.texts[key];
  const body = JSON.stringify({ locale: m.locale, texts });
  event.waitUntil(caches.open(TEXTS).then((cache) => cache.put(TEXTS_KEY, new Response(body, { headers: { 'content-type': 'application/json' } }))));
});

/** The notification's words for a payload (src/push/push-payloads.ts), in the language the page last gave. */
async function notificationOf(p) {
  const d = p.data || {};
  const words = await storedTexts();
  let locale = words.locale;
  try {
    new Intl.DateTimeFormat(locale);
  } catch {
    locale = 'en';
  }
  const text = (key, values) =>
    String(words.texts[key] || ENGLISH.texts[key]).replace(/\{(\w+)\}/g, (all, name) => (values && values[name] !== undefined ? String(values[name]) : all));
  const when = (at) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at));
  switch (p.kind) {
    case 'yourTurn':
      return { title: text('yourTurnTitle'), body: d.deadline ? text('yourTurnBodyDeadline', { deadline: when(d.deadline) }) : text('yourTurnBody') };
    case 'clockLow':
      return { title: text('clockLowTitle'), body: text('clockLowBody', { deadline: when(d.deadline) }) };
    case 'challengeReceived': {
      const key = `challengeBody${d.preset ? 'Preset' : ''}${d.rated ? 'Rated' : ''}`;
      return { title: text('challengeTitle'), body: text(key, { from: d.from, preset: d.preset }) };
    }
    case 'tournamentRoundPaired':
      return {
        title: text('tournamentTitle', { round: new Intl.NumberFormat(locale).format(Number(d.round)) }),
        body: d.matchId ? text('tournamentBodyMatch') : text('tournamentBodyBye'),
      };
    case 'analysisReady':
      return { title: text('analysisTitle'), body: text('analysisBody') };
    default:
      return { title: text('fallbackTitle'), body: '' };
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
  const { title, body } = await notificationOf(payload);
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
