/** What the match views share: cards and hands, seat and side names, a round's scoring, the event log's lines. */
import { scoredRounds } from '@scopa/sdk';
import type { MatchEvent, MatchView, RoundBreakdown, SeatPublic } from '@scopa/sdk';
import { backSvg, cardName, cardSvg, packOf, suitName } from './cards';
import type { Pack } from './cards';
import { fromMarkup, h } from './dom';
import { playerLink, profileName } from './widgets';
import type { Child } from './dom';

// ------------------------------------------------------------------ cards

/**
 * One card face up, drawn and named with the match's pack (`packOf(view.preset)`).
 * `value`: a capture value other than the rank (a declared matta's, from `view.captureValues`), shown on the card.
 */
export function cardEl(
  code: string,
  opts: { width?: number; cls?: string; onClick?: () => void; title?: string; pack?: Pack; value?: number } = {},
): HTMLElement {
  const art = fromMarkup(cardSvg(code, opts.width ?? 72, opts.pack));
  const named = cardName(code, opts.pack);
  const title = (opts.title ? `${named}: ${opts.title}` : named) + (opts.value !== undefined ? ` (captures as ${opts.value})` : '');
  const badge = opts.value !== undefined ? h('span', { class: 'capture-value', title: `captures as ${opts.value}` }, `= ${opts.value}`) : null;
  const attrs = { class: `card ${opts.cls ?? ''}`, 'data-card': code, 'data-value': opts.value, title };
  if (opts.onClick) return h('button', { ...attrs, onclick: opts.onClick }, art, badge);
  return h('span', attrs, art, badge);
}

export function cardRow(codes: string[], width = 48, pack?: Pack, cls = ''): HTMLElement {
  return h('span', { class: `card-row ${cls}` }, codes.length ? codes.map((c) => cardEl(c, { width, pack })) : h('span', { class: 'muted' }, '—'));
}

export function backs(n: number, width = 30): HTMLElement {
  return h(
    'span',
    { class: 'backs', title: `${n} card${n === 1 ? '' : 's'}` },
    Array.from({ length: n }, () => fromMarkup(backSvg(width), 'card back')),
  );
}

/** The capture values other than the rank the view shows (a declared matta's, e.g. `{"7C": 2}`), until the round ends. */
export function captureValuesOf(view: MatchView): Record<string, number> {
  return view.captureValues ?? {};
}

/**
 * Another seat's hand: the cards of its hand declaration face up (public
 * until each is played, `seats[i].declared`), the rest face down.
 */
export function seatHand(view: MatchView, seat: SeatPublic, width = 30): HTMLElement {
  const declared = seat.declared ?? [];
  const values = captureValuesOf(view);
  const pack = packOf(view.preset);
  return h(
    'span',
    { class: 'seat-hand' },
    declared.length
      ? h(
          'span',
          { class: 'declared', title: 'declared: shown to everyone until played' },
          declared.map((c) => cardEl(c, { width: Math.round(width * 1.3), pack, value: values[c], cls: 'declared' })),
        )
      : null,
    backs(Math.max(0, seat.handSize - declared.length), width),
  );
}

// ------------------------------------------------------------------ names

export function seatLabel(s: SeatPublic): string {
  if (s.player) return s.player;
  if (s.reservedFor) return `(kept for ${s.reservedFor})`;
  return '(open)';
}

/** A seat's label, linking to the profile of whoever sits there. */
export function seatNameEl(s: SeatPublic): Child {
  return s.player ? playerLink(profileName(s.player)!, { label: seatLabel(s) }) : seatLabel(s);
}

export function sideLabel(view: MatchView, side: number, me?: string | null): string {
  const seats = view.seats.filter((s) => s.side === side);
  return seats.map((s) => (me && s.player === me ? `${s.player} (you)` : seatLabel(s))).join(' & ') || `side ${side}`;
}

export function resultText(view: MatchView, me?: string | null): string {
  if (!view.result) return '';
  const totals = view.sides.map((s) => s.score).join('–');
  const why: Record<string, string> = { points: 'on points', allDenari: 'by taking all ten denari', resignation: 'by resignation', forfeit: 'by forfeit' };
  const who =
    view.result.winner === null
      ? 'Draw'
      : `${sideLabel(view, view.result.winner, me)} win${view.seats.filter((s) => s.side === view.result!.winner).length > 1 ? '' : 's'}`;
  return `${who} ${why[view.result.reason] ?? view.result.reason}, ${totals}`;
}

// ------------------------------------------------------------------ scoring

/** The awards a round may have, with their names in the match's pack (denari are oros in escoba, quadri in cirulla, ...). */
function awards(pack: Pack): [keyof RoundBreakdown['awards'], string][] {
  const denari = suitName('D', pack);
  return [
    ['cards', 'Most cards'],
    ['denari', `Most ${denari}`],
    ['settebello', 'Settebello (7D)'],
    ['reBello', 'Re bello (10D)'],
    ['primiera', 'Primiera'],
    ['sevens', 'Most sevens'],
    ['piccola', `Piccola (1-2-3 of ${denari}, up to 6)`],
    ['grande', `Grande (8-9-10 of ${denari})`],
  ];
}

/** A round's scoring breakdown: one column per side. */
export function breakdownTable(view: MatchView, roundIndex: number, me?: string | null): HTMLElement {
  const rounds = scoredRounds(view);
  const { round, breakdown: b } = rounds[roundIndex];
  const sides = b.points.map((_p, i) => i);
  const running = sides.map((s) => rounds.slice(0, roundIndex + 1).reduce((n, r) => n + (r.breakdown.points[s] ?? 0), 0));
  const pack = packOf(view.preset);
  const mark = (won: boolean, points = 1) => (won ? h('span', { class: 'won' }, ` ✓ ${points}`) : null);
  const rows: Child[] = [
    h(
      'tr',
      null,
      h('th', null, 'Scope'),
      sides.map((s) => h('td', null, String(b.scope[s] ?? 0))),
    ),
  ];
  // The part of the scope from the initial-table capture and hand declarations (escoba, cirulla).
  if (b.bonusScope)
    rows.push(
      h(
        'tr',
        { class: 'bonus-scope' },
        h('th', null, 'of which bonus scope (first table, declarations)'),
        sides.map((s) => h('td', null, String(b.bonusScope![s] ?? 0))),
      ),
    );
  for (const [key, label] of awards(pack)) {
    if (!(key in b.awards)) continue;
    const winner = b.awards[key];
    const points = key === 'piccola' ? (b.piccolaPoints ?? 3) : key === 'grande' ? 5 : 1;
    const detail = (s: number): string =>
      key === 'cards'
        ? `${b.cardCounts[s]} cards`
        : key === 'denari'
          ? `${b.denariCounts[s]} ${suitName('D', pack)}`
          : key === 'primiera' && b.primiera
            ? `${b.primiera[s] ?? 'void'}`
            : '';
    // Nobody holding a piccola or grande is no tie: nobody scores it.
    const none = key === 'piccola' || key === 'grande' ? 'nobody' : 'tie';
    rows.push(
      h(
        'tr',
        { 'data-award': key },
        h('th', null, label),
        sides.map((s) =>
          h(
            'td',
            null,
            detail(s),
            mark(winner === s, points),
            winner === null && s === 0 ? h('span', { class: 'muted' }, detail(s) ? ` (${none})` : none) : null,
          ),
        ),
      ),
    );
  }
  if (b.denariBonus)
    rows.push(
      h(
        'tr',
        null,
        h('th', null, 'Denari 1-2-3 bonus'),
        sides.map((s) => h('td', null, String(b.denariBonus![s] ?? 0))),
      ),
    );
  if (b.allDenari !== null && b.allDenari !== undefined)
    rows.push(
      h(
        'tr',
        null,
        h('th', null, 'All ten denari'),
        sides.map((s) => h('td', null, b.allDenari === s ? '✓' : '')),
      ),
    );
  rows.push(
    h(
      'tr',
      { class: 'points' },
      h('th', null, 'Round points'),
      sides.map((s) => h('td', null, String(b.points[s]))),
    ),
  );
  rows.push(
    h(
      'tr',
      { class: 'total' },
      h('th', null, 'Total'),
      sides.map((s) => h('td', null, String(running[s]))),
    ),
  );
  return h(
    'table',
    { class: 'breakdown', 'data-round': round },
    h('caption', null, `Round ${round}`),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', null, ''),
        sides.map((s) => h('th', null, sideLabel(view, s, me))),
      ),
    ),
    h('tbody', null, rows),
  );
}

// ------------------------------------------------------------------ events

export function describeEvent(e: MatchEvent, view: MatchView | null): string {
  const p = e.payload as Record<string, any>;
  const seatName = (seat: number) => (view?.seats[seat] ? seatLabel(view.seats[seat]) : `seat ${seat}`);
  switch (e.type) {
    case 'MatchCreated':
      return `${p.createdBy} created the match (${p.preset}, to ${p.options?.target} points)`;
    case 'SeatTaken':
      return `${p.player} took seat ${p.seat}${p.clientSeed ? `, giving client seed ${p.clientSeed}` : ''}`;
    case 'ClientSeedGiven':
      return `seat ${p.seat} gave client seed ${p.clientSeed}`;
    case 'MatchStarted':
      return 'The match started';
    case 'RoundDealt':
      return `Round ${p.round}${p.attempt ? ` dealt again (attempt ${p.attempt + 1})` : ' dealt'}: table ${(p.table as string[]).join(' ') || 'empty'}`;
    case 'HandsDealt':
      return `Fresh hands dealt (deal ${p.deal + 1} of round ${p.round})`;
    case 'InitialTableCaptured':
      return `${seatName(p.dealer)} (dealer) took the first table ${(p.cards as string[]).join(' ')}: ${p.scope} scope`;
    case 'HandDeclared':
      return `${seatName(p.seat)} declared ${(p.cards as string[]).join(' ')}${p.mattaValue === null || p.mattaValue === undefined ? '' : `, the matta as ${p.mattaValue}`}: ${p.scope} scope`;
    case 'CardPlayed':
      return `${seatName(p.seat)} played ${p.card}${p.capture.length ? ` capturing ${(p.capture as string[]).join('+')}` : ' to the table'}${p.scopa ? ' — scopa!' : ''}${p.auto ? ' (played by the clock)' : ''}`;
    case 'RoundEnded':
      return p.side === null || !p.cards.length
        ? `Round ${p.round} ended`
        : `Round ${p.round} ended: side ${p.side} takes the rest (${(p.cards as string[]).join(' ')})`;
    case 'RoundScored':
      return `Round ${p.round} scored: ${(p.breakdown.points as number[]).join('–')} (totals ${(p.totals as number[]).join('–')})`;
    case 'SeatResigned':
      return `${seatName(p.seat)} resigned`;
    case 'SeatForfeited':
      return `${seatName(p.seat)} forfeited`;
    case 'MatchEnded':
      return `Match over: ${p.winner === null ? 'a draw' : `side ${p.winner} wins`} (${p.reason}), ${(p.totals as number[]).join('–')}; seed revealed`;
    default:
      return e.type;
  }
}

// ------------------------------------------------------------------ bonus scope (escoba, cirulla)

/** Whether a match's rules score bonus scope: the initial-table capture or hand declarations. */
export function hasBonusScope(view: MatchView): boolean {
  const o = view.options;
  return !!o && (!!o.initialTableCapture || (o.lowHandBonus ?? 0) > 0 || (o.tripleBonus ?? 0) > 0);
}

/**
 * The events of a log that the round summaries need (RoundDealt, InitialTableCaptured,
 * HandDeclared), each once, in seq order: `known` and `more` merged.
 */
export function bonusEvents(known: MatchEvent[], more: MatchEvent[]): MatchEvent[] {
  const keep = new Set(['RoundDealt', 'InitialTableCaptured', 'HandDeclared']);
  const bySeq = new Map(known.map((e) => [e.seq, e]));
  for (const e of more) if (keep.has(e.type)) bySeq.set(e.seq, e);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/**
 * What scored bonus scope in a round: the dealer's capture of the initial
 * table (`InitialTableCaptured`) and each hand declaration (`HandDeclared`),
 * read from `events` (a round's events follow its `RoundDealt`).
 */
export function roundBonuses(view: MatchView, events: MatchEvent[], round: number, me?: string | null): HTMLElement | null {
  const pack = packOf(view.preset);
  const items: Child[] = [];
  let current = 0;
  const seatName = (seat: number) => (view.seats[seat] ? (me && view.seats[seat].player === me ? 'you' : seatLabel(view.seats[seat])) : `seat ${seat}`);
  for (const e of events) {
    const p = e.payload as Record<string, any>;
    if (e.type === 'RoundDealt') current = p.round as number;
    if (current !== round) continue;
    if (e.type === 'InitialTableCaptured') {
      items.push(
        h(
          'li',
          { class: 'initial-capture', 'data-seq': e.seq },
          `First table taken by the dealer, ${seatName(p.dealer)}${view.seats.filter((s) => s.side === p.side).length > 1 ? ` (${sideLabel(view, p.side, me)})` : ''}: `,
          cardRow(p.cards as string[], 32, pack),
          h('strong', null, ` ${p.scope} scope`),
        ),
      );
    } else if (e.type === 'HandDeclared') {
      items.push(
        h(
          'li',
          { class: 'declaration', 'data-seq': e.seq, 'data-seat': p.seat },
          `Hand declared by ${seatName(p.seat)}: `,
          cardRow(p.cards as string[], 32, pack),
          p.mattaValue === null || p.mattaValue === undefined ? '' : ` the matta as ${p.mattaValue},`,
          h('strong', null, ` ${p.scope} scope`),
        ),
      );
    }
  }
  return items.length ? h('div', { class: 'round-bonuses', 'data-round': round }, h('h3', null, 'Bonus scope'), h('ul', null, items)) : null;
}
