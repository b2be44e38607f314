import { api, currentSession } from './api';
import type { Match, MatchEvent, Play } from './api';
import { h, mount } from './dom';
import { attempt, backs, breakdownTable, cardEl, cardRow, describeEvent, resultText, seatLabel, seatNameEl, showError, sideLabel } from './widgets';

/** The table: my hand, the table cards, the other seats, scores; live over graphql-ws. */
export function tableScreen(root: HTMLElement, id: string): () => void {
  const me = currentSession()?.username ?? null;
  let match: Match | null = null;
  let legal: { seq: number; plays: Play[] } | null = null;
  let deadline: string | null = null;
  let choosing: string | null = null;
  let busy = false;
  let seenRounds = -1;
  let summaryRound: number | null = null;
  let log: MatchEvent[] = [];
  let stop: (() => void) | null = null;
  let alive = true;

  const update = (m: Match) => {
    if (!alive || (match && m.seq < match.seq)) return;
    const changed = !match || m.seq !== match.seq;
    match = m;
    if (seenRounds >= 0 && m.view.rounds.length > seenRounds) summaryRound = m.view.rounds.length - 1;
    seenRounds = m.view.rounds.length;
    if (changed) {
      choosing = null;
      void refreshLegal();
    }
    render();
  };

  const myTurn = () => !!match && match.view.phase === 'playing' && match.view.viewer !== null && match.view.turn === match.view.viewer;

  const refreshLegal = async () => {
    if (!match || !myTurn()) {
      legal = null;
      return;
    }
    const seq = match.seq;
    if (match.view.settings.turnTimeLimit) {
      // The turn clock's deadline: the inbox lists it for each match where it is my turn.
      const entries = await attempt(() => api.inbox());
      deadline = entries?.find((e) => e.matchId === id && e.seq === seq)?.deadline ?? null;
    }
    const l = await attempt(() => api.legalPlays(id));
    if (!l || !alive || !match) return;
    if (l.seq > match.seq) {
      const m = await attempt(() => api.match(id));
      if (m) update(m);
      return;
    }
    if (l.seq === match.seq && seq === match.seq) {
      legal = l;
      render();
    }
  };

  const send = async (action: () => Promise<Match>) => {
    busy = true;
    render();
    const m = await attempt(action);
    busy = false;
    if (m) update(m);
    else render();
  };

  const play = (p: Play) => send(() => api.play(id, p.card, p.capture, match!.seq));

  const onCard = (code: string) => {
    if (!match || busy) return;
    const options = legal?.plays.filter((p) => p.card === code) ?? [];
    if (!myTurn()) return showError(new Error('It is not your turn.'));
    if (options.length === 0) {
      // Not among the legal plays: ask the service anyway, it names the rule (e.g. ILLEGAL_PLAY).
      void play({ card: code, capture: [], scopa: false });
    } else if (options.length === 1) {
      void play(options[0]);
    } else {
      choosing = code;
      render();
    }
  };

  const render = () => {
    if (!alive) return;
    if (!match) return mount(root, h('section', { class: 'panel' }, h('p', { class: 'muted' }, 'Loading the match…')));
    const v = match.view;
    // Once over, everyone gets the same full view (viewer null): find my seat by name.
    const mySeat = v.viewer ?? v.seats.find((s) => me && s.player === me)?.seat ?? null;
    const seatsTaken = v.seats.every((s) => s.player);
    const canJoin = v.viewer === null && mySeat === null && v.phase === 'open' && v.seats.some((s) => !s.player && (!s.reservedFor || s.reservedFor === me));
    const canStart = v.phase === 'open' && seatsTaken && (mySeat !== null || match.createdBy === me);
    const legalCards = new Set(legal && legal.seq === match.seq ? legal.plays.map((p) => p.card) : []);
    const capturing = new Set(legal && legal.seq === match.seq ? legal.plays.filter((p) => p.capture.length).map((p) => p.card) : []);
    const choice = choosing ? legal?.plays.filter((p) => p.card === choosing) ?? [] : [];
    const highlight = new Set(choice.flatMap((p) => p.capture));
    const turnName = v.turn >= 0 && v.seats[v.turn] ? seatLabel(v.seats[v.turn]) : null;

    const status =
      v.phase === 'over'
        ? h('div', { class: 'result', id: 'result' }, h('h2', null, 'Match over'), h('p', null, resultText(v, me)), h('a', { href: `#/replay/${id}`, class: 'button primary', id: 'open-replay' }, 'Watch the replay'))
        : v.phase === 'open'
          ? h(
              'div',
              { class: 'status' },
              match.startsAt
                ? h('span', { id: 'starts-at' }, `Dealing once every player has given a seed, at ${new Date(match.startsAt).toLocaleTimeString()} at the latest.`)
                : seatsTaken
                  ? 'Every seat is taken: the match can start.'
                  : 'Waiting for players to join.',
              // A seat without a client seed (joined from elsewhere, or the seed was lost): give one here.
              mySeat !== null && v.rulesVersion !== 'scopa-rules/1' && v.clientSeeds[mySeat] === null
                ? h('button', { id: 'give-seed', onclick: () => send(() => api.setClientSeed(id)) }, 'Give my seed')
                : null,
            )
          : h('div', { class: `status ${myTurn() ? 'mine' : ''}`, id: 'turn-status' }, myTurn() ? [busy ? 'Playing…' : 'Your turn: pick a card.', deadline ? h('span', { class: 'deadline', id: 'turn-deadline' }, ` Deadline ${new Date(deadline).toLocaleTimeString()}`) : null] : `Waiting for ${turnName}…`);

    const others = v.seats.filter((s) => s.seat !== mySeat);
    const sides = v.sides.map((s) =>
      h(
        'div',
        { class: `side ${mySeat !== null && v.seats[mySeat]?.side === s.side ? 'mine' : ''}`, 'data-side': s.side },
        h('div', { class: 'side-name' }, sideLabel(v, s.side, me)),
        h('div', { class: 'score' }, h('span', { class: 'big' }, String(s.score)), ` / ${v.options?.target ?? '?'} points`),
        h('div', null, `captured ${s.capturedCount} · scope ${s.scope}`),
        h('details', null, h('summary', null, 'captured cards'), cardRow(s.captured, 26)),
      ),
    );

    mount(
      root,
      h(
        'section',
        { class: 'table-screen' },
        h(
          'header',
          { class: 'match-head' },
          h('h1', null, `${v.preset ?? 'match'} `, h('span', { class: 'muted small' }, id.slice(0, 8))),
          h('span', { class: 'muted' }, `round ${v.round} · to ${v.options?.target ?? '?'} · seq ${match.seq} · deck ${v.deckSize}`, v.settings.turnTimeLimit ? ` · turn limit ${v.settings.turnTimeLimit}` : ''),
          canJoin ? h('button', { class: 'primary', id: 'join', onclick: () => send(() => api.join(id)) }, 'Join') : null,
          canStart ? h('button', { class: 'primary', id: 'start', onclick: () => send(() => api.start(id, match!.seq)) }, 'Start') : null,
          v.phase === 'playing' && mySeat !== null
            ? h('button', { class: 'link danger', id: 'resign', onclick: () => confirm('Resign this match?') && send(() => api.resign(id, match!.seq)) }, 'Resign')
            : null,
        ),
        status,
        h(
          'div',
          { class: 'opponents' },
          others.map((s) =>
            h(
              'div',
              { class: `seat ${v.turn === s.seat ? 'turn' : ''}`, 'data-seat': s.seat },
              h('div', { class: 'seat-name' }, seatNameEl(s), v.dealer === s.seat ? h('span', { class: 'badge' }, 'dealer') : null),
              h('div', { class: 'muted small' }, `seat ${s.seat} · side ${s.side} · ${s.handSize} in hand`),
              backs(s.handSize),
            ),
          ),
        ),
        h(
          'div',
          { class: 'felt', id: 'table-cards' },
          v.table.length ? v.table.map((c) => cardEl(c, { cls: highlight.has(c) ? 'target' : '' })) : h('span', { class: 'muted' }, 'The table is empty.'),
        ),
        choice.length
          ? h(
              'div',
              { class: 'choice', id: 'capture-choice' },
              h('p', null, `Which cards does your ${choosing} capture?`),
              choice.map((p) =>
                h(
                  'button',
                  { class: 'capture-choice', 'data-capture': p.capture.join('+'), onclick: () => play(p), disabled: busy },
                  cardRow(p.capture, 40),
                  p.scopa ? h('span', { class: 'badge scopa' }, 'scopa!') : null,
                ),
              ),
              h('button', { class: 'link', onclick: () => ((choosing = null), render()) }, 'cancel'),
            )
          : null,
        mySeat !== null
          ? h(
              'div',
              { class: `hand ${myTurn() ? 'active' : ''}`, id: 'my-hand' },
              h('div', { class: 'seat-name' }, `Your hand (seat ${mySeat})`, v.dealer === mySeat ? h('span', { class: 'badge' }, 'dealer') : null),
              h(
                'div',
                { class: 'cards' },
                v.hand.map((c) =>
                  cardEl(c, {
                    width: 84,
                    cls: [legalCards.has(c) ? 'legal' : myTurn() ? 'illegal' : '', capturing.has(c) ? 'captures' : '', choosing === c ? 'chosen' : ''].join(' '),
                    onClick: () => onCard(c),
                    title: legalCards.has(c) ? (capturing.has(c) ? 'captures' : 'lay it on the table') : undefined,
                  }),
                ),
              ),
            )
          : h('p', { class: 'muted' }, 'You are watching (no seat).'),
        h('div', { class: 'sides' }, sides),
        summaryRound !== null && v.rounds[summaryRound]
          ? h(
              'div',
              { class: 'overlay' },
              h(
                'div',
                { class: 'panel round-summary', id: 'round-summary' },
                h('h2', null, `Round ${v.rounds[summaryRound].round} scored`),
                breakdownTable(v, summaryRound, me),
                v.phase === 'over' ? h('p', { class: 'result-line' }, resultText(v, me)) : null,
                h('button', { class: 'primary', id: 'continue', onclick: () => ((summaryRound = null), render()) }, v.phase === 'over' ? 'See the result' : 'Next round'),
              ),
            )
          : null,
        v.rounds.length
          ? h('details', { class: 'rounds', open: v.phase === 'over' }, h('summary', null, `Scored rounds (${v.rounds.length})`), v.rounds.map((_r, i) => breakdownTable(v, i, me)))
          : null,
        h('div', { class: 'log' }, h('h3', null, 'Latest events'), h('ol', null, log.slice(-12).reverse().map((e) => h('li', null, h('span', { class: 'muted' }, `#${e.seq} `), describeEvent(e, v))))),
      ),
    );
  };

  render();
  void (async () => {
    const m = await attempt(() => api.match(id));
    if (!m || !alive) return;
    update(m);
    // Live: the last few events (for the log), then every new one, each with my view after it.
    stop = api.follow(
      id,
      Math.max(1, m.seq - 9),
      ({ event, match: after }) => {
        log = [...log.filter((e) => e.seq !== event.seq), event].sort((a, b) => a.seq - b.seq).slice(-50);
        if (match && after.seq <= match.seq) render();
        else update(after);
      },
      showError,
    );
  })();

  return () => {
    alive = false;
    stop?.();
  };
}
