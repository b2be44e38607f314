import './style.css';
import { ScopaError } from '@scopa/sdk';
import type { InboxEntry, MatchSummary } from '@scopa/sdk';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
  client,
  currentSession,
  logIn,
  setSession,
  signUp,
} from './api';
import { appsScreen, consentScreen } from './apps';
import { freshClientSeed } from './fairness';
import { h, mount } from './dom';
import {
  LANGUAGES,
  LANGUAGE_NAMES,
  chosenLanguage,
  currentLanguage,
  formatDate,
  formatList,
  formatNumber,
  initI18n,
  isLanguage,
  onLanguageChange,
  setLanguage,
  t,
} from './i18n';
import { gameName } from './game-choice';
import { lobbyScreen } from './lobby';
import { checkModerator, isModerator, moderationScreen } from './moderation';
import { friendsOnline, messagesScreen } from './social';
import { teamScreen, teamsScreen } from './teams';
import { tournamentScreen, tournamentsScreen } from './tournaments';
import { profileScreen } from './profile';
import { registerServiceWorker } from './pwa';
import { newMatchScreen } from './new-match';
import { notificationsScreen, postNotificationTexts } from './notifications';
import { replayScreen } from './replay';
import { tableScreen } from './table';
import { attempt, clearError, errorBanner, playerLink, profileName, showError } from './widgets';

type Cleanup = (() => void) | void;

const root = document.getElementById('app')!;
const banner = errorBanner();
const main = h('main', { id: 'main' });
const nav = h('nav', { class: 'top' });
root.append(nav, banner, main);

let cleanup: Cleanup;
/** An error to show on the next screen (e.g. why the session ended). */
let pendingError: unknown = null;

export function go(hash: string): void {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function renderNav(): void {
  const s = currentSession();
  mount(
    nav,
    h('a', { href: '#/', class: 'brand' }, t('common:brand')),
    s
      ? [
          h('a', { href: '#/', id: 'nav-inbox' }, t('common:nav.inbox')),
          h('a', { href: '#/new', id: 'nav-new' }, t('common:nav.new')),
          h('a', { href: '#/lobby', id: 'nav-lobby' }, t('common:nav.lobby')),
          h('a', { href: '#/tournaments', id: 'nav-tournaments' }, t('common:nav.tournaments')),
          h('a', { href: '#/teams', id: 'nav-teams' }, t('common:nav.teams')),
          isModerator() ? h('a', { href: '#/moderation', id: 'nav-moderation' }, t('common:nav.moderation')) : null,
          h('span', { class: 'spacer' }),
          h('a', { href: `#/users/${encodeURIComponent(s.username)}`, id: 'nav-profile' }, t('common:nav.profile')),
          h('a', { href: '#/apps', id: 'nav-apps' }, t('common:nav.apps')),
          h('a', { href: '#/notifications', id: 'nav-notifications' }, t('notifications:nav')),
          h('span', { class: 'whoami', title: t('common:nav.signedInAs', { name: s.username }) }, s.username),
          h('button', { class: 'link', id: 'logout', onclick: () => void logOut() }, t('common:nav.logout')),
        ]
      : [h('span', { class: 'spacer' })],
    languageMenu(),
  );
}

/** The language menu: each language by its own name; a choice applies at once (the screen is drawn again) and, signed in, is kept for the account. */
function languageMenu(): HTMLSelectElement {
  const current = currentLanguage();
  return h(
    'select',
    {
      id: 'language',
      'aria-label': t('common:language'),
      onchange: (ev: Event) => void chooseLanguage((ev.target as HTMLSelectElement).value),
    },
    LANGUAGES.map((l) => h('option', { value: l, lang: l, selected: l === current }, LANGUAGE_NAMES[l])),
  );
}

async function chooseLanguage(value: string): Promise<void> {
  if (!isLanguage(value)) return;
  await setLanguage(value);
  if (currentSession()) await attempt(() => client.updateAccount({ language: value }));
}

/**
 * After a log-in, a sign-up or a page load signed in: the account's language
 * applies when it has one; when it has none, the one chosen on this device
 * (if any) becomes the account's.
 */
async function adoptAccountLanguage(): Promise<void> {
  const settings = await client.accountSettings().catch(() => null);
  if (!settings) return;
  if (settings.language) await setLanguage(settings.language);
  else {
    const chosen = chosenLanguage();
    if (chosen) await client.updateAccount({ language: chosen }).catch(() => undefined);
  }
}

/** Ends the session on the server too (its refresh token with it), then here. */
async function logOut(): Promise<void> {
  await client.logout().catch(() => undefined);
  setSession(null);
  go('#/login');
}

function route(): void {
  if (typeof cleanup === 'function') cleanup();
  cleanup = undefined;
  clearError();
  if (pendingError) showError(pendingError);
  pendingError = null;
  renderNav();
  // Whether I moderate is learnt once a session: the nav gains "Reports" then.
  if (currentSession() && !isModerator()) void checkModerator().then((yes) => yes && renderNav());
  const path = location.hash.replace(/^#/, '') || '/';
  const session = currentSession();
  let m: RegExpExecArray | null;
  if (!session) {
    cleanup = authScreen();
  } else if ((m = /^\/(match|replay)\/([^/]+)$/.exec(path))) {
    const id = decoded(m[2]);
    if (!isMatchId(id)) cleanup = badAddressScreen();
    else cleanup = m[1] === 'match' ? tableScreen(main, id.toLowerCase()) : replayScreen(main, id.toLowerCase());
  } else if ((m = /^\/oauth\/consent\/([^/]+)$/.exec(path))) {
    cleanup = consentScreen(main, decodeURIComponent(m[1]));
  } else if (path === '/apps') {
    cleanup = appsScreen(main);
  } else if (path === '/notifications') {
    cleanup = notificationsScreen(main);
  } else if ((m = /^\/users\/([^/]+)$/.exec(path))) {
    cleanup = profileScreen(main, decodeURIComponent(m[1]));
  } else if (path === '/lobby') {
    cleanup = lobbyScreen(main, go);
  } else if (path === '/tournaments') {
    cleanup = tournamentsScreen(main, go);
  } else if ((m = /^\/tournament\/([^/]+)$/.exec(path))) {
    cleanup = tournamentScreen(main, decodeURIComponent(m[1]));
  } else if (path === '/teams') {
    cleanup = teamsScreen(main, go);
  } else if ((m = /^\/teams\/([^/]+)$/.exec(path))) {
    cleanup = teamScreen(main, decodeURIComponent(m[1]));
  } else if ((m = /^\/messages\/([^/]+)$/.exec(path))) {
    cleanup = messagesScreen(main, decodeURIComponent(m[1]));
  } else if (path === '/moderation') {
    cleanup = moderationScreen(main);
  } else if (path === '/new') {
    cleanup = newMatchScreen(main, go);
  } else {
    cleanup = inboxScreen();
  }
}

/** A part of the address, decoded (as it is when it cannot be: a stray `%`). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

const MATCH_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A match's id is a UUID: anything else names no match (and the table would wait for it forever). */
function isMatchId(id: string): boolean {
  return MATCH_ID.test(id);
}

/**
 * What the player typed or pasted into "Open by id": a match id, or the
 * address of a match or of its replay (`http://host/#/match/<id>`,
 * `#/replay/<id>`); null when it is neither.
 */
function matchTarget(text: string): { view: 'match' | 'replay'; id: string } | null {
  const s = text.trim();
  if (isMatchId(s)) return { view: 'match', id: s.toLowerCase() };
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/[^#\s]*)?#\/(match|replay)\/([^/?#\s]+)\/?$/i.exec(s);
  if (!m) return null;
  const id = decoded(m[2]);
  return isMatchId(id) ? { view: m[1].toLowerCase() as 'match' | 'replay', id: id.toLowerCase() } : null;
}

/** An address of a match whose id is no match id. */
function badAddressScreen(): Cleanup {
  mount(
    main,
    h(
      'section',
      { class: 'panel', id: 'bad-address' },
      h('h1', null, t('inbox:badAddress.title')),
      h('p', null, t('inbox:badAddress.text')),
      h('p', null, h('a', { href: '#/', class: 'button' }, t('inbox:badAddress.back'))),
    ),
  );
}

// ------------------------------------------------------------------ sign up / log in

/**
 * Log in and sign up. Each field has a visible label; what is wrong with
 * what was typed is said under the field (role=alert) before anything is
 * sent: nothing is cut or changed silently (no maxlength), and on sign-up a
 * name with capitals says beforehand the lowercase name it will be.
 */
function authScreen(): Cleanup {
  let mode: 'login' | 'register' = 'login';
  const render = () => {
    const problem = (id: string) => h('p', { id, class: 'hint field-problem', role: 'alert', hidden: true });
    const usernameProblem = problem('username-problem');
    const passwordProblem = problem('password-problem');
    const lowercased = h('p', { id: 'username-lowercased', class: 'hint', 'aria-live': 'polite', hidden: true });
    const described = (...ids: string[]) => ids.join(' ');
    /** Shows (or, null, clears) what is wrong with a field. */
    const say = (where: HTMLElement, text: string | null, field: HTMLInputElement) => {
      where.hidden = !text;
      where.textContent = text ?? '';
      if (text) field.setAttribute('aria-invalid', 'true');
      else field.removeAttribute('aria-invalid');
    };
    const username = h('input', {
      id: 'username',
      name: 'username',
      autocomplete: 'username',
      autocapitalize: 'none',
      spellcheck: 'false',
      'aria-describedby': mode === 'register' ? described('username-rule', 'username-lowercased', 'username-problem') : 'username-problem',
      oninput: () => {
        const name = username.value.trim();
        const lower = name.toLowerCase();
        lowercased.hidden = mode !== 'register' || lower === name;
        lowercased.textContent = lowercased.hidden ? '' : t('auth:lowercased', { name: lower });
        say(usernameProblem, null, username);
      },
    });
    const password = h('input', {
      id: 'password',
      name: 'password',
      type: 'password',
      autocomplete: mode === 'login' ? 'current-password' : 'new-password',
      'aria-describedby': mode === 'register' ? described('password-rule', 'password-problem') : 'password-problem',
      oninput: () => say(passwordProblem, null, password),
    });
    /** Says what is wrong with the form as typed: whether it may be sent. */
    const check = (): boolean => {
      const name = username.value.trim();
      let usernameText: string | null = null;
      let passwordText: string | null = null;
      if (!name) usernameText = t('auth:problem.usernameMissing');
      else if (mode === 'register' && (name.length < USERNAME_MIN_LENGTH || name.length > USERNAME_MAX_LENGTH))
        usernameText = t('auth:problem.usernameLength', { length: formatNumber(name.length) });
      else if (mode === 'register' && !USERNAME_PATTERN.test(name.toLowerCase())) usernameText = t('auth:problem.usernameCharacters');
      if (!password.value) passwordText = t('auth:problem.passwordMissing');
      else if (mode === 'register' && (password.value.length < PASSWORD_MIN_LENGTH || password.value.length > PASSWORD_MAX_LENGTH))
        passwordText = t('auth:problem.passwordLength', { min: formatNumber(PASSWORD_MIN_LENGTH), max: formatNumber(PASSWORD_MAX_LENGTH) });
      say(usernameProblem, usernameText, username);
      say(passwordProblem, passwordText, password);
      if (usernameText) username.focus();
      else if (passwordText) password.focus();
      return !usernameText && !passwordText;
    };
    const submit = async (ev: Event) => {
      ev.preventDefault();
      if (!check()) return;
      const name = username.value.trim();
      const s = await attempt(() => (mode === 'login' ? logIn(name, password.value) : signUp(name, password.value)));
      if (s) {
        setSession(s);
        await adoptAccountLanguage();
        // Signed in on the way somewhere (a shared match's address, an app's consent page): on to it.
        go(location.hash && location.hash !== '#/' && location.hash !== '#/login' ? location.hash : '#/');
      }
    };
    const tab = (which: 'login' | 'register', label: string) =>
      h(
        'button',
        {
          type: 'button',
          class: mode === which ? 'tab active' : 'tab',
          id: `tab-${which}`,
          'aria-pressed': String(mode === which),
          onclick: () => ((mode = which), render()),
        },
        label,
      );
    mount(
      main,
      h(
        'section',
        { class: 'panel auth' },
        h('div', { class: 'tabs', role: 'group', 'aria-label': t('auth:tabs') }, [tab('login', t('auth:login')), tab('register', t('auth:register'))]),
        h(
          'form',
          { onsubmit: submit, novalidate: true },
          h('label', { for: 'username' }, t('auth:username'), username),
          mode === 'register' ? h('p', { class: 'hint', id: 'username-rule' }, t('auth:usernameRule')) : null,
          lowercased,
          usernameProblem,
          h('label', { for: 'password' }, t('auth:password'), password),
          mode === 'register'
            ? h(
                'p',
                { class: 'hint', id: 'password-rule' },
                t('auth:passwordRule', { min: formatNumber(PASSWORD_MIN_LENGTH), max: formatNumber(PASSWORD_MAX_LENGTH) }),
              )
            : null,
          passwordProblem,
          h('button', { type: 'submit', id: 'auth-submit', class: 'primary' }, mode === 'login' ? t('auth:login') : t('auth:createAccount')),
        ),
      ),
    );
  };
  render();
}

// ------------------------------------------------------------------ inbox

function inboxScreen(): Cleanup {
  const me = currentSession()!.username;
  let alive = true;
  const load = async () => {
    const both = await attempt(() => Promise.all([client.myMatches({ limit: 100 }), client.inbox(100)]));
    if (!both || !alive) return;
    const [list, turns] = both;
    // The opponents to move, with their vacations (their correspondence clocks stand still meanwhile).
    const waitingOn = [
      ...new Set(
        list.filter((m) => m.status === 'playing' && m.turnPlayer && m.turnPlayer !== me && !m.turnPlayer.startsWith('bot:')).map((m) => m.turnPlayer!),
      ),
    ];
    const profiles = await Promise.all(waitingOn.map((name) => client.user(name).catch(() => null)));
    if (!alive) return;
    const away = new Map(profiles.filter((p) => p?.onVacationUntil).map((p) => [p!.username, p!.onVacationUntil!]));
    render(list, new Map(turns.map((t) => [t.matchId, t])), away);
  };
  // "Open by id": an id or a pasted address of a match (or of its replay), checked here first, so that
  // the table is opened only for a match that exists (it would otherwise wait for it forever).
  const joinProblem = h('p', { id: 'join-problem', class: 'hint field-problem', role: 'alert', hidden: true });
  const sayJoin = (text: string | null) => {
    joinProblem.hidden = !text;
    joinProblem.textContent = text ?? '';
    if (text) joinBox.setAttribute('aria-invalid', 'true');
    else joinBox.removeAttribute('aria-invalid');
  };
  const joinBox = h('input', {
    id: 'join-id',
    placeholder: t('inbox:join.placeholder'),
    'aria-label': t('inbox:join.label'),
    'aria-describedby': 'join-problem',
    autocomplete: 'off',
    spellcheck: 'false',
    oninput: () => sayJoin(null),
  });
  const openById = async (ev: Event) => {
    ev.preventDefault();
    if (!joinBox.value.trim()) return;
    const target = matchTarget(joinBox.value);
    if (!target) return sayJoin(t('inbox:join.malformed'));
    try {
      await client.getMatch(target.id);
    } catch (err) {
      if (err instanceof ScopaError && err.code === 'NOT_FOUND') return sayJoin(t('inbox:join.notFound'));
      return showError(err);
    }
    if (alive) go(`#/${target.view}/${target.id}`);
  };
  const friends = friendsOnline();
  /** Direct messages received while the page is open (the player event directMessage), newest first; shown as text. */
  const inbox = h('ul', { class: 'follow-list', id: 'new-messages' });
  const messages = h('section', { class: 'panel friends', id: 'messages-received', hidden: true }, h('h2', null, t('inbox:newMessages')), inbox);
  const onMessage = (m: { author?: unknown; text?: unknown }) => {
    if (typeof m.author !== 'string' || typeof m.text !== 'string') return;
    inbox.prepend(
      h(
        'li',
        { 'data-player': m.author },
        playerLink(m.author),
        ': ',
        h('span', { class: 'chat-text' }, m.text),
        ' ',
        h('a', { href: `#/messages/${encodeURIComponent(m.author)}`, class: 'small' }, t('inbox:reply')),
      ),
    );
    messages.hidden = false;
  };
  const statusText = (m: MatchSummary): string => {
    if (m.status !== 'over') return t(`inbox:status.${m.status}`);
    return m.winner === null ? t('inbox:status.draw') : t('inbox:status.won', { winners: winners(m) });
  };
  const render = (list: MatchSummary[], turns: Map<string, InboxEntry>, away: Map<string, string>) => {
    const rows = list.map((m) => {
      const mine = m.seats.some((s) => s.player === me);
      const invited = !mine && m.seats.some((s) => s.reservedFor === me && !s.player);
      const turn = turns.get(m.id);
      const myTurn = !!turn || (m.status === 'playing' && m.turnPlayer === me);
      const deadline = turn?.deadline ? new Date(turn.deadline) : null;
      const opponentAway = m.status === 'playing' && !myTurn && m.turnPlayer ? away.get(m.turnPlayer) : undefined;
      const players = m.seats.map((s, i) => [
        i ? ', ' : '',
        s.player
          ? playerLink(profileName(s.player)!, { label: s.player })
          : s.reservedFor
            ? t('inbox:invited', { name: s.reservedFor })
            : h('span', { class: 'muted' }, t('inbox:seatOpen')),
      ]);
      return h(
        'tr',
        { class: myTurn ? 'my-turn' : '', 'data-match': m.id },
        h('td', null, h('a', { href: `#/match/${m.id}` }, gameName(m.preset)), h('div', { class: 'muted small' }, m.id.slice(0, 8))),
        h('td', null, players),
        h('td', null, statusText(m)),
        h('td', null, myTurn ? h('strong', null, t('inbox:yourTurn')) : (m.turnPlayer ?? t('common:none'))),
        h(
          'td',
          null,
          turn?.paused
            ? h(
                'span',
                { class: 'paused', 'data-paused': 'true' },
                turn.onVacationUntil ? t('notifications:inbox.pausedUntil', { date: formatDate(turn.onVacationUntil) }) : t('notifications:inbox.paused'),
              )
            : opponentAway
              ? h(
                  'span',
                  { class: 'vacation', 'data-vacation': opponentAway },
                  t('notifications:inbox.opponentAway', { name: m.turnPlayer, date: formatDate(opponentAway) }),
                )
              : deadline
                ? h(
                    'span',
                    { class: deadline.getTime() - Date.now() < 3_600_000 ? 'soon' : '' },
                    h('time', { datetime: deadline.toISOString() }, formatDate(deadline)),
                  )
                : myTurn
                  ? t('inbox:untimed')
                  : t('common:none'),
        ),
        h(
          'td',
          null,
          invited
            ? h(
                'button',
                { onclick: async () => (await attempt(() => client.joinMatch(m.id, { clientSeed: freshClientSeed() }))) && go(`#/match/${m.id}`) },
                t('inbox:joinMatch'),
              )
            : h('a', { href: `#/match/${m.id}` }, t('inbox:openMatch')),
          m.status === 'over' ? [' · ', h('a', { href: `#/replay/${m.id}` }, t('inbox:replay'))] : null,
        ),
      );
    });
    mount(
      main,
      h(
        'section',
        { class: 'panel' },
        h('h1', null, t('inbox:title')),
        h(
          'form',
          { class: 'open-by-id', onsubmit: openById, novalidate: true },
          h('a', { href: '#/new', class: 'button primary', id: 'new-match' }, t('inbox:newMatch')),
          ' ',
          joinBox,
          h('button', { type: 'submit', id: 'join-open' }, t('inbox:join.open')),
          joinProblem,
        ),
        list.length
          ? h(
              'table',
              { class: 'inbox' },
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  (['match', 'players', 'status', 'turn', 'deadline', 'actions'] as const).map((c) => h('th', { scope: 'col' }, t(`inbox:columns.${c}`))),
                ),
              ),
              h('tbody', null, rows),
            )
          : h('p', { class: 'muted' }, t('inbox:empty')),
      ),
      messages,
      friends.el,
    );
  };
  mount(main, h('section', { class: 'panel' }, h('h1', null, t('inbox:title')), h('p', { class: 'muted' }, t('common:loading'))), messages, friends.el);
  void load();
  // Refresh when it becomes my turn anywhere, or a match of mine starts or ends.
  const stop = new AbortController();
  void followMyEvents(stop.signal, () => void load(), onMessage);
  return () => {
    alive = false;
    stop.abort();
    friends.close();
  };
}

/**
 * My event stream (GET /v1/stream/events) until `signal` aborts: `onChange`
 * after each yourTurn, matchStarted and matchEnded, `onMessage` with each
 * directMessage's message. The stream ends when the
 * access token it was opened with does (the session is refreshed meanwhile)
 * or the connection drops: it is opened again, after a pause that grows while
 * it keeps failing. A refused session signs out (api.ts).
 */
async function followMyEvents(signal: AbortSignal, onChange: () => void, onMessage: (m: { author?: unknown; text?: unknown }) => void): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    try {
      for await (const line of client.myEvents({ signal })) {
        failures = 0;
        if (line.type === 'yourTurn' || line.type === 'matchStarted' || line.type === 'matchEnded') onChange();
        if (line.type === 'directMessage' && line.message) onMessage(line.message);
      }
    } catch (err) {
      if (signal.aborted) return;
      if (!(err instanceof ScopaError) || !['NETWORK_ERROR', 'UNAUTHENTICATED', 'RATE_LIMITED', 'INTERNAL'].includes(err.code)) return showError(err);
      failures++;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** failures)));
  }
}

// ------------------------------------------------------------------ names

/** The players of the winning side (sides alternate seats in team play), as a list in the language's way. */
function winners(m: MatchSummary): string {
  const sides = m.options.teams ? 2 : m.seats.length;
  const names = m.seats.filter((_s, i) => i % sides === m.winner).map((s) => s.player ?? t('inbox:unknownPlayer'));
  return names.length ? formatList(names) : t('inbox:side', { side: formatNumber((m.winner ?? 0) + 1) });
}

window.addEventListener('scopa:session-expired', (ev) => {
  setSession(null);
  pendingError = (ev as CustomEvent).detail;
  go('#/login');
});
window.addEventListener('hashchange', route);
onLanguageChange(route);
// The service worker's notifications speak the player's language: it is given their words now and on each change.
onLanguageChange(() => void postNotificationTexts());
void initI18n().then(() => {
  route();
  // Signed in already (a reload, another tab): the account's language, should it have changed elsewhere.
  if (currentSession()) void adoptAccountLanguage();
});
// The installable client: the shell cached for offline starts, push notifications (docs/notifications.md).
void registerServiceWorker().then(() => postNotificationTexts());
