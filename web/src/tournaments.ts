/**
 * Tournaments (docs/tournaments.md): the list (#/tournaments: GET
 * /v1/tournaments, newest first, with a form to create one: its game,
 * format, rounds, size, start, clock, rated and duplicate) and a
 * tournament's page (#/tournament/{id}): its players, join / withdraw, the
 * standings table, each round's pairings with links to its matches (finished
 * ones to their replay), and my current match; each empty section says why
 * in words. Refreshed every few seconds while open.
 */
import type { CreateTournamentInput, Standing, Tournament, TournamentRound } from '@scopa/sdk';
import { client, currentSession } from './api';
import { freshClientSeed } from './fairness';
import { h, mount } from './dom';
import { chatPanel } from './chat';
import { formatDate, formatNumber, t } from './i18n';
import { gameChoice, gameName, loadPresets, twoPlayerGames } from './game-choice';
import { clockChoice, clockWords } from './clock-choice';
import { attempt, playerLink, profileName } from './widgets';

type Cleanup = (() => void) | void;

const REFRESH_MS = 3000;
/** The API's bounds (src/tournaments): rounds 1 to 20; players 2 to 256 for swiss, 2 to 16 for a round robin. */
const MAX_ROUNDS = 20;
const MAX_PLAYERS = { swiss: 256, roundRobin: 16 } as const;
const DEFAULT_PLAYERS = { swiss: 64, roundRobin: 16 } as const;

const formatWords = (f: Tournament['format']) => t(f === 'roundRobin' ? 'tournaments:format.roundRobin' : 'tournaments:format.swiss');
const statusWords = (s: Tournament['status']) => t(`tournaments:status.${s}`);
const num = (n: number) => formatNumber(n);

/** A labelled field: its label (for=) above the control. */
const field = (id: string, label: string, control: HTMLElement, hint?: HTMLElement) =>
  h('div', { class: 'field' }, h('label', { for: id }, label), control, hint ?? null);
/** A checkbox next to its label. */
const check = (box: HTMLInputElement, label: string) => h('div', { class: 'field check' }, box, h('label', { for: box.id }, label));

function creationForm(go: (hash: string) => void, isAlive: () => boolean): HTMLElement {
  const form = h('form', { id: 'tournament-form' }, h('p', { class: 'muted' }, t('common:loading')));
  const name = h('input', { id: 'tournament-name', required: true, maxlength: 80, autocomplete: 'off' });
  const format = h('select', { id: 'tournament-format' }, [
    h('option', { value: 'swiss' }, formatWords('swiss')),
    h('option', { value: 'roundRobin' }, formatWords('roundRobin')),
  ]);
  const rounds = h('input', { id: 'tournament-rounds', type: 'number', min: 1, max: MAX_ROUNDS, step: 1, value: '3', required: true });
  const roundsHint = h('p', { class: 'muted small form-note', id: 'tournament-rounds-hint' });
  const size = h('input', {
    id: 'tournament-size',
    type: 'number',
    min: 2,
    max: MAX_PLAYERS.swiss,
    step: 1,
    value: String(DEFAULT_PLAYERS.swiss),
    required: true,
  });
  const startsAt = h('input', { id: 'tournament-starts-at', type: 'datetime-local', 'aria-describedby': 'tournament-starts-at-hint' });
  const startsHint = h('p', { class: 'muted small form-note', id: 'tournament-starts-at-hint' }, t('tournaments:form.startHint'));
  const clock = clockChoice({ id: 'tournament-limit' });
  const rated = h('input', { id: 'tournament-rated', type: 'checkbox' });
  const duplicate = h('input', { id: 'tournament-duplicate', type: 'checkbox', 'aria-describedby': 'tournament-duplicate-hint' });
  const formatChanged = () => {
    const f = format.value as Tournament['format'];
    const robin = f === 'roundRobin';
    rounds.disabled = robin;
    roundsHint.textContent = robin ? t('tournaments:form.roundsRobin') : t('tournaments:form.roundsSwiss');
    size.max = String(MAX_PLAYERS[f]);
    if (Number(size.value) > MAX_PLAYERS[f] || robin) size.value = String(DEFAULT_PLAYERS[f]);
  };
  format.addEventListener('change', formatChanged);
  formatChanged();
  void attempt(async () => {
    const presets = twoPlayerGames(await loadPresets());
    if (!isAlive()) return;
    const game = gameChoice(presets, { id: 'tournament-preset' });
    const create = async (ev: Event) => {
      ev.preventDefault();
      const f = format.value as Tournament['format'];
      const input: CreateTournamentInput = {
        name: name.value,
        format: f,
        preset: game.select.value,
        maxPlayers: Number(size.value),
        turnTimeLimit: clock.value(),
        rated: rated.checked,
        duplicate: duplicate.checked,
      };
      if (clock.onExpiry() === 'forfeit') input.onExpiry = 'forfeit';
      if (f === 'swiss') input.rounds = Number(rounds.value);
      if (startsAt.value) input.startsAt = new Date(startsAt.value).toISOString();
      const made = await attempt(() => client.createTournament(input));
      if (made) go(`#/tournament/${made.id}`);
    };
    form.addEventListener('submit', create);
    mount(
      form,
      field('tournament-name', t('tournaments:form.name'), name),
      game.el,
      h(
        'div',
        { class: 'form-row' },
        field('tournament-format', t('tournaments:form.format'), format),
        field('tournament-rounds', t('tournaments:form.rounds'), rounds),
        field('tournament-size', t('tournaments:form.size'), size),
      ),
      roundsHint,
      h('div', { class: 'form-row' }, field('tournament-starts-at', t('tournaments:form.start'), startsAt), clock.el),
      startsHint,
      check(rated, t('tournaments:form.rated')),
      check(duplicate, t('tournaments:form.duplicate')),
      h('p', { class: 'muted small form-note', id: 'tournament-duplicate-hint' }, t('tournaments:form.duplicateHint')),
      h('button', { type: 'submit', class: 'primary', id: 'tournament-create' }, t('tournaments:form.create')),
    );
  });
  return form;
}

export function tournamentsScreen(main: HTMLElement, go: (hash: string) => void): Cleanup {
  let alive = true;
  const listBox = h('div', { id: 'tournament-list' }, h('p', { class: 'muted' }, t('common:loading')));
  const load = async () => {
    const page = await attempt(() => client.tournaments({ first: 50 }));
    if (!alive || !page) return;
    mount(
      listBox,
      page.items.length === 0
        ? h('p', { class: 'muted', id: 'no-tournaments' }, t('tournaments:list.empty'))
        : h(
            'div',
            { class: 'table-scroll' },
            h(
              'table',
              { class: 'tournaments' },
              h(
                'tr',
                null,
                ['name', 'game', 'format', 'status', 'players', 'round'].map((c) => h('th', { scope: 'col' }, t(`tournaments:list.${c}`))),
              ),
              page.items.map((x) =>
                h(
                  'tr',
                  { 'data-tournament': x.id },
                  h('td', null, h('a', { href: `#/tournament/${x.id}` }, x.name)),
                  h('td', null, gameName(x.preset)),
                  h(
                    'td',
                    null,
                    formatWords(x.format),
                    x.duplicate ? [' ', t('tournaments:duplicateTag')] : null,
                    x.rated ? [' ', t('tournaments:ratedTag')] : null,
                  ),
                  h('td', null, statusWords(x.status)),
                  h('td', null, num(x.players.length)),
                  h('td', null, t('tournaments:list.roundOf', { round: num(x.currentRound), of: num(x.roundsToPlay) })),
                ),
              ),
            ),
          ),
    );
  };
  // The presets' names (GET /v1/rulesets) before the list, so that it names each game.
  void loadPresets()
    .catch(() => undefined)
    .then(load);
  mount(
    main,
    h(
      'section',
      { class: 'panel', id: 'tournaments' },
      h('h2', null, t('tournaments:title')),
      listBox,
      h('h3', null, t('tournaments:form.title')),
      creationForm(go, () => alive),
    ),
  );
  const timer = setInterval(() => void load(), REFRESH_MS);
  return () => {
    alive = false;
    clearInterval(timer);
  };
}

function standingsTable(rows: Standing[], duplicate: boolean): HTMLElement {
  const heads = ['rank', 'player', 'points', ...(duplicate ? ['duplicate'] : []), 'buchholz', 'sonnebornBerger', 'gamePoints', 'record'];
  return h(
    'table',
    { id: 'standings', class: 'standings' },
    h(
      'tr',
      null,
      heads.map((c) => h('th', { scope: 'col' }, t(`tournaments:standings.${c}`))),
    ),
    rows.map((r) =>
      h(
        'tr',
        { 'data-player': r.player },
        h('td', null, num(r.rank)),
        h(
          'td',
          null,
          playerLink(profileName(r.player)!, { label: r.player }),
          r.withdrawn ? h('span', { class: 'muted small' }, ' ', t('tournaments:withdrawn')) : null,
        ),
        h('td', null, num(r.matchPoints)),
        duplicate ? h('td', null, num(r.duplicateScore ?? 0)) : null,
        h('td', null, num(r.buchholz)),
        h('td', null, num(r.sonnebornBerger)),
        h('td', null, num(r.gamePointsDifference)),
        h(
          'td',
          null,
          t('tournaments:standings.wdl', { w: num(r.wins), d: num(r.draws), l: num(r.losses) }),
          r.byes ? [' ', t('tournaments:standings.byes', { count: r.byes, n: num(r.byes) })] : null,
        ),
      ),
    ),
  );
}

function roundBox(r: TournamentRound, me: string | null): HTMLElement {
  return h(
    'div',
    { class: 'round', 'data-round': String(r.round) },
    h('h4', null, t(r.ended ? 'tournaments:round.title' : 'tournaments:round.inPlay', { n: num(r.round) })),
    h(
      'ul',
      null,
      r.tables.map((x) => {
        const winner = x.outcome === 'first' ? x.players[0] : x.players[1];
        const result =
          x.outcome === null
            ? t('tournaments:round.playing')
            : x.outcome === 'draw'
              ? t('tournaments:round.draw')
              : t(x.forfeit ? 'tournaments:round.wonForfeit' : 'tournaments:round.won', { name: winner });
        const link = x.matchId
          ? h(
              'a',
              { href: x.outcome === null ? `#/match/${x.matchId}` : `#/replay/${x.matchId}`, class: 'table-link' },
              t(x.outcome === null ? 'tournaments:round.watch' : 'tournaments:round.replay'),
            )
          : null;
        return h(
          'li',
          { class: x.players.includes(me ?? '') ? 'table mine' : 'table', 'data-match': x.matchId ?? '' },
          t('tournaments:round.table', { n: num(x.table), first: x.players[0], second: x.players[1], result }),
          ' ',
          link,
        );
      }),
      r.bye ? h('li', { class: 'bye' }, t('tournaments:round.bye', { name: r.bye })) : null,
    ),
  );
}

/** The tournament's settings in words: format, game, clock, rated, size, start. */
function describe(x: Tournament): string[] {
  return [
    [formatWords(x.format), x.duplicate ? t('tournaments:duplicateTag') : null, x.rated ? t('tournaments:ratedTag') : null].filter(Boolean).join(' '),
    gameName(x.preset),
    clockWords(x.turnTimeLimit),
    t('tournaments:page.size', { n: num(x.players.length), max: num(x.maxPlayers) }),
    x.status === 'created'
      ? x.startsAt
        ? t('tournaments:page.startsAt', { when: formatDate(x.startsAt) })
        : t('tournaments:page.startsByCreator')
      : t('tournaments:page.roundOf', { status: statusWords(x.status), round: num(x.currentRound), of: num(x.roundsToPlay) }),
  ];
}

export function tournamentScreen(main: HTMLElement, id: string): Cleanup {
  let alive = true;
  const me = currentSession()?.username ?? null;
  const chat = chatPanel({ kind: 'tournament', id }, { id: 'tournament-chat', title: t('tournaments:chat') });
  // The page is drawn again on every refresh; the chat under it stays (its input keeps the focus).
  const content = h('div', null, h('p', { class: 'muted' }, t('common:loading')));
  mount(main, content, h('div', { class: 'panel chat-panel' }, chat.el));
  const load = async () => {
    await loadPresets().catch(() => undefined);
    const x = await attempt(() => client.tournament(id));
    if (!alive || !x) return;
    const [standings, rounds] = await Promise.all([
      x.currentRound > 0 ? attempt(() => client.tournamentStandings(id)) : Promise.resolve(undefined),
      Promise.all(Array.from({ length: x.currentRound }, (_, i) => attempt(() => client.tournamentRound(id, i + 1)))),
    ]);
    if (!alive) return;
    const mePlayer = x.players.find((p) => p.player === me);
    const current = rounds[rounds.length - 1];
    // Every table of a duplicate round holds the same cards: the room is closed (CHAT_CLOSED) until the round ends.
    chat.setNotice(x.duplicate && x.status === 'started' && current && !current.ended ? t('tournaments:chatClosed', { round: num(current.round) }) : null);
    const myTable = current && !current.ended ? current.tables.find((tb) => tb.players.includes(me ?? '') && tb.outcome === null && tb.matchId) : undefined;
    const actions = [
      x.status === 'created' && !mePlayer
        ? h(
            'button',
            { id: 'tournament-join', class: 'primary', onclick: async () => (await attempt(() => client.joinTournament(id, freshClientSeed()))) && load() },
            t('tournaments:page.join'),
          )
        : null,
      mePlayer && !mePlayer.withdrawn && (x.status === 'created' || x.status === 'started')
        ? h(
            'button',
            { id: 'tournament-withdraw', onclick: async () => (await attempt(() => client.withdrawFromTournament(id))) && load() },
            t('tournaments:page.withdraw'),
          )
        : null,
      x.status === 'created' && x.createdBy === me
        ? h('button', { id: 'tournament-start', onclick: async () => (await attempt(() => client.startTournament(id))) && load() }, t('tournaments:page.start'))
        : null,
    ];
    const shownRounds = rounds.flatMap((r) => (r ? [roundBox(r, me)] : []));
    mount(
      content,
      h(
        'section',
        { class: 'panel', id: 'tournament', 'data-status': x.status },
        h('h2', null, x.name),
        h(
          'ul',
          { class: 'muted tournament-facts', id: 'tournament-facts' },
          describe(x).map((line) => h('li', null, line)),
        ),
        h('div', { class: 'actions' }, actions),
        myTable
          ? h(
              'p',
              { id: 'my-tournament-match' },
              t('tournaments:page.myMatch'),
              ' ',
              h('a', { href: `#/match/${myTable.matchId}` }, t('tournaments:page.table', { n: num(myTable.table) })),
            )
          : null,
        h('h3', null, t('tournaments:page.players')),
        x.players.length
          ? h(
              'ul',
              { id: 'tournament-players' },
              x.players.map((p) => h('li', { 'data-player': p.player }, p.player, p.withdrawn ? [' ', t('tournaments:withdrawnParen')] : null)),
            )
          : h('p', { class: 'muted', id: 'no-players' }, t(x.status === 'created' ? 'tournaments:page.noPlayers' : 'tournaments:page.noPlayersOver')),
        h('h3', null, t('tournaments:page.standings')),
        standings && x.currentRound > 0
          ? h('div', { class: 'table-scroll' }, standingsTable(standings, x.duplicate))
          : h('p', { class: 'muted', id: 'no-standings' }, t('tournaments:page.noStandings')),
        h('h3', null, t('tournaments:page.rounds')),
        h(
          'div',
          { id: 'tournament-rounds' },
          shownRounds.length
            ? shownRounds
            : h('p', { class: 'muted', id: 'no-rounds' }, t(x.status === 'created' ? 'tournaments:page.noRounds' : 'tournaments:page.noRoundsOver')),
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
