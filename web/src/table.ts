import './table.css';
import { ScopaError, scoredRounds } from '@scopa/sdk';
import type { Declaration, LegalPlay, LegalPlays, LiveMatchEvent, Match, MatchEvent, MatchView } from '@scopa/sdk';
import { client, currentSession } from './api';
import { cardName, packName, packOf } from './cards';
import { chatPanel } from './chat';
import type { ChatPanel } from './chat';
import { freshClientSeed } from './fairness';
import { h, mount } from './dom';
import { formatDate, formatList, formatNumber, t } from './i18n';
import { gameName } from './game-choice';
import { attempt, errorText, showError } from './widgets';
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
  scopeText,
  seatHand,
  seatLabel,
  seatNameEl,
  sideLabel,
  tally,
} from './match-widgets';

/** An ISO 8601 duration in words of the player's language ("P1D": "1 day", "PT1H30M": "1 hour and 30 minutes"); unreadable: as given. */
export function durationText(iso: string): string {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso);
  if (!m) return iso;
  const units = ['day', 'hour', 'minute', 'second'];
  const parts = units.flatMap((unit, i) => (m[i + 1] ? [formatNumber(Number(m[i + 1]), { style: 'unit', unit, unitDisplay: 'long' })] : []));
  return parts.length ? formatList(parts) : iso;
}

/** What keeps the focus across a redraw of the board: the element's id, or the card it shows and where. */
function focusKey(el: Element | null): string | null {
  if (!(el instanceof HTMLElement)) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  const card = el.getAttribute('data-card');
  if (card && el.closest('#my-hand')) return `#my-hand [data-card="${card}"]`;
  const capture = el.getAttribute('data-capture');
  if (capture !== null) return `#capture-choice [data-capture="${capture}"]`;
  const matta = el.getAttribute('data-matta-value');
  if (matta !== null) return `#declaration-choice [data-matta-value="${matta}"]`;
  return null;
}

/**
 * The table: my hand, the table cards, the other seats, scores; live over graphql-ws.
 *
 * Playable by keyboard alone: the hand's cards are buttons (Tab, or the arrow
 * keys within the hand; Enter or Space plays), the capture choice, the
 * round's summary (a dialog) and the rematch are buttons too, and the focus
 * is kept across every redraw and moved where the next step is (the first
 * choice, "Next round", back to the hand, the rematch). A polite live region
 * (`#table-announcer`) tells a screen reader what happens: each play (who,
 * which card, what it took, scopa), whose turn it is, each round's result and
 * the match's.
 */
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
  /** Where the focus goes after the next redraw (a selector of the board), else it stays where it was. */
  let wantFocus: string[] | null = null;
  /** The rematch asked and waiting for the other players. */
  let rematchAsked = false;
  /** Events up to this seq were there when the page opened: not announced. */
  let announcedUpTo = Number.POSITIVE_INFINITY;
  /** The turn last announced (phase and seat). */
  let turnAnnounced = '';
  /** The seq of the view the turn was last said from: an older view (a response that crossed a live event) says nothing. */
  let turnSaidAt = 0;
  const stop = new AbortController();
  let alive = true;

  // The board is drawn again on every event; the chat beside it stays (its input keeps the focus and what is typed).
  const board = h('div', { class: 'board' });
  const chatBox = h('aside', { class: 'match-chat', id: 'match-chat' });
  // What a screen reader hears: the last announcements, each added as a line (role log: additions are read, politely).
  const announcer = h('div', { id: 'table-announcer', class: 'visually-hidden', role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions' });
  const announce = (text: string) => {
    if (!text) return;
    announcer.append(h('p', null, text));
    while (announcer.childElementCount > 20) announcer.firstElementChild?.remove();
  };
  // Side by side on a wide screen, the chat under the board on a narrow one (style.css .table-layout).
  mount(root, h('div', { class: 'table-layout' }, board, chatBox), announcer);
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
      h('h3', { class: 'chat-title' }, t('table:chat.title')),
      h(
        'div',
        { class: 'tabs chat-tabs', role: 'tablist' },
        tab('players', t('table:chat.players')),
        spectatorsOpen ? tab('spectators', t('table:chat.spectators')) : null,
      ),
      chatTab === 'spectators' && spectatorsChat ? spectatorsChat.el : playersChat.el,
    );
  };

  /**
   * Says whose turn it is when that changes (the page's first look included): from each live event's own view too,
   * so that a turn over before the page reads the match again (a bot's reply comes at once) is still said, in order.
   */
  const announceTurn = (v: MatchView, seq: number) => {
    if (seq < turnSaidAt) return;
    turnSaidAt = seq;
    const key = v.phase === 'playing' ? `${v.round}:${v.turn}` : v.phase;
    if (key === turnAnnounced) return;
    turnAnnounced = key;
    if (v.phase !== 'playing' || !v.seats[v.turn]) return;
    const mine = v.viewer !== null && v.turn === v.viewer;
    announce(mine ? t('table:announce.yourTurn') : t('table:announce.theirTurn', { player: seatLabel(v.seats[v.turn]) }));
  };

  const update = (m: Match) => {
    if (!alive || (match && m.seq < match.seq)) return;
    const changed = !match || m.seq !== match.seq;
    const first = !match;
    match = m;
    if (first) announcedUpTo = m.seq;
    if (seenRounds >= 0 && m.view.rounds.length > seenRounds) {
      summaryRound = m.view.rounds.length - 1;
      wantFocus = ['#continue'];
    }
    seenRounds = m.view.rounds.length;
    if (m.view.phase === 'over' && changed && !first && summaryRound === null) wantFocus = ['#rematch', '#open-replay'];
    if (changed) {
      choosing = null;
      declaring = false;
      void refreshLegal();
    }
    announceTurn(m.view, m.seq);
    render();
  };

  /** What a live event says to a screen reader: each play, declaration and first table; each round's and the match's result. */
  const announceEvent = (e: MatchEvent) => {
    if (e.seq <= announcedUpTo) return;
    announcedUpTo = e.seq;
    const v = match?.view ?? null;
    const p = e.payload as Record<string, any>;
    if (e.type === 'CardPlayed' || e.type === 'HandDeclared' || e.type === 'InitialTableCaptured' || e.type === 'SeatResigned' || e.type === 'SeatForfeited')
      announce(describeEvent(e, v, me));
    else if (e.type === 'RoundScored' && v) {
      const points = (p.breakdown.points as number[]).map((n, side) => t('table:announce.sidePoints', { side: sideLabel(v, side, me), n: formatNumber(n) }));
      announce(t('table:announce.roundScored', { round: formatNumber(p.round), points: formatList(points), totals: tally(p.totals) }));
    } else if (e.type === 'MatchEnded') announce(describeEvent(e, v, me));
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
      wantFocus = declaring ? ['#declaration-choice .declaration'] : ['#declare'];
      render();
    }
  };

  const onCard = (code: string) => {
    if (!match || busy) return;
    const options = legal?.plays.filter((p) => p.card === code) ?? [];
    if (!myTurn()) return showError(new ScopaError({ code: 'NOT_YOUR_TURN', message: t('errors:NOT_YOUR_TURN'), status: 0 }));
    if (options.length === 0) {
      // Not among the legal plays: ask the service anyway, it names the rule (e.g. ILLEGAL_PLAY).
      void play({ card: code, capture: [], scopa: false });
    } else if (options.length === 1) {
      void play(options[0]);
    } else {
      choosing = code;
      wantFocus = ['#capture-choice .capture-choice'];
      render();
    }
  };

  /** The hand's cards: the arrow keys move between them (Home, End: the first, the last). */
  const onHandKey = (ev: KeyboardEvent) => {
    const cards = [...board.querySelectorAll<HTMLElement>('#my-hand button.card')];
    const at = cards.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const rtl = document.documentElement.dir === 'rtl';
    const step = { ArrowRight: rtl ? -1 : 1, ArrowDown: 1, ArrowLeft: rtl ? 1 : -1, ArrowUp: -1 }[ev.key];
    const next = ev.key === 'Home' ? 0 : ev.key === 'End' ? cards.length - 1 : step === undefined ? -1 : (at + step + cards.length) % cards.length;
    if (next < 0) return;
    ev.preventDefault();
    cards[next].focus();
  };

  const onRematch = async () => {
    if (busy) return;
    busy = true;
    render();
    const offer = await attempt(() => client.rematch(id));
    busy = false;
    if (!alive) return;
    if (offer?.newMatchId) {
      // The new match deals once every seat has given its seed (a bot gives none): give mine, as a new match does.
      const newId = offer.newMatchId;
      await client.setClientSeed(newId, freshClientSeed()).catch(() => undefined);
      location.hash = `#/match/${newId}`;
      return;
    }
    if (offer) {
      rematchAsked = true;
      announce(t('table:rematchAsked'));
    }
    wantFocus = ['#rematch'];
    render();
  };

  /** The hand's card last focused, by position: where the focus goes when that card has been played. */
  let handIndex = 0;

  /** Redraws the board, keeping the focus on the same control (or where the next step is: wantFocus). */
  const render = () => {
    if (!alive) return;
    const active = document.activeElement;
    const hadFocus = !!active && (board.contains(active) || active === document.body);
    const key = board.contains(active) ? focusKey(active) : null;
    if (active instanceof HTMLElement && active.closest('#my-hand')) {
      const at = [...board.querySelectorAll('#my-hand button.card')].indexOf(active);
      if (at >= 0) handIndex = at;
    }
    draw();
    if (!hadFocus) return;
    const find = (selectors: (string | null)[]) => {
      for (const sel of selectors) {
        const el = sel ? board.querySelector<HTMLElement>(sel) : null;
        if (el && !(el as HTMLButtonElement).disabled) return el;
      }
      return null;
    };
    const handCards = [...board.querySelectorAll<HTMLElement>('#my-hand button.card')];
    const inHand = handCards[Math.min(handIndex, handCards.length - 1)] ?? null;
    const overlay = board.querySelector('#round-summary');
    const target = overlay
      ? find(['#continue'])
      : (find(wantFocus ?? []) ??
        find([key]) ??
        (key || active === document.body ? (myTurn() ? (inHand ?? find(['#my-hand .card.legal'])) : null) : null) ??
        (key ? (inHand ?? find(['#rematch', '#open-replay'])) : null));
    wantFocus = null;
    if (target && target !== document.activeElement) target.focus();
  };

  const draw = () => {
    if (!match) return mount(board, h('section', { class: 'panel' }, h('p', { class: 'muted' }, t('table:loading'))));
    const v: MatchView = match.view;
    const rounds = scoredRounds(v);
    const pack = packOf(v.preset);
    const values = captureValuesOf(v);
    const matta = v.options?.matta ?? null;
    const num = (n: number | null | undefined) => formatNumber(n ?? 0);
    const target = v.options?.target;
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
    const human = v.seats.some((s) => s.seat !== mySeat && s.player && !s.bot);
    const time = (at: string) => formatDate(at, { timeStyle: 'short' });

    const status =
      v.phase === 'over'
        ? h(
            'div',
            { class: 'result', id: 'result' },
            h('h2', { id: 'result-title', tabindex: -1 }, t('table:over')),
            h('p', null, resultText(v, me)),
            h(
              'p',
              { class: 'result-actions' },
              mySeat !== null && match.status === 'over' && !match.imported
                ? h(
                    'button',
                    { class: 'primary', id: 'rematch', onclick: () => void onRematch(), disabled: busy || rematchAsked },
                    rematchAsked ? t('table:rematchWaiting') : human ? t('table:rematch') : t('table:rematchBot'),
                  )
                : null,
              ' ',
              h('a', { href: `#/replay/${id}`, class: 'button', id: 'open-replay' }, t('table:watchReplay')),
            ),
          )
        : v.phase === 'open'
          ? h(
              'div',
              { class: 'status' },
              match.startsAt
                ? h('span', { id: 'starts-at' }, t('table:startsAt', { time: time(match.startsAt) }))
                : seatsTaken
                  ? t('table:canStart')
                  : t('table:waitingForPlayers'),
              // A seat without a client seed (joined from elsewhere, or the seed was lost): give one here.
              mySeat !== null && v.rulesVersion !== 'scopa-rules/1' && v.clientSeeds[mySeat] === null
                ? h('button', { id: 'give-seed', onclick: () => send(() => client.setClientSeed(id, freshClientSeed())) }, t('table:giveSeed'))
                : null,
            )
          : h(
              'div',
              { class: `status ${myTurn() ? 'mine' : ''}`, id: 'turn-status' },
              myTurn()
                ? [
                    busy ? t('table:playing') : t('table:yourTurn'),
                    deadline ? h('span', { class: 'deadline', id: 'turn-deadline' }, ' ', t('table:deadline', { time: time(deadline) })) : null,
                  ]
                : t('table:waitingFor', { player: turnName ?? '' }),
            );

    const others = v.seats.filter((s) => s.seat !== mySeat);
    const sides = v.sides.map((s) =>
      h(
        'div',
        { class: `side ${mySeat !== null && v.seats[mySeat]?.side === s.side ? 'mine' : ''}`, 'data-side': s.side },
        h('div', { class: 'side-name' }, sideLabel(v, s.side, me)),
        h('div', { class: 'score' }, h('span', { class: 'big' }, num(s.score)), ' ', t('table:ofTarget', { target: target === undefined ? '?' : num(target) })),
        h('div', null, t('table:captured', { count: s.capturedCount, n: num(s.capturedCount) }), ' · ', scopeText(s.scope)),
        h('details', null, h('summary', null, t('table:capturedCards')), cardRow(s.captured, 26, pack)),
      ),
    );

    // A player reads the spectators' room once the match is over; a spectator at once.
    renderChat(mySeat === null || v.phase === 'over');
    playersChat.setNotice(v.settings.chat === 'off' ? t('table:chatOff') : null);
    mount(
      board,
      h(
        'section',
        { class: 'table-screen' },
        h(
          'header',
          { class: 'match-head' },
          h('h1', null, `${v.preset ? gameName(v.preset) : t('table:match')} `, h('span', { class: 'muted small' }, id.slice(0, 8))),
          h(
            'span',
            { class: 'muted' },
            t('table:roundInfo', { round: num(v.round), target: target === undefined ? '?' : num(target) }),
            ' · ',
            t('table:deck', { count: v.deckSize, n: num(v.deckSize) }),
            v.settings.turnTimeLimit ? [' · ', t('table:turnLimit', { limit: durationText(v.settings.turnTimeLimit) })] : '',
            pack !== 'italian' ? h('span', { id: 'pack' }, ' · ', packName(pack)) : null,
          ),
          canJoin
            ? h('button', { class: 'primary', id: 'join', onclick: () => send(() => client.joinMatch(id, { clientSeed: freshClientSeed() })) }, t('table:join'))
            : null,
          canStart ? h('button', { class: 'primary', id: 'start', onclick: () => send(() => client.startMatch(id)) }, t('table:start')) : null,
          v.phase === 'playing' && mySeat !== null
            ? h(
                'button',
                { class: 'link danger', id: 'resign', onclick: () => confirm(t('table:confirmResign')) && send(() => client.resign(id)) },
                t('table:resign'),
              )
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
              h('div', { class: 'seat-name' }, seatNameEl(s), v.dealer === s.seat ? h('span', { class: 'badge' }, t('table:dealer')) : null),
              s.onVacationUntil
                ? h(
                    'div',
                    { class: 'vacation small', 'data-vacation': s.onVacationUntil },
                    t('notifications:table.onVacation', { date: formatDate(s.onVacationUntil) }),
                  )
                : null,
              s.clock?.paused ? h('div', { class: 'paused small', 'data-paused': 'true' }, t('notifications:table.clockPaused')) : null,
              h('div', { class: 'muted small' }, t('table:inHand', { count: s.handSize, n: num(s.handSize) })),
              seatHand(v, s),
            ),
          ),
        ),
        h(
          'div',
          { class: 'felt', id: 'table-cards', role: 'group', 'aria-label': t('table:tableCards') },
          v.table.length
            ? v.table.map((c) => cardEl(c, { cls: highlight.has(c) ? 'target' : '', pack, value: values[c] }))
            : h('span', { class: 'muted' }, t('table:emptyTable')),
        ),
        matta && values[matta] !== undefined
          ? h('p', { class: 'capture-values', id: 'capture-values' }, t('table:mattaValue', { card: cardName(matta, pack), value: num(values[matta]) }))
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
                t('table:declare', { scope: scopeText(Math.max(...declarations.map((d) => d.points))) }),
              ),
              h('span', { class: 'muted small' }, ' ', t('table:declareHint')),
              declaring
                ? h(
                    'div',
                    { class: 'choice', id: 'declaration-choice' },
                    h('p', null, matta ? t('table:mattaQuestion', { card: cardName(matta, pack) }) : t('table:declareWhich')),
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
                        d.mattaValue === null
                          ? scopeText(d.points)
                          : [h('strong', null, t('table:asValue', { value: num(d.mattaValue) })), ': ', scopeText(d.points)],
                      ),
                    ),
                    h(
                      'button',
                      { class: 'link', id: 'cancel-declaration', onclick: () => ((declaring = false), (wantFocus = ['#declare']), render()) },
                      t('table:cancel'),
                    ),
                  )
                : null,
            )
          : null,
        choice.length
          ? h(
              'div',
              {
                class: 'choice',
                id: 'capture-choice',
                role: 'group',
                'aria-labelledby': 'capture-question',
                onkeydown: (ev: KeyboardEvent) => {
                  if (ev.key !== 'Escape') return;
                  wantFocus = [`#my-hand [data-card="${choosing}"]`];
                  choosing = null;
                  render();
                },
              },
              h('p', { id: 'capture-question' }, t('table:captureQuestion', { card: cardName(choosing!, pack) })),
              choice.map((p) =>
                h(
                  'button',
                  {
                    class: 'capture-choice',
                    'data-capture': p.capture.join('+'),
                    // Named by what it shows: each card's name (an image of it), and the scopa it would make.
                    onclick: () => play(p),
                    disabled: busy,
                  },
                  cardRow(p.capture, 40, pack),
                  p.scopa ? h('span', { class: 'badge scopa' }, t('table:scopa')) : null,
                ),
              ),
              h(
                'button',
                {
                  class: 'link',
                  id: 'cancel-capture',
                  onclick: () => {
                    wantFocus = [`#my-hand [data-card="${choosing}"]`];
                    choosing = null;
                    render();
                  },
                },
                t('table:cancel'),
              ),
            )
          : null,
        mySeat !== null
          ? h(
              'div',
              { class: `hand ${myTurn() ? 'active' : ''}`, id: 'my-hand', role: 'group', 'aria-labelledby': 'my-hand-title' },
              h(
                'div',
                { class: 'seat-name', id: 'my-hand-title' },
                t('table:yourHand'),
                v.dealer === mySeat ? h('span', { class: 'badge' }, t('table:dealer')) : null,
                myDeclared.size ? h('span', { class: 'badge declared', id: 'my-declared' }, t('table:declaredBadge')) : null,
                v.seats.find((s) => s.seat === mySeat)?.clock?.paused
                  ? h('span', { class: 'badge', id: 'my-clock-paused' }, t('notifications:table.clockPaused'))
                  : null,
              ),
              h(
                'div',
                { class: 'cards', onkeydown: onHandKey },
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
                    title: legalCards.has(c) ? (capturing.has(c) ? t('table:captures') : t('table:lays')) : undefined,
                  }),
                ),
              ),
            )
          : h('p', { class: 'muted' }, t('table:watching')),
        h('div', { class: 'sides' }, sides),
        summaryRound !== null && rounds[summaryRound]
          ? h(
              'div',
              { class: 'overlay' },
              h(
                'div',
                { class: 'panel round-summary', id: 'round-summary', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'round-summary-title' },
                h('h2', { id: 'round-summary-title' }, t('table:roundScored', { round: num(rounds[summaryRound].round) })),
                breakdownTable(v, summaryRound, me),
                roundBonuses(v, bonuses, rounds[summaryRound].round, me),
                v.phase === 'over' ? h('p', { class: 'result-line' }, resultText(v, me)) : null,
                h(
                  'button',
                  {
                    class: 'primary',
                    id: 'continue',
                    onclick: () => {
                      summaryRound = null;
                      wantFocus = v.phase === 'over' ? ['#rematch', '#open-replay'] : ['#my-hand .card.legal', '#my-hand button.card'];
                      render();
                    },
                    // The dialog keeps the focus: Tab and Shift+Tab stay on its one button, Escape closes it too.
                    onkeydown: (ev: KeyboardEvent) => {
                      if (ev.key === 'Tab') ev.preventDefault();
                      if (ev.key === 'Escape') (ev.currentTarget as HTMLButtonElement).click();
                    },
                  },
                  v.phase === 'over' ? t('table:seeResult') : t('table:nextRound'),
                ),
              ),
            )
          : null,
        rounds.length
          ? h(
              'details',
              { class: 'rounds', open: v.phase === 'over' },
              h('summary', null, t('table:scoredRounds', { n: num(rounds.length) })),
              rounds.map((r, i) => [breakdownTable(v, i, me), roundBonuses(v, bonuses, r.round, me)]),
            )
          : null,
        h(
          'div',
          { class: 'log' },
          h('h3', null, t('table:latestEvents')),
          h(
            'ol',
            null,
            log
              .slice(-12)
              .reverse()
              .map((e) => h('li', { 'data-seq': e.seq, 'data-type': e.type }, describeEvent(e, v, me))),
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

  const onEvent = ({ event, match: after }: LiveMatchEvent) => {
    const received: MatchEvent = { ...event, matchId: id, payload: event.payload as MatchEvent['payload'] };
    log = [...log.filter((e) => e.seq !== event.seq), received].sort((a, b) => a.seq - b.seq).slice(-50);
    bonuses = bonusEvents(bonuses, [received]);
    const fresh = event.seq > announcedUpTo;
    announceEvent(received);
    if (fresh) announceTurn(after.view as unknown as MatchView, after.seq);
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

  const unavailable = (err: unknown) => {
    // No room to chat in either.
    playersChat.close();
    spectatorsChat?.close();
    mount(
      board,
      h(
        'section',
        { class: 'panel', id: 'match-unavailable' },
        h('h1', null, t('table:unavailable.title')),
        h('p', { role: 'alert' }, errorText(err)),
        h('a', { href: '#/' }, t('table:unavailable.back')),
      ),
    );
  };

  render();
  void (async () => {
    let m: Match;
    try {
      m = await client.getMatch(id);
    } catch (err) {
      // No match to wait for (none has this id, or it is not mine to see): say so instead of loading for ever.
      if (alive) unavailable(err);
      return;
    }
    if (!alive) return;
    update(m);
    // Escoba and cirulla score bonus scope (the first table, declarations): the round summaries name them from the log.
    if (hasBonusScope(m.view)) void loadBonuses();
    // Live: the last few events (for the log), then every new one; my view after it is read over REST.
    try {
      for await (const live of client.follow(id, Math.max(1, m.seq - 9), { signal: stop.signal })) onEvent(live);
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
