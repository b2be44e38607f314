/**
 * Tournaments (docs/tournaments.md): the list (#/tournaments: GET
 * /v1/tournaments, newest first, with a form to create one) and a
 * tournament's page (#/tournament/{id}): its players, join / withdraw, the
 * standings table, each round's pairings with links to its matches (finished
 * ones to their replay), and my current match. Refreshed every few seconds
 * while open.
 */
import type { Standing, Tournament, TournamentRound } from '@scopa/sdk';
import { client, currentSession } from './api';
import { freshClientSeed } from './fairness';
import { h, mount } from './dom';
import { chatPanel } from './chat';
import { attempt, playerLink, profileName } from './widgets';

type Cleanup = (() => void) | void;

const REFRESH_MS = 3000;

export function tournamentsScreen(main: HTMLElement, go: (hash: string) => void): Cleanup {
  let alive = true;
  const listBox = h('div', { id: 'tournament-list' }, h('p', { class: 'muted' }, 'Loading…'));
  const name = h('input', { id: 'tournament-name', placeholder: 'name', required: true, maxlength: 80 });
  const format = h('select', { id: 'tournament-format' }, [h('option', { value: 'swiss' }, 'Swiss'), h('option', { value: 'roundRobin' }, 'Round robin')]);
  const rounds = h('input', { id: 'tournament-rounds', type: 'number', min: 1, max: 20, value: '3' });
  const limit = h('input', { id: 'tournament-limit', placeholder: 'turn time, e.g. P1D (optional)' });
  const duplicate = h('input', { id: 'tournament-duplicate', type: 'checkbox' });
  const load = async () => {
    const page = await attempt(() => client.tournaments({ first: 50 }));
    if (!alive || !page) return;
    mount(
      listBox,
      page.items.length === 0
        ? h('p', { class: 'muted' }, 'No tournament yet.')
        : h(
            'table',
            { class: 'tournaments' },
            h('tr', null, h('th', null, 'name'), h('th', null, 'format'), h('th', null, 'status'), h('th', null, 'players'), h('th', null, 'round')),
            page.items.map((t) =>
              h(
                'tr',
                { 'data-tournament': t.id },
                h('td', null, h('a', { href: `#/tournament/${t.id}` }, t.name)),
                h('td', null, t.format === 'roundRobin' ? 'round robin' : 'Swiss', t.duplicate ? ' (duplicate)' : ''),
                h('td', null, t.status),
                h('td', null, String(t.players.length)),
                h('td', null, `${t.currentRound} / ${t.roundsToPlay}`),
              ),
            ),
          ),
    );
  };
  const create = async (ev: Event) => {
    ev.preventDefault();
    const t = await attempt(() =>
      client.createTournament({
        name: name.value,
        format: format.value as Tournament['format'],
        preset: 'scopa',
        rounds: Number(rounds.value) || 3,
        turnTimeLimit: limit.value.trim() || null,
        duplicate: duplicate.checked,
      }),
    );
    if (t) go(`#/tournament/${t.id}`);
  };
  mount(
    main,
    h(
      'section',
      { class: 'panel', id: 'tournaments' },
      h('h2', null, 'Tournaments'),
      listBox,
      h('h3', null, 'New tournament'),
      h(
        'form',
        { id: 'tournament-form', onsubmit: create },
        name,
        format,
        rounds,
        limit,
        h('label', null, duplicate, ' duplicate deals'),
        h('button', { type: 'submit', id: 'tournament-create' }, 'Create'),
      ),
    ),
  );
  void load();
  const timer = setInterval(() => void load(), REFRESH_MS);
  return () => {
    alive = false;
    clearInterval(timer);
  };
}

function standingsTable(rows: Standing[], duplicate: boolean): HTMLElement {
  return h(
    'table',
    { id: 'standings', class: 'standings' },
    h(
      'tr',
      null,
      ['#', 'player', 'points', ...(duplicate ? ['duplicate'] : []), 'Buchholz', 'S-B', 'game points', 'W-D-L'].map((c) => h('th', null, c)),
    ),
    rows.map((r) =>
      h(
        'tr',
        { 'data-player': r.player },
        h('td', null, String(r.rank)),
        h('td', null, playerLink(profileName(r.player)!, { label: r.player }), r.withdrawn ? h('span', { class: 'muted small' }, ' withdrawn') : null),
        h('td', null, String(r.matchPoints)),
        duplicate ? h('td', null, String(r.duplicateScore ?? 0)) : null,
        h('td', null, String(r.buchholz)),
        h('td', null, String(r.sonnebornBerger)),
        h('td', null, String(r.gamePointsDifference)),
        h('td', null, `${r.wins}-${r.draws}-${r.losses}${r.byes ? ` (+${r.byes} bye)` : ''}`),
      ),
    ),
  );
}

function roundBox(r: TournamentRound, me: string | null): HTMLElement {
  return h(
    'div',
    { class: 'round', 'data-round': String(r.round) },
    h('h4', null, `Round ${r.round}`, r.ended ? '' : ' (in play)'),
    h(
      'ul',
      null,
      r.tables.map((t) => {
        const result =
          t.outcome === null ? 'playing' : t.outcome === 'draw' ? 'draw' : `${t.players[t.outcome === 'first' ? 0 : 1]} won${t.forfeit ? ' (forfeit)' : ''}`;
        const link = t.matchId
          ? h(
              'a',
              { href: t.outcome === null ? `#/match/${t.matchId}` : `#/replay/${t.matchId}`, class: 'table-link' },
              t.outcome === null ? 'watch' : 'replay',
            )
          : null;
        return h(
          'li',
          { class: t.players.includes(me ?? '') ? 'table mine' : 'table', 'data-match': t.matchId ?? '' },
          `Table ${t.table}: ${t.players[0]} – ${t.players[1]}: ${result} `,
          link,
        );
      }),
      r.bye ? h('li', { class: 'bye' }, `Bye: ${r.bye}`) : null,
    ),
  );
}

export function tournamentScreen(main: HTMLElement, id: string): Cleanup {
  let alive = true;
  const me = currentSession()?.username ?? null;
  const chat = chatPanel({ kind: 'tournament', id }, { id: 'tournament-chat', title: 'Tournament chat' });
  // The page is drawn again on every refresh; the chat under it stays (its input keeps the focus).
  const content = h('div', null, h('p', { class: 'muted' }, 'Loading…'));
  mount(main, content, h('div', { class: 'panel chat-panel' }, chat.el));
  const load = async () => {
    const t = await attempt(() => client.tournament(id));
    if (!alive || !t) return;
    const [standings, rounds] = await Promise.all([
      attempt(() => client.tournamentStandings(id)),
      Promise.all(Array.from({ length: t.currentRound }, (_, i) => attempt(() => client.tournamentRound(id, i + 1)))),
    ]);
    if (!alive) return;
    const mePlayer = t.players.find((p) => p.player === me);
    const current = rounds[rounds.length - 1];
    // Every table of a duplicate round holds the same cards: the room is closed (CHAT_CLOSED) until the round ends.
    chat.setNotice(
      t.duplicate && t.status === 'started' && current && !current.ended
        ? `Chat is closed while duplicate round ${current.round} runs: every table holds the same cards. It opens again when the round ends.`
        : null,
    );
    const myTable = current && !current.ended ? current.tables.find((x) => x.players.includes(me ?? '') && x.outcome === null && x.matchId) : undefined;
    const actions = [
      t.status === 'created' && !mePlayer
        ? h('button', { id: 'tournament-join', onclick: async () => (await attempt(() => client.joinTournament(id, freshClientSeed()))) && load() }, 'Join')
        : null,
      mePlayer && !mePlayer.withdrawn && (t.status === 'created' || t.status === 'started')
        ? h('button', { id: 'tournament-withdraw', onclick: async () => (await attempt(() => client.withdrawFromTournament(id))) && load() }, 'Withdraw')
        : null,
      t.status === 'created' && t.createdBy === me
        ? h('button', { id: 'tournament-start', onclick: async () => (await attempt(() => client.startTournament(id))) && load() }, 'Start now')
        : null,
    ];
    mount(
      content,
      h(
        'section',
        { class: 'panel', id: 'tournament', 'data-status': t.status },
        h('h2', null, t.name),
        h(
          'p',
          { class: 'muted' },
          `${t.format === 'roundRobin' ? 'Round robin' : 'Swiss'}${t.duplicate ? ', duplicate deals' : ''}, ${t.preset}; ${t.status}; round ${t.currentRound} of ${t.roundsToPlay}`,
        ),
        h('div', { class: 'actions' }, actions),
        myTable ? h('p', { id: 'my-tournament-match' }, 'My match: ', h('a', { href: `#/match/${myTable.matchId}` }, `table ${myTable.table}`)) : null,
        h('h3', null, 'Players'),
        h(
          'ul',
          { id: 'tournament-players' },
          t.players.map((p) => h('li', { 'data-player': p.player }, p.player, p.withdrawn ? ' (withdrawn)' : '')),
        ),
        h('h3', null, 'Standings'),
        standings ? standingsTable(standings, t.duplicate) : null,
        h('h3', null, 'Rounds'),
        h(
          'div',
          { id: 'tournament-rounds' },
          rounds.flatMap((r) => (r ? [roundBox(r, me)] : [])),
        ),
      ),
    );
  };
  void load();
  const timer = setInterval(() => void load(), REFRESH_MS);
  return () => {
    alive = false;
    clearInterval(timer);
    chat.close();
  };
}
