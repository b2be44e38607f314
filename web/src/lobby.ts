/**
 * The lobby page (#/lobby): open matches I may join (GET /v1/lobby), "play
 * someone" (a seek, POST /v1/seeks: the service pairs me with a compatible
 * seek and starts the match), and my challenges: incoming ones to accept or
 * decline, my own to cancel, and a form to challenge a player. The lobby and
 * seeks may be missing on a server (404): that section says so and the rest
 * works. Refreshed every few seconds while open.
 */
import { ScopaError } from '@scopa/sdk';
import type { Challenge, ChallengeInput, CreateSeekInput, LobbyMatch } from '@scopa/sdk';
import { client } from './api';
import { freshClientSeed } from './fairness';
import { h, mount } from './dom';
import { chatPanel } from './chat';
import { formatNumber, t } from './i18n';
import { gameChoice, gameName, loadPresets, twoPlayerGames } from './game-choice';
import type { GameChoice } from './game-choice';
import { clockChoice, clockWords } from './clock-choice';
import { attempt, playerLink, profileName, showError } from './widgets';

type Cleanup = (() => void) | void;

const REFRESH_MS = 3000;

/** A 404: the route is not on this server (the lobby and seeks come with another part of the service). */
function notFound(err: unknown): boolean {
  return err instanceof ScopaError && err.status === 404;
}

function seatsOf(e: LobbyMatch): string {
  const open = e.seats.filter((s) => s.state === 'open').length;
  return t('lobby:seats', { count: e.seats.length, n: formatNumber(e.seats.length), open: formatNumber(open) });
}

/** A rated choice: a checkbox next to its label. */
function ratedBox(id: string): { el: HTMLElement; box: HTMLInputElement } {
  const box = h('input', { id, type: 'checkbox' });
  return { el: h('div', { class: 'field check' }, box, h('label', { for: id }, t('lobby:rated'))), box };
}

export function lobbyScreen(main: HTMLElement, go: (hash: string) => void): Cleanup {
  let alive = true;
  const openBox = h('div', { id: 'lobby-open' }, h('p', { class: 'muted' }, t('common:loading')));
  const incomingBox = h('div', { id: 'challenges-in' }, h('p', { class: 'muted' }, t('common:loading')));
  const outgoingBox = h('div', { id: 'challenges-out' });
  const answers = h('ul', { id: 'challenge-answers', class: 'challenges' });
  /** My pending challenges at the last refresh. */
  const sent = new Set<string>();
  const seekStatus = h('p', { id: 'seek-status', class: 'muted' });
  // The games come with the presets (GET /v1/rulesets): the forms are drawn once they are read.
  const seekGame = h('div', { class: 'form-row' }, h('p', { class: 'muted' }, t('common:loading')));
  const seekClock = clockChoice({ id: 'seek-limit' });
  const seekRated = ratedBox('seek-rated');
  const who = h('input', { id: 'challenge-user', required: true, autocomplete: 'off' });
  const chGame = h('div', { class: 'form-row' }, h('p', { class: 'muted' }, t('common:loading')));
  const chClock = clockChoice({ id: 'challenge-limit' });
  const chRated = ratedBox('challenge-rated');
  let seekPreset: GameChoice | null = null;
  let chPreset: GameChoice | null = null;
  void attempt(async () => {
    const presets = await loadPresets();
    if (!alive) return;
    // A seek may be of any game (its players are the game's); a challenge is a two-player match.
    seekPreset = gameChoice(presets, { id: 'seek-preset' });
    chPreset = gameChoice(twoPlayerGames(presets), { id: 'challenge-preset' });
    mount(seekGame, seekPreset.el);
    mount(chGame, chPreset.el);
  });

  const loadOpen = async () => {
    try {
      const list = (await client.lobby({ limit: 50 })).matches;
      if (!alive) return;
      const rows = list.map((e) =>
        h(
          'tr',
          { 'data-match': e.id },
          h('td', null, gameName(e.preset), e.rated ? h('span', { class: 'muted small rated' }, ' ', t('lobby:ratedTag')) : null),
          h('td', null, e.createdBy ? playerLink(profileName(e.createdBy)!, { label: e.createdBy }) : t('common:none')),
          h('td', null, seatsOf(e)),
          h('td', null, clockWords(e.turnTimeLimit)),
          h(
            'td',
            null,
            h(
              'button',
              { class: 'join', onclick: async () => (await attempt(() => client.joinMatch(e.id, { clientSeed: freshClientSeed() }))) && go(`#/match/${e.id}`) },
              t('lobby:join'),
            ),
          ),
        ),
      );
      mount(
        openBox,
        rows.length
          ? h(
              'div',
              { class: 'table-scroll' },
              h(
                'table',
                { class: 'inbox' },
                h(
                  'thead',
                  null,
                  h(
                    'tr',
                    null,
                    [t('lobby:game'), t('lobby:creator'), t('lobby:seatsHead'), t('lobby:clock'), ''].map((head) => h('th', { scope: 'col' }, head)),
                  ),
                ),
                h('tbody', null, rows),
              ),
            )
          : h('p', { class: 'muted' }, t('lobby:noOpen')),
      );
    } catch (err) {
      if (!alive) return;
      if (notFound(err)) mount(openBox, h('p', { class: 'muted', id: 'lobby-missing' }, t('lobby:missing')));
      else mount(openBox, h('p', { class: 'muted' }, t('lobby:unreadable', { message: (err as Error).message })));
    }
  };

  const answer = async (action: () => Promise<Challenge>) => {
    const c = await attempt(action);
    if (c?.matchId && c.status === 'accepted') go(`#/match/${c.matchId}`);
    else void loadChallenges();
  };

  const loadChallenges = async () => {
    const mine = await attempt(() => client.myChallenges());
    if (!mine || !alive) return;
    const describe = (c: Challenge) => t(c.rated ? 'lobby:describeRated' : 'lobby:describe', { game: gameName(c.preset), clock: clockWords(c.turnTimeLimit) });
    mount(
      incomingBox,
      mine.in.length
        ? h(
            'ul',
            { class: 'challenges' },
            mine.in.map((c) =>
              h(
                'li',
                { 'data-challenge': c.id, class: 'challenge-in' },
                t('lobby:challengesYou', { name: c.challenger, what: describe(c) }),
                ' ',
                h('button', { class: 'primary accept', onclick: () => answer(() => client.acceptChallenge(c.id)) }, t('lobby:accept')),
                ' ',
                h('button', { class: 'decline', onclick: () => answer(() => client.declineChallenge(c.id, 'generic')) }, t('lobby:decline')),
              ),
            ),
          )
        : h('p', { class: 'muted' }, t('lobby:noChallenge')),
    );
    mount(
      outgoingBox,
      mine.out.length
        ? h(
            'ul',
            { class: 'challenges' },
            mine.out.map((c) =>
              h(
                'li',
                { 'data-challenge': c.id, class: 'challenge-out' },
                t('lobby:youChallenged', { name: c.destUser, what: describe(c) }),
                ' ',
                h('button', { class: 'cancel', onclick: () => answer(() => client.cancelChallenge(c.id)) }, t('lobby:cancel')),
              ),
            ),
          )
        : null,
    );
    // A challenge of mine that left the list was answered (or expired): say how, with a link to the match when accepted.
    for (const id of sent) {
      if (mine.out.some((c) => c.id === id)) continue;
      sent.delete(id);
      const c = await attempt(() => client.getChallenge(id));
      if (!c || !alive) continue;
      answers.prepend(
        h(
          'li',
          { class: `answer ${c.status}`, 'data-challenge': c.id },
          t(`lobby:answer.${c.status === 'accepted' || c.status === 'declined' || c.status === 'expired' ? c.status : 'other'}`, { name: c.destUser }),
          c.matchId ? [' ', h('a', { href: `#/match/${c.matchId}`, class: 'open-match' }, t('lobby:openMatch'))] : null,
        ),
      );
    }
    for (const c of mine.out) sent.add(c.id);
  };

  const seek = async (ev: Event) => {
    ev.preventDefault();
    if (!seekPreset) return;
    const input: CreateSeekInput = { preset: seekPreset.select.value };
    const limit = seekClock.value();
    if (limit) input.turnTimeLimit = limit;
    if (seekClock.onExpiry() === 'forfeit') input.onExpiry = 'forfeit';
    if (seekRated.box.checked) input.rated = true;
    try {
      const s = await client.createSeek(input);
      seekStatus.textContent = s.matchId ? t('lobby:paired') : t('lobby:seeking');
      if (s.matchId) go(`#/match/${s.matchId}`);
    } catch (err) {
      if (notFound(err)) seekStatus.textContent = t('lobby:noSeeks');
      else showError(err);
    }
  };

  const challenge = async (ev: Event) => {
    ev.preventDefault();
    if (!chPreset) return;
    const input: ChallengeInput = { username: who.value.trim(), preset: chPreset.select.value };
    const limit = chClock.value();
    if (limit) input.turnTimeLimit = limit;
    if (chClock.onExpiry() === 'forfeit') input.onExpiry = 'forfeit';
    if (chRated.box.checked) input.rated = true;
    if (await attempt(() => client.challenge(input))) {
      who.value = '';
      void loadChallenges();
    }
  };

  const chat = chatPanel({ kind: 'lobby' }, { id: 'lobby-chat', title: t('lobby:chat') });
  mount(
    main,
    h(
      'section',
      { class: 'panel', id: 'lobby' },
      h('h1', null, t('lobby:title')),
      h('h2', null, t('lobby:challengesForYou')),
      incomingBox,
      outgoingBox,
      answers,
      h('h2', null, t('lobby:challengeTitle')),
      h(
        'form',
        { id: 'challenge-form', onsubmit: challenge },
        h('div', { class: 'field' }, h('label', { for: 'challenge-user' }, t('lobby:challengeWho')), who),
        chGame,
        h('div', { class: 'form-row' }, chClock.el, chRated.el),
        h('p', { class: 'muted small form-note' }, t('lobby:challengeNote')),
        h('button', { type: 'submit', id: 'challenge-submit' }, t('lobby:challenge')),
      ),
      h('h2', null, t('lobby:playSomeone')),
      h(
        'form',
        { id: 'seek-form', onsubmit: seek },
        seekGame,
        h('div', { class: 'form-row' }, seekClock.el, seekRated.el),
        h('p', { class: 'muted small form-note' }, t('lobby:ratedNote')),
        h('button', { type: 'submit', class: 'primary', id: 'seek-submit' }, t('lobby:playSomeone')),
      ),
      seekStatus,
      h('h2', null, t('lobby:openMatches')),
      openBox,
      chat.el,
    ),
  );
  const refresh = () => Promise.all([loadOpen(), loadChallenges()]);
  void refresh();
  const timer = setInterval(() => void refresh(), REFRESH_MS);
  return () => {
    alive = false;
    clearInterval(timer);
    chat.close();
  };
}
