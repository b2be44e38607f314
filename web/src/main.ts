import './style.css';
import { ScopaError } from '@scopa/sdk';
import type { InboxEntry, MatchSummary } from '@scopa/sdk';
import { client, currentSession, logIn, setSession, signUp } from './api';
import { appsScreen, consentScreen } from './apps';
import { freshClientSeed } from './fairness';
import { h, mount } from './dom';
import { initI18n, onLanguageChange } from './i18n';
import { lobbyScreen } from './lobby';
import { checkModerator, isModerator, moderationScreen } from './moderation';
import { friendsOnline, messagesScreen } from './social';
import { teamScreen, teamsScreen } from './teams';
import { tournamentScreen, tournamentsScreen } from './tournaments';
import { profileScreen } from './profile';
import { registerServiceWorker } from './pwa';
import { newMatchScreen } from './new-match';
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
    h('a', { href: '#/', class: 'brand' }, 'Scopa'),
    s
      ? [
          h('a', { href: '#/', id: 'nav-inbox' }, 'My matches'),
          h('a', { href: '#/new', id: 'nav-new' }, 'New match'),
          h('a', { href: '#/lobby', id: 'nav-lobby' }, 'Lobby'),
          h('a', { href: '#/tournaments', id: 'nav-tournaments' }, 'Tournaments'),
          h('a', { href: '#/teams', id: 'nav-teams' }, 'Teams'),
          isModerator() ? h('a', { href: '#/moderation', id: 'nav-moderation' }, 'Reports') : null,
          h('span', { class: 'spacer' }),
          h('a', { href: `#/users/${encodeURIComponent(s.username)}`, id: 'nav-profile' }, 'My profile'),
          h('a', { href: '#/apps', id: 'nav-apps' }, 'Apps'),
          h('span', { class: 'whoami' }, s.username),
          h('button', { class: 'link', id: 'logout', onclick: () => void logOut() }, 'Log out'),
        ]
      : [h('span', { class: 'spacer' })],
  );
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
  } else if ((m = /^\/match\/([^/]+)$/.exec(path))) {
    cleanup = tableScreen(main, decodeURIComponent(m[1]));
  } else if ((m = /^\/replay\/([^/]+)$/.exec(path))) {
    cleanup = replayScreen(main, decodeURIComponent(m[1]));
  } else if ((m = /^\/oauth\/consent\/([^/]+)$/.exec(path))) {
    cleanup = consentScreen(main, decodeURIComponent(m[1]));
  } else if (path === '/apps') {
    cleanup = appsScreen(main);
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

// ------------------------------------------------------------------ sign up / log in

function authScreen(): Cleanup {
  let mode: 'login' | 'register' = 'login';
  const render = () => {
    const username = h('input', { id: 'username', name: 'username', autocomplete: 'username', required: true, minlength: 3, maxlength: 32 });
    const password = h('input', {
      id: 'password',
      name: 'password',
      type: 'password',
      autocomplete: mode === 'login' ? 'current-password' : 'new-password',
      required: true,
    });
    const submit = async (ev: Event) => {
      ev.preventDefault();
      const s = await attempt(() => (mode === 'login' ? logIn(username.value, password.value) : signUp(username.value, password.value)));
      if (s) {
        setSession(s);
        // Signed in on the way to an app's consent page: on to it.
        go(location.hash.startsWith('#/oauth/') ? location.hash : '#/');
      }
    };
    mount(
      main,
      h(
        'section',
        { class: 'panel auth' },
        h('div', { class: 'tabs' }, [
          h('button', { class: mode === 'login' ? 'tab active' : 'tab', id: 'tab-login', onclick: () => ((mode = 'login'), render()) }, 'Log in'),
          h('button', { class: mode === 'register' ? 'tab active' : 'tab', id: 'tab-register', onclick: () => ((mode = 'register'), render()) }, 'Sign up'),
        ]),
        h(
          'form',
          { onsubmit: submit },
          h('label', null, 'Username', username),
          h('label', null, 'Password', password),
          mode === 'register' ? h('p', { class: 'hint' }, 'Usernames: 3 to 32 of a-z 0-9 _ . -') : null,
          h('button', { type: 'submit', id: 'auth-submit', class: 'primary' }, mode === 'login' ? 'Log in' : 'Create account'),
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
    render(list, new Map(turns.map((t) => [t.matchId, t])));
  };
  const joinBox = h('input', { id: 'join-id', placeholder: 'match id' });
  const friends = friendsOnline();
  /** Direct messages received while the page is open (the player event directMessage), newest first; shown as text. */
  const inbox = h('ul', { class: 'follow-list', id: 'new-messages' });
  const messages = h('section', { class: 'panel friends', id: 'messages-received', hidden: true }, h('h2', null, 'New messages'), inbox);
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
        h('a', { href: `#/messages/${encodeURIComponent(m.author)}`, class: 'small' }, 'reply'),
      ),
    );
    messages.hidden = false;
  };
  const render = (list: MatchSummary[], turns: Map<string, InboxEntry>) => {
    const rows = list.map((m) => {
      const mine = m.seats.some((s) => s.player === me);
      const invited = !mine && m.seats.some((s) => s.reservedFor === me && !s.player);
      const turn = turns.get(m.id);
      const myTurn = !!turn || (m.status === 'playing' && m.turnPlayer === me);
      const deadline = turn?.deadline ? new Date(turn.deadline) : null;
      const players = m.seats.map((s, i) => [
        i ? ', ' : '',
        s.player ? playerLink(profileName(s.player)!, { label: s.player }) : s.reservedFor ? `${s.reservedFor}?` : 'open',
      ]);
      return h(
        'tr',
        { class: myTurn ? 'my-turn' : '', 'data-match': m.id },
        h('td', null, h('a', { href: `#/match/${m.id}` }, m.preset), h('div', { class: 'muted small' }, m.id.slice(0, 8))),
        h('td', null, players),
        h('td', null, m.status === 'over' ? (m.winner === null ? 'over: a draw' : `over: ${winners(m)} won`) : m.status),
        h('td', null, myTurn ? h('strong', null, 'your turn') : (m.turnPlayer ?? '—')),
        h(
          'td',
          null,
          deadline ? h('span', { class: deadline.getTime() - Date.now() < 3_600_000 ? 'soon' : '' }, deadline.toLocaleString()) : myTurn ? 'untimed' : '—',
        ),
        h(
          'td',
          null,
          invited
            ? h(
                'button',
                { onclick: async () => (await attempt(() => client.joinMatch(m.id, { clientSeed: freshClientSeed() }))) && go(`#/match/${m.id}`) },
                'Join',
              )
            : h('a', { href: `#/match/${m.id}` }, 'Open'),
          m.status === 'over' ? [' · ', h('a', { href: `#/replay/${m.id}` }, 'Replay')] : null,
        ),
      );
    });
    mount(
      main,
      h(
        'section',
        { class: 'panel' },
        h('h1', null, 'My matches'),
        h(
          'p',
          null,
          h('a', { href: '#/new', class: 'button primary', id: 'new-match' }, 'New match'),
          ' ',
          joinBox,
          h('button', { onclick: () => joinBox.value && go(`#/match/${joinBox.value.trim()}`) }, 'Open by id'),
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
                  ['Match', 'Players', 'Status', 'Turn', 'Deadline', ''].map((t) => h('th', null, t)),
                ),
              ),
              h('tbody', null, rows),
            )
          : h('p', { class: 'muted' }, 'No matches yet.'),
      ),
      messages,
      friends.el,
    );
  };
  mount(main, h('section', { class: 'panel' }, h('h1', null, 'My matches'), h('p', { class: 'muted' }, 'Loading…')), messages, friends.el);
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

// ------------------------------------------------------------------ create a match

/** The players of the winning side (sides alternate seats in team play). */
function winners(m: MatchSummary): string {
  const sides = m.options.teams ? 2 : m.seats.length;
  return (
    m.seats
      .filter((_s, i) => i % sides === m.winner)
      .map((s) => s.player ?? '?')
      .join(' & ') || `side ${m.winner}`
  );
}

window.addEventListener('scopa:session-expired', (ev) => {
  setSession(null);
  pendingError = (ev as CustomEvent).detail;
  go('#/login');
});
window.addEventListener('hashchange', route);
onLanguageChange(route);
void initI18n().then(route);
// The installable client: the shell cached for offline starts, push notifications (docs/notifications.md).
void registerServiceWorker();
