import { scoredRounds } from '@scopa/sdk';
import type { Declaration, LegalPlay, LegalPlays, LiveMatchEvent, Match, MatchEvent, MatchView } from '@scopa/sdk';
import { client, currentSession } from './api';
import { cardName, packOf } from './cards';
import { chatPanel } from './chat';
import type { ChatPanel } from './chat';
import { freshClientSeed } from './fairness';
import { h, mount } from './dom';
import { attempt, showError } from './widgets';
import {
  bonusEvents,
  breakdownTable,
  captureValuesOf,
  cardEl,
  cardRow,
  describeEvent,
  hasBonusScope,
  resultText,
  roundBonuses,
  seatHand,
  seatLabel,
  seatNameEl,
  sideLabel,
} from './match-widgets';

/** The table: my hand, the table cards, the other seats, scores; live over graphql-ws. */
export function tableScreen(root: HTMLElement, id: string): () => void {
  const me = currentSession()?.username ?? null;
  let match: Match | null = null;
  let legal: LegalPlays | null = null;
  let deadline: string | null = null;
  let choosing: string | null = null;
  /** The hand declarations offered as a choice (several: the matta's value to name). */
  let declaring = false;
  let busy = false;
  let seenRounds = -1;
  let summaryRound: number | null = null;
  let log: MatchEvent[] = [];
  /** RoundDealt, InitialTableCaptured and HandDeclared of the whole log: what the round summaries show of bonus scope. */
  let bonuses: MatchEvent[] = [];
  const stop = new AbortController();
  let alive = true;

  // The board is drawn again on every event; the chat beside it stays (its input keeps the focus and what is typed).
  const board = h('div', { class: 'board' });
  const chatBox = h('aside', { class: 'match-chat', id: 'match-chat' });
  // Side by side on a wide screen, the chat under the board on a narrow one (style.css .table-layout).
  mount(root, h('div', { class: 'table-layout' }, board, chatBox));
  /** The players' room: every seat and the spectators read it; the spectators' room: the spectators, and the players once the match is over. */
  const playersChat = chatPanel({ kind: 'match', id, matchRoom: 'players' }, { id: 'chat-players' });
  let spectatorsChat: ChatPanel | null = null;
  let chatTab: 'players' | 'spectators' = 'players';
  let chatShown = '';
  const renderChat = (spectatorsOpen: boolean) => {
    if (spectatorsOpen && !spectatorsChat) spectatorsChat = chatPanel({ kind: 'match', id, matchRoom: 'spectators' }, { id: 'chat-spectators' });
    if (!spectatorsOpen) chatTab = 'players';
    const key = `${spectatorsOpen}:${chatTab}`;
    if (key === chatShown) return;
    chatShown = key;
    const tab = (which: 'players' | 'spectators', label: string) =>
      h(
        'button',
        {
          class: chatTab === which ? 'tab active' : 'tab',
          id: `chat-tab-${which}`,
          role: 'tab',
          'aria-selected': String(chatTab === which),
          onclick: () => {
            chatTab = which;
            renderChat(spectatorsOpen);
          },
        },
        label,
      );
    mount(
      chatBox,
      h('h3', { class: 'chat-title' }, 'Chat'),
      h('div', { class: 'tabs chat-tabs', role: 'tablist' }, tab('players', 'Players'), spectatorsOpen ? tab('spectators', 'Spectators') : null),
      chatTab === 'spectators' && spectatorsChat ? spectatorsChat.el : playersChat.el,
    );
  };

  const update = (m: Match) => {
    if (!alive || (match && m.seq < match.seq)) return;
    const changed = !match || m.seq !== match.seq;
    match = m;
    if (seenRounds >= 0 && m.view.rounds.length > seenRounds) summaryRound = m.view.rounds.length - 1;
    seenRounds = m.view.rounds.length;
    if (changed) {
      choosing = null;
      declaring = false;
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
      const entries = await attempt(() => client.inbox());
      deadline = entries?.find((e) => e.matchId === id && e.seq === seq)?.deadline ?? null;
    }
    const l = await attempt(() => client.legalPlays(id));
    if (!l || !alive || !match) return;
    if (l.seq > match.seq) {
      const m = await attempt(() => client.getMatch(id));
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

  const play = (p: LegalPlay) => send(() => client.play(id, p, { expectedSeq: match!.seq }));

  /** A hand declaration, as legalPlays lists it (its mattaValue when the hand holds the matta). */
  const declare = (d: Declaration) => send(() => client.declareHand(id, d, { expectedSeq: match!.seq }));

  const onDeclare = () => {
    const open = legal && match && legal.seq === match.seq ? (legal.declarations ?? []) : [];
    if (busy || open.length === 0) return;
    if (open.length === 1 && open[0].mattaValue === null) void declare(open[0]);
    else {
      declaring = !declaring;
      render();
    }
  };

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
    if (!match) return mount(board, h('section', { class: 'panel' }, h('p', { class: 'muted' }, 'Loading the match…')));
    const v: MatchView = match.view;
    const rounds = scoredRounds(v);
    const pack = packOf(v.preset);
    const values = captureValuesOf(v);
    const matta = v.options?.matta ?? null;
    // Once over, everyone gets the same full view (viewer null): find my seat by name.
    const mySeat = v.viewer ?? v.seats.find((s) => me && s.player === me)?.seat ?? null;
    const seatsTaken = v.seats.every((s) => s.player);
    const canJoin = v.viewer === null && mySeat === null && v.phase === 'open' && v.seats.some((s) => !s.player && (!s.reservedFor || s.reservedFor === me));
    const canStart = v.phase === 'open' && seatsTaken && (mySeat !== null || match.createdBy === me);
    const legalCards = new Set(legal && legal.seq === match.seq ? legal.plays.map((p) => p.card) : []);
    const capturing = new Set(legal && legal.seq === match.seq ? legal.plays.filter((p) => p.capture.length).map((p) => p.card) : []);
    const choice = choosing ? (legal?.plays.filter((p) => p.card === choosing) ?? []) : [];
    const highlight = new Set(choice.flatMap((p) => p.capture));
    const declarations = myTurn() && legal && legal.seq === match.seq ? (legal.declarations ?? []) : [];
    const myDeclared = new Set(mySeat !== null ? (v.seats[mySeat]?.declared ?? []) : []);
    const turnName = v.turn >= 0 && v.seats[v.turn] ? seatLabel(v.seats[v.turn]) : null;

    const status =
      v.phase === 'over'
        ? h(
            'div',
            { class: 'result', id: 'result' },
            h('h2', null, 'Match over'),
            h('p', null, resultText(v, me)),
            h('a', { href: `#/replay/${id}`, class: 'button primary', id: 'open-replay' }, 'Watch the replay'),
          )
        : v.phase === 'open'
          ? h(
              'div',
              { class: 'status' },
              match.startsAt
                ? h(
                    'span',
                    { id: 'starts-at' },
                    `Dealing once every player has given a seed, at ${new Date(match.startsAt).toLocaleTimeString()} at the latest.`,
                  )
                : seatsTaken
                  ? 'Every seat is taken: the match can start.'
                  : 'Waiting for players to join.',
              // A seat without a client seed (joined from elsewhere, or the seed was lost): give one here.
              mySeat !== null && v.rulesVersion !== 'scopa-rules/1' && v.clientSeeds[mySeat] === null
                ? h('button', { id: 'give-seed', onclick: () => send(() => client.setClientSeed(id, freshClientSeed())) }, 'Give my seed')
                : null,
            )
          : h(
              'div',
              { class: `status ${myTurn() ? 'mine' : ''}`, id: 'turn-status' },
              myTurn()
                ? [
                    busy ? 'Playing…' : 'Your turn: pick a card.',
                    deadline ? h('span', { class: 'deadline', id: 'turn-deadline' }, ` Deadline ${new Date(deadline).toLocaleTimeString()}`) : null,
                  ]
                : `Waiting for ${turnName}…`,
            );

    const others = v.seats.filter((s) => s.seat !== mySeat);
    const sides = v.sides.map((s) =>
      h(
        'div',
        { class: `side ${mySeat !== null && v.seats[mySeat]?.side === s.side ? 'mine' : ''}`, 'data-side': s.side },
        h('div', { class: 'side-name' }, sideLabel(v, s.side, me)),
        h('div', { class: 'score' }, h('span', { class: 'big' }, String(s.score)), ` / ${v.options?.target ?? '?'} points`),
        h('div', null, `captured ${s.capturedCount} · scope ${s.scope}`),
        h('details', null, h('summary', null, 'captured cards'), cardRow(s.captured, 26, pack)),
      ),
    );

    // A player reads the spectators' room once the match is over; a spectator at once.
    renderChat(mySeat === null || v.phase === 'over');
    playersChat.setNotice(v.settings.chat === 'off' ? "This match's chat is off." : null);
    mount(
      board,
      h(
        'section',
        { class: 'table-screen' },
        h(
          'header',
          { class: 'match-head' },
          h('h1', null, `${v.preset ?? 'match'} `, h('span', { class: 'muted small' }, id.slice(0, 8))),
          h(
            'span',
            { class: 'muted' },
            `round ${v.round} · to ${v.options?.target ?? '?'} · seq ${match.seq} · deck ${v.deckSize}`,
            v.settings.turnTimeLimit ? ` · turn limit ${v.settings.turnTimeLimit}` : '',
            pack !== 'italian' ? h('span', { id: 'pack' }, ` · ${pack} cards`) : null,
          ),
          canJoin
            ? h('button', { class: 'primary', id: 'join', onclick: () => send(() => client.joinMatch(id, { clientSeed: freshClientSeed() })) }, 'Join')
            : null,
          canStart ? h('button', { class: 'primary', id: 'start', onclick: () => send(() => client.startMatch(id)) }, 'Start') : null,
          v.phase === 'playing' && mySeat !== null
            ? h('button', { class: 'link danger', id: 'resign', onclick: () => confirm('Resign this match?') && send(() => client.resign(id)) }, 'Resign')
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
              seatHand(v, s),
            ),
          ),
        ),
        h(
          'div',
          { class: 'felt', id: 'table-cards' },
          v.table.length
            ? v.table.map((c) => cardEl(c, { cls: highlight.has(c) ? 'target' : '', pack, value: values[c] }))
            : h('span', { class: 'muted' }, 'The table is empty.'),
        ),
        matta && values[matta] !== undefined
          ? h('p', { class: 'capture-values', id: 'capture-values' }, `The matta, ${cardName(matta, pack)}, captures as ${values[matta]} until the round ends.`)
          : null,
        declarations.length
          ? h(
              'div',
              { class: 'declare', id: 'declarations' },
              h(
                'button',
                {
                  class: 'primary',
                  id: 'declare',
                  onclick: onDeclare,
                  disabled: busy,
                  'aria-expanded': declarations.length > 1 || declarations[0].mattaValue !== null ? String(declaring) : undefined,
                },
                `Declare your hand (up to ${Math.max(...declarations.map((d) => d.points))} scope)`,
              ),
              h('span', { class: 'muted small' }, ' before you play: its cards are shown to everyone until played.'),
              declaring
                ? h(
                    'div',
                    { class: 'choice', id: 'declaration-choice' },
                    h('p', null, matta ? `Which value does your matta, ${cardName(matta, pack)}, take? It captures as that until the round ends.` : 'Declare:'),
                    declarations.map((d) =>
                      h(
                        'button',
                        {
                          class: 'declaration',
                          'data-matta-value': d.mattaValue ?? undefined,
                          'data-points': d.points,
                          onclick: () => declare(d),
                          disabled: busy,
                        },
                        d.mattaValue === null ? `${d.points} scope` : [h('strong', null, `as ${d.mattaValue}`), `: ${d.points} scope`],
                      ),
                    ),
                    h('button', { class: 'link', onclick: () => ((declaring = false), render()) }, 'cancel'),
                  )
                : null,
            )
          : null,
        choice.length
          ? h(
              'div',
              { class: 'choice', id: 'capture-choice' },
              h('p', null, `Which cards does your ${choosing} capture?`),
              choice.map((p) =>
                h(
                  'button',
                  { class: 'capture-choice', 'data-capture': p.capture.join('+'), onclick: () => play(p), disabled: busy },
                  cardRow(p.capture, 40, pack),
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
              h(
                'div',
                { class: 'seat-name' },
                `Your hand (seat ${mySeat})`,
                v.dealer === mySeat ? h('span', { class: 'badge' }, 'dealer') : null,
                myDeclared.size ? h('span', { class: 'badge declared', id: 'my-declared' }, 'declared: shown to everyone') : null,
              ),
              h(
                'div',
                { class: 'cards' },
                v.hand.map((c) =>
                  cardEl(c, {
                    width: 84,
                    cls: [
                      legalCards.has(c) ? 'legal' : myTurn() ? 'illegal' : '',
                      capturing.has(c) ? 'captures' : '',
                      choosing === c ? 'chosen' : '',
                      myDeclared.has(c) ? 'declared' : '',
                    ].join(' '),
                    pack,
                    value: values[c],
                    onClick: () => onCard(c),
                    title: legalCards.has(c) ? (capturing.has(c) ? 'captures' : 'lay it on the table') : undefined,
                  }),
                ),
              ),
            )
          : h('p', { class: 'muted' }, 'You are watching (no seat).'),
        h('div', { class: 'sides' }, sides),
        summaryRound !== null && rounds[summaryRound]
          ? h(
              'div',
              { class: 'overlay' },
              h(
                'div',
                { class: 'panel round-summary', id: 'round-summary' },
                h('h2', null, `Round ${rounds[summaryRound].round} scored`),
                breakdownTable(v, summaryRound, me),
                roundBonuses(v, bonuses, rounds[summaryRound].round, me),
                v.phase === 'over' ? h('p', { class: 'result-line' }, resultText(v, me)) : null,
                h(
                  'button',
                  { class: 'primary', id: 'continue', onclick: () => ((summaryRound = null), render()) },
                  v.phase === 'over' ? 'See the result' : 'Next round',
                ),
              ),
            )
          : null,
        rounds.length
          ? h(
              'details',
              { class: 'rounds', open: v.phase === 'over' },
              h('summary', null, `Scored rounds (${rounds.length})`),
              rounds.map((r, i) => [breakdownTable(v, i, me), roundBonuses(v, bonuses, r.round, me)]),
            )
          : null,
        h(
          'div',
          { class: 'log' },
          h('h3', null, 'Latest events'),
          h(
            'ol',
            null,
            log
              .slice(-12)
              .reverse()
              .map((e) => h('li', null, h('span', { class: 'muted' }, `#${e.seq} `), describeEvent(e, v))),
          ),
        ),
      ),
    );
  };

  /** The seq the live events have reached: the match is read again until it is there (one read at a time). */
  let reached = 0;
  let reading = false;
  const catchUp = async () => {
    if (reading) return;
    reading = true;
    try {
      while (alive && match && match.seq < reached) {
        const before = match.seq;
        const m = await attempt(() => client.getMatch(id));
        if (!m) return;
        update(m);
        if (m.seq <= before) return;
      }
    } finally {
      reading = false;
    }
  };

  const onEvent = (event: LiveMatchEvent['event']) => {
    const received: MatchEvent = { ...event, matchId: id, payload: event.payload as MatchEvent['payload'] };
    log = [...log.filter((e) => e.seq !== event.seq), received].sort((a, b) => a.seq - b.seq).slice(-50);
    bonuses = bonusEvents(bonuses, [received]);
    reached = Math.max(reached, event.seq);
    if (match && event.seq <= match.seq) render();
    else void catchUp();
  };

  /** The bonus events of the log so far, 100 events a request. */
  const loadBonuses = async () => {
    for (let from = 1; alive;) {
      const page = await attempt(() => client.events(id, from, 100));
      if (!page) return;
      bonuses = bonusEvents(bonuses, page);
      if (page.length < 100) break;
      from = page[page.length - 1].seq + 1;
    }
    render();
  };

  render();
  void (async () => {
    const m = await attempt(() => client.getMatch(id));
    if (!m || !alive) return;
    update(m);
    // Escoba and cirulla score bonus scope (the first table, declarations): the round summaries name them from the log.
    if (hasBonusScope(m.view)) void loadBonuses();
    // Live: the last few events (for the log), then every new one; my view after it is read over REST.
    try {
      for await (const { event } of client.follow(id, Math.max(1, m.seq - 9), { signal: stop.signal })) onEvent(event);
    } catch (err) {
      if (alive) showError(err);
    }
  })();

  return () => {
    alive = false;
    stop.abort();
    playersChat.close();
    spectatorsChat?.close();
  };
}
