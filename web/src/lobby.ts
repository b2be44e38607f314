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
import { attempt, playerLink, profileName, showError } from './widgets';

type Cleanup = (() => void) | void;

const REFRESH_MS = 3000;

/** A 404: the route is not on this server (the lobby and seeks come with another part of the service). */
function notFound(err: unknown): boolean {
  return err instanceof ScopaError && err.status === 404;
}

function clockOf(e: LobbyMatch): string {
  return e.turnTimeLimit ? `${e.turnTimeLimit} a turn` : 'untimed';
}

function seatsOf(e: LobbyMatch): string {
  return `${e.seats.length} seats, ${e.seats.filter((s) => s.state === 'open').length} open`;
}

export function lobbyScreen(main: HTMLElement, go: (hash: string) => void): Cleanup {
  let alive = true;
  const openBox = h('div', { id: 'lobby-open' }, h('p', { class: 'muted' }, 'Loading…'));
  const incomingBox = h('div', { id: 'challenges-in' }, h('p', { class: 'muted' }, 'Loading…'));
  const outgoingBox = h('div', { id: 'challenges-out' });
  const answers = h('ul', { id: 'challenge-answers', class: 'challenges' });
  /** My pending challenges at the last refresh. */
  const sent = new Set<string>();
  const seekStatus = h('p', { id: 'seek-status', class: 'muted' });
  const seekPreset = h(
    'select',
    { id: 'seek-preset' },
    ['scopa', 'scopa-d-assi'].map((p) => h('option', { value: p }, p)),
  );
  const seekLimit = h('input', { id: 'seek-limit', placeholder: 'turn time, e.g. P1D (optional)' });
  const who = h('input', { id: 'challenge-user', placeholder: 'username', required: true });
  const chPreset = h(
    'select',
    { id: 'challenge-preset' },
    ['scopa', 'scopa-d-assi'].map((p) => h('option', { value: p }, p)),
  );
  const chLimit = h('input', { id: 'challenge-limit', placeholder: 'turn time, e.g. P1D (optional)' });

  const loadOpen = async () => {
    try {
      const list = (await client.lobby({ limit: 50 })).matches;
      if (!alive) return;
      const rows = list.map((e) =>
        h(
          'tr',
          { 'data-match': e.id },
          h('td', null, e.preset, e.rated ? h('span', { class: 'muted small' }, ' rated') : null),
          h('td', null, e.createdBy ? playerLink(profileName(e.createdBy)!, { label: e.createdBy }) : '—'),
          h('td', null, seatsOf(e)),
          h('td', null, clockOf(e)),
          h(
            'td',
            null,
            h(
              'button',
              { class: 'join', onclick: async () => (await attempt(() => client.joinMatch(e.id, { clientSeed: freshClientSeed() }))) && go(`#/match/${e.id}`) },
              'Join',
            ),
          ),
        ),
      );
      mount(
        openBox,
        rows.length
          ? h(
              'table',
              { class: 'inbox' },
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  ['Preset', 'Creator', 'Seats', 'Clock', ''].map((t) => h('th', null, t)),
                ),
              ),
              h('tbody', null, rows),
            )
          : h('p', { class: 'muted' }, 'No open match right now: seek one below.'),
      );
    } catch (err) {
      if (!alive) return;
      if (notFound(err)) mount(openBox, h('p', { class: 'muted', id: 'lobby-missing' }, 'The lobby is not available on this server.'));
      else mount(openBox, h('p', { class: 'muted' }, `The lobby could not be read: ${(err as Error).message}`));
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
    const describe = (c: Challenge) =>
      `${c.preset ?? 'saved ruleset'}, ${c.turnTimeLimit ? `${c.turnTimeLimit} a turn` : 'untimed'}${c.rated ? ', rated' : ''}`;
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
                h('strong', null, c.challenger),
                ` challenges you: ${describe(c)} `,
                h('button', { class: 'primary accept', onclick: () => answer(() => client.acceptChallenge(c.id)) }, 'Accept'),
                ' ',
                h('button', { class: 'decline', onclick: () => answer(() => client.declineChallenge(c.id, 'generic')) }, 'Decline'),
              ),
            ),
          )
        : h('p', { class: 'muted' }, 'No challenge for you.'),
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
                `You challenged ${c.destUser}: ${describe(c)} `,
                h('button', { class: 'cancel', onclick: () => answer(() => client.cancelChallenge(c.id)) }, 'Cancel'),
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
          `${c.destUser} ${c.status === 'accepted' ? 'accepted your challenge: ' : `${c.status === 'expired' ? 'did not answer' : c.status} your challenge.`}`,
          c.matchId ? h('a', { href: `#/match/${c.matchId}`, class: 'open-match' }, 'open the match') : null,
        ),
      );
    }
    for (const c of mine.out) sent.add(c.id);
  };

  const seek = async (ev: Event) => {
    ev.preventDefault();
    const input: CreateSeekInput = { preset: seekPreset.value };
    if (seekLimit.value.trim()) input.turnTimeLimit = seekLimit.value.trim();
    try {
      const s = await client.createSeek(input);
      seekStatus.textContent = s.matchId
        ? 'Paired: opening the match…'
        : 'Seeking an opponent: you will be paired with the first compatible seek (see My matches).';
      if (s.matchId) go(`#/match/${s.matchId}`);
    } catch (err) {
      if (notFound(err)) seekStatus.textContent = 'Seeks are not available on this server.';
      else showError(err);
    }
  };

  const challenge = async (ev: Event) => {
    ev.preventDefault();
    const input: ChallengeInput = { username: who.value.trim(), preset: chPreset.value };
    if (chLimit.value.trim()) input.turnTimeLimit = chLimit.value.trim();
    if (await attempt(() => client.challenge(input))) {
      who.value = '';
      void loadChallenges();
    }
  };

  const chat = chatPanel({ kind: 'lobby' }, { id: 'lobby-chat', title: 'Lobby chat' });
  mount(
    main,
    h(
      'section',
      { class: 'panel', id: 'lobby' },
      h('h1', null, 'Lobby'),
      h('h2', null, 'Challenges for you'),
      incomingBox,
      outgoingBox,
      answers,
      h(
        'form',
        { id: 'challenge-form', class: 'row', onsubmit: challenge },
        h('label', null, 'Challenge a player', who),
        h('label', null, 'Preset', chPreset),
        h('label', null, 'Clock', chLimit),
        h('button', { type: 'submit', id: 'challenge-submit' }, 'Challenge'),
      ),
      h('h2', null, 'Play someone'),
      h(
        'form',
        { id: 'seek-form', class: 'row', onsubmit: seek },
        h('label', null, 'Preset', seekPreset),
        h('label', null, 'Clock', seekLimit),
        h('button', { type: 'submit', class: 'primary', id: 'seek-submit' }, 'Play someone'),
      ),
      seekStatus,
      h('h2', null, 'Open matches'),
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
