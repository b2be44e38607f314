/**
 * The notifications page (#/notifications, docs/web-client.md): allow this browser's Web Push notifications (the
 * permission, then the subscription through web/src/pwa.ts), choose their kinds, remove this browser, send a test
 * notification; and the vacation for correspondence play (the allowance left, start until a date, end now).
 * It also hands the service worker the words of its notifications in the player's language (postNotificationTexts).
 */
import type { PushKind, PushSubscriptionInfo, Vacation } from '@scopa/sdk';
import { client } from './api';
import { h, mount } from './dom';
import { formatDate, formatList, formatLocale, formatNumber, t } from './i18n';
import { currentPushSubscription, disablePush, enablePush, pushSupported } from './pwa';
import { attempt } from './widgets';

type Cleanup = (() => void) | void;

export const PUSH_KINDS: readonly PushKind[] = ['yourTurn', 'challengeReceived', 'tournamentRoundPaired', 'clockLow', 'analysisReady'];

/** The templates of the worker's notifications (web/public/sw.js), `{name}` where the worker puts a value. */
function notificationTexts(): Record<string, string> {
  const keys = [
    'yourTurnTitle',
    'yourTurnBody',
    'clockLowTitle',
    'analysisTitle',
    'analysisBody',
    'tournamentBodyMatch',
    'tournamentBodyBye',
    'challengeTitle',
    'fallbackTitle',
  ];
  const out: Record<string, string> = Object.fromEntries(keys.map((k) => [k, t(`notifications:push.${k}`)]));
  out.yourTurnBodyDeadline = t('notifications:push.yourTurnBodyDeadline', { deadline: '{deadline}' });
  out.clockLowBody = t('notifications:push.clockLowBody', { deadline: '{deadline}' });
  out.challengeBody = t('notifications:push.challengeBody', { from: '{from}' });
  out.challengeBodyRated = t('notifications:push.challengeBodyRated', { from: '{from}' });
  out.challengeBodyPreset = t('notifications:push.challengeBodyPreset', { from: '{from}', preset: '{preset}' });
  out.challengeBodyPresetRated = t('notifications:push.challengeBodyPresetRated', { from: '{from}', preset: '{preset}' });
  out.tournamentTitle = t('notifications:push.tournamentTitle', { round: '{round}' });
  return out;
}

/** Gives the service worker the words of its notifications in the current language (it keeps them for later pushes). */
export async function postNotificationTexts(): Promise<void> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const registration = await navigator.serviceWorker.ready.catch(() => null);
  registration?.active?.postMessage({ type: 'notificationTexts', locale: formatLocale(), texts: notificationTexts() });
}

/** The notifications page. */
export function notificationsScreen(main: HTMLElement): Cleanup {
  let alive = true;
  const status = h('p', { id: 'push-status', role: 'status' });
  const subscriptionBox = h('div', { id: 'push-subscription' });
  const checks = new Map<PushKind, HTMLInputElement>(PUSH_KINDS.map((k) => [k, h('input', { type: 'checkbox', id: `kind-${k}`, checked: true })]));
  const kinds = () => PUSH_KINDS.filter((k) => checks.get(k)!.checked);
  const enable = h('button', { id: 'push-enable', class: 'primary', type: 'button' }, t('notifications:push.allow'));
  const test = h('button', { id: 'push-test', type: 'button' }, t('notifications:push.test'));
  const vacationBox = h('section', { class: 'panel', id: 'vacation' }, h('h2', null, t('notifications:vacation.title')));

  const renderSubscription = (mine: PushSubscriptionInfo | null) => {
    const permission = 'Notification' in window ? Notification.permission : 'denied';
    if (!pushSupported()) status.textContent = t('notifications:push.unsupported');
    else if (permission === 'denied') status.textContent = t('notifications:push.denied');
    else status.textContent = mine ? t('notifications:push.on') : t('notifications:push.off');
    enable.disabled = !pushSupported() || permission === 'denied';
    enable.textContent = mine ? t('notifications:push.save') : t('notifications:push.allow');
    test.disabled = !pushSupported() || permission !== 'granted';
    if (mine) for (const [k, box] of checks) box.checked = mine.kinds.includes(k);
    mount(
      subscriptionBox,
      mine
        ? h(
            'p',
            { 'data-subscription': mine.id },
            t('notifications:push.thisBrowser', {
              date: formatDate(mine.createdAt),
              kinds: mine.kinds.length ? formatList(mine.kinds.map((k) => t(`notifications:kind.${k}`))) : t('notifications:push.noKinds'),
            }),
            ' ',
            h('button', { id: 'push-remove', type: 'button', class: 'link danger', onclick: () => void remove() }, t('notifications:push.remove')),
          )
        : h('p', { class: 'muted' }, t('notifications:push.notRegistered')),
    );
  };
  const load = async () => {
    const mine = pushSupported() ? await attempt(() => currentPushSubscription(client)) : null;
    if (alive) renderSubscription(mine ?? null);
  };
  const allow = async () => {
    if (!pushSupported()) return;
    enable.disabled = true;
    const mine = await attempt(() => enablePush(client, kinds()));
    if (!alive) return;
    renderSubscription(mine ?? null);
    if (mine === null) status.textContent = t('notifications:push.refused');
  };
  const remove = async () => {
    if ((await attempt(() => disablePush(client).then(() => true))) && alive) renderSubscription(null);
  };
  const sendTest = async () => {
    const registration = await navigator.serviceWorker.ready;
    await attempt(() =>
      registration.showNotification(t('notifications:test.title'), {
        body: t('notifications:test.body'),
        tag: 'test',
        icon: '/icons/icon-192.png',
        data: { url: '/#/notifications', kind: 'test' },
      }),
    );
  };
  enable.addEventListener('click', () => void allow());
  test.addEventListener('click', () => void sendTest());

  // ---------------------------------------------------------------- vacation
  const until = h('input', { id: 'vacation-until', type: 'date' });
  const renderVacation = (v: Vacation) => {
    const tomorrow = new Date(Date.now() + 86_400_000);
    until.min = tomorrow.toISOString().slice(0, 10);
    until.max = new Date(Date.now() + Math.max(1, Math.floor(v.daysLeft)) * 86_400_000).toISOString().slice(0, 10);
    if (!until.value) until.value = until.min;
    const away = v.onVacationUntil;
    mount(
      vacationBox,
      h('h2', null, t('notifications:vacation.title')),
      h('p', { class: 'muted' }, t('notifications:vacation.explain')),
      h(
        'p',
        { id: 'vacation-status', 'data-until': away ?? '' },
        away ? t('notifications:vacation.onUntil', { date: formatDate(away) }) : t('notifications:vacation.notOn'),
      ),
      h(
        'p',
        { id: 'vacation-left', 'data-days-left': String(v.daysLeft) },
        t('notifications:vacation.left', {
          count: v.allowanceDays,
          left: formatNumber(v.daysLeft, { maximumFractionDigits: 1 }),
          allowance: formatNumber(v.allowanceDays),
        }),
      ),
      away
        ? h('p', null, h('button', { id: 'vacation-end', type: 'button', onclick: () => void end() }, t('notifications:vacation.end')))
        : h(
            'form',
            { class: 'vacation-start', onsubmit: (ev: Event) => (ev.preventDefault(), void start()) },
            h('label', { for: 'vacation-until' }, t('notifications:vacation.until'), ' ', until),
            ' ',
            h('button', { id: 'vacation-start', type: 'submit', class: 'primary', disabled: v.daysLeft <= 0 }, t('notifications:vacation.start')),
          ),
    );
  };
  const loadVacation = async () => {
    const v = await attempt(() => client.vacation());
    if (v && alive) renderVacation(v);
  };
  const start = async () => {
    if (!until.value) return;
    // The end of the chosen day, in this browser's time zone.
    const [y, m, d] = until.value.split('-').map(Number);
    const v = await attempt(() => client.startVacation(new Date(y, m - 1, d, 23, 59, 0)));
    if (v && alive) renderVacation(v);
  };
  const end = async () => {
    const v = await attempt(() => client.endVacation());
    if (v && alive) renderVacation(v);
  };

  mount(
    main,
    h(
      'section',
      { class: 'panel', id: 'notifications' },
      h('h1', null, t('notifications:title')),
      h('p', { class: 'muted' }, t('notifications:push.explain')),
      status,
      h(
        'fieldset',
        { id: 'push-kinds' },
        h('legend', null, t('notifications:push.kinds')),
        PUSH_KINDS.map((k) =>
          h(
            'label',
            { class: 'check', for: `kind-${k}` },
            checks.get(k)!,
            ' ',
            t(`notifications:kind.${k}`),
            h('span', { class: 'hint' }, t(`notifications:hint.${k}`)),
          ),
        ),
      ),
      h('p', { class: 'actions' }, enable, ' ', test),
      h('h2', null, t('notifications:push.browsers')),
      subscriptionBox,
    ),
    vacationBox,
  );
  renderSubscription(null);
  status.textContent = t('common:loading');
  void load();
  void loadVacation();
  return () => {
    alive = false;
  };
}
