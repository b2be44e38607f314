/** What the match views share: cards and hands, seat and side names, a round's scoring, the event log's lines. */
import { scoredRounds } from '@scopa/sdk';
import type { MatchEvent, MatchView, RoundBreakdown, SeatPublic } from '@scopa/sdk';
import { backSvg, cardName, cardNames, cardSvg, packOf, suitName } from './cards';
import type { Pack } from './cards';
import { fromMarkup, h } from './dom';
import { gameName } from './game-choice';
import { formatList, formatNumber, t } from './i18n';
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
  const value = opts.value !== undefined ? t('match:capturesAs', { value: formatNumber(opts.value) }) : null;
  const title = [opts.title ? t('match:cardDoes', { card: named, what: opts.title }) : named, value].filter(Boolean).join(' · ');
  const badge = value !== null ? h('span', { class: 'capture-value', title: value }, `= ${formatNumber(opts.value!)}`) : null;
  // The card is named once, in words (its face's printed index and the badge would be read as stray numbers).
  art.setAttribute('aria-hidden', 'true');
  badge?.setAttribute('aria-hidden', 'true');
  const attrs = { class: `card ${opts.cls ?? ''}`, 'data-card': code, 'data-value': opts.value, title };
  // A button's name is then its title; a face shown is an image named by it.
  if (opts.onClick) return h('button', { ...attrs, onclick: opts.onClick }, art, badge);
  return h('span', { ...attrs, role: 'img', 'aria-label': title }, art, badge);
}

export function cardRow(codes: string[], width = 48, pack?: Pack, cls = ''): HTMLElement {
  return h('span', { class: `card-row ${cls}` }, codes.length ? codes.map((c) => cardEl(c, { width, pack })) : h('span', { class: 'muted' }, t('common:none')));
}

export function backs(n: number, width = 30): HTMLElement {
  return h(
    'span',
    { class: 'backs', title: t('match:cardsFaceDown', { count: n, n: formatNumber(n) }) },
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
          { class: 'declared', title: t('match:declaredTitle') },
          declared.map((c) => cardEl(c, { width: Math.round(width * 1.3), pack, value: values[c], cls: 'declared' })),
        )
      : null,
    backs(Math.max(0, seat.handSize - declared.length), width),
  );
}

// ------------------------------------------------------------------ names

export function seatLabel(s: SeatPublic): string {
  if (s.player) return s.player;
  if (s.reservedFor) return t('match:keptFor', { name: s.reservedFor });
  return t('match:openSeat');
}

/** A seat's label, linking to the profile of whoever sits there. */
export function seatNameEl(s: SeatPublic): Child {
  return s.player ? playerLink(profileName(s.player)!, { label: seatLabel(s) }) : seatLabel(s);
}

export function sideLabel(view: MatchView, side: number, me?: string | null): string {
  const seats = view.seats.filter((s) => s.side === side);
  return (
    formatList(seats.map((s) => (me && s.player === me ? t('match:you', { name: s.player }) : seatLabel(s)))) ||
    t('match:side', { side: formatNumber(side + 1) })
  );
}

/** Scores or points of the sides, in order: "11–4". */
export function tally(values: readonly number[]): string {
  return values.map((v) => formatNumber(v)).join('–');
}

/** Why a match ended, in words ("on points", "by resignation"). */
export function reasonText(reason: string, pack: Pack = 'italian'): string {
  return ['points', 'allDenari', 'resignation', 'forfeit', 'aborted'].includes(reason) ? t(`match:reason.${reason}`, { suit: suitName('D', pack) }) : reason;
}

export function resultText(view: MatchView, me?: string | null): string {
  if (!view.result) return '';
  const winner = view.result.winner;
  const who =
    winner === null ? t('match:draw') : t('match:wins', { name: sideLabel(view, winner, me), count: view.seats.filter((s) => s.side === winner).length });
  return t('match:resultLine', { who, why: reasonText(view.result.reason, packOf(view.preset)), totals: tally(view.sides.map((s) => s.score)) });
}

// ------------------------------------------------------------------ scoring

/** The awards a round may have, with their names in the match's pack (denari are oros in escoba, quadri in cirulla, ...). */
function awards(pack: Pack): [keyof RoundBreakdown['awards'], string][] {
  const suit = suitName('D', pack);
  return [
    ['cards', t('match:award.cards')],
    ['denari', t('match:award.denari', { suit })],
    ['settebello', t('match:award.settebello', { card: cardName('7D', pack) })],
    ['reBello', t('match:award.reBello', { card: cardName('10D', pack) })],
    ['primiera', t('match:award.primiera')],
    ['sevens', t('match:award.sevens')],
    ['piccola', t('match:award.piccola', { suit })],
    ['grande', t('match:award.grande', { suit })],
  ];
}

const num = (n: number | null | undefined): string => formatNumber(n ?? 0);

/** A round's scoring breakdown: one column per side. */
export function breakdownTable(view: MatchView, roundIndex: number, me?: string | null): HTMLElement {
  const rounds = scoredRounds(view);
  const { round, breakdown: b } = rounds[roundIndex];
  const sides = b.points.map((_p, i) => i);
  const running = sides.map((s) => rounds.slice(0, roundIndex + 1).reduce((n, r) => n + (r.breakdown.points[s] ?? 0), 0));
  const pack = packOf(view.preset);
  const denari = suitName('D', pack);
  const mark = (won: boolean, points = 1) => (won ? h('span', { class: 'won' }, ` ✓ ${num(points)}`) : null);
  const rows: Child[] = [
    h(
      'tr',
      null,
      h('th', null, t('match:breakdown.scope')),
      sides.map((s) => h('td', null, num(b.scope[s]))),
    ),
  ];
  // The part of the scope from the initial-table capture and hand declarations (escoba, cirulla).
  if (b.bonusScope)
    rows.push(
      h(
        'tr',
        { class: 'bonus-scope' },
        h('th', null, t('match:breakdown.bonusScope')),
        sides.map((s) => h('td', null, num(b.bonusScope![s]))),
      ),
    );
  for (const [key, label] of awards(pack)) {
    if (!(key in b.awards)) continue;
    const winner = b.awards[key];
    const points = key === 'piccola' ? (b.piccolaPoints ?? 3) : key === 'grande' ? 5 : 1;
    const detail = (s: number): string =>
      key === 'cards'
        ? t('match:breakdown.cards', { count: b.cardCounts[s], n: num(b.cardCounts[s]) })
        : key === 'denari'
          ? t('match:breakdown.suitCount', { count: b.denariCounts[s], n: num(b.denariCounts[s]), suit: denari })
          : key === 'primiera' && b.primiera
            ? b.primiera[s] === null || b.primiera[s] === undefined
              ? t('match:breakdown.void')
              : num(b.primiera[s])
            : '';
    // Nobody holding a piccola or grande is no tie: nobody scores it.
    const none = key === 'piccola' || key === 'grande' ? t('match:breakdown.nobody') : t('match:breakdown.tie');
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
        h('th', null, t('match:breakdown.denariBonus', { suit: denari })),
        sides.map((s) => h('td', null, num(b.denariBonus![s]))),
      ),
    );
  if (b.allDenari !== null && b.allDenari !== undefined)
    rows.push(
      h(
        'tr',
        null,
        h('th', null, t('match:breakdown.allDenari', { suit: denari })),
        sides.map((s) => h('td', null, b.allDenari === s ? '✓' : '')),
      ),
    );
  rows.push(
    h(
      'tr',
      { class: 'points' },
      h('th', null, t('match:breakdown.points')),
      sides.map((s) => h('td', null, num(b.points[s]))),
    ),
  );
  rows.push(
    h(
      'tr',
      { class: 'total' },
      h('th', null, t('match:breakdown.total')),
      sides.map((s) => h('td', null, num(running[s]))),
    ),
  );
  return h(
    'table',
    { class: 'breakdown', 'data-round': round },
    h('caption', null, t('match:roundN', { round: num(round) })),
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

/** "1 scopa", "2 scope" in the player's language. */
export function scopeText(count: number): string {
  return t('match:scope', { count, n: formatNumber(count) });
}

/**
 * One event of the log in the player's words, every card named by its pack
 * (cardName). `me`: the viewer, named "you".
 */
export function describeEvent(e: MatchEvent, view: MatchView | null, me?: string | null): string {
  const p = e.payload as Record<string, any>;
  const pack = packOf(view?.preset);
  const seatName = (seat: number) => (view?.seats[seat] ? seatLabel(view.seats[seat]) : t('match:seatN', { seat: num(seat) }));
  const cards = (codes: unknown) => cardNames((codes as string[] | undefined) ?? [], pack);
  const side = (n: number) => (view ? sideLabel(view, n, me) : t('match:side', { side: num(n + 1) }));
  switch (e.type) {
    case 'MatchCreated':
      return t('match:event.created', { player: p.createdBy, game: gameName(p.preset as string | undefined), target: num(p.options?.target) });
    case 'SeatTaken':
      return p.clientSeed
        ? t('match:event.seatTakenSeed', { player: p.player, seat: num(p.seat), seed: p.clientSeed })
        : t('match:event.seatTaken', { player: p.player, seat: num(p.seat) });
    case 'ClientSeedGiven':
      return t('match:event.seedGiven', { player: seatName(p.seat), seed: p.clientSeed });
    case 'MatchStarted':
      return t('match:event.started');
    case 'RoundDealt': {
      const table = (p.table as string[]).length ? cards(p.table) : t('match:event.emptyTable');
      return p.attempt
        ? t('match:event.dealtAgain', { round: num(p.round), attempt: num(p.attempt + 1), table })
        : t('match:event.dealt', { round: num(p.round), table });
    }
    case 'HandsDealt':
      return t('match:event.handsDealt', { deal: num(p.deal + 1), round: num(p.round) });
    case 'InitialTableCaptured':
      return t('match:event.firstTable', { player: seatName(p.dealer), cards: cards(p.cards), scope: scopeText(p.scope) });
    case 'HandDeclared':
      return p.mattaValue === null || p.mattaValue === undefined
        ? t('match:event.declared', { player: seatName(p.seat), cards: cards(p.cards), scope: scopeText(p.scope) })
        : t('match:event.declaredMatta', { player: seatName(p.seat), cards: cards(p.cards), value: num(p.mattaValue), scope: scopeText(p.scope) });
    case 'CardPlayed': {
      const played = (p.capture as string[]).length
        ? t('match:event.captured', { player: seatName(p.seat), card: cardName(p.card, pack), cards: cards(p.capture) })
        : t('match:event.laid', { player: seatName(p.seat), card: cardName(p.card, pack) });
      return [played, p.scopa ? t('match:event.scopa') : '', p.auto ? t('match:event.byClock') : ''].join('');
    }
    case 'RoundEnded':
      return p.side === null || !p.cards.length
        ? t('match:event.roundEnded', { round: num(p.round) })
        : t('match:event.roundEndedRest', { round: num(p.round), side: side(p.side), cards: cards(p.cards) });
    case 'RoundScored':
      return t('match:event.roundScored', { round: num(p.round), points: tally(p.breakdown.points), totals: tally(p.totals) });
    case 'SeatResigned':
      return t('match:event.resigned', { player: seatName(p.seat) });
    case 'SeatForfeited':
      return t('match:event.forfeited', { player: seatName(p.seat) });
    case 'MatchAborted':
      return t('match:event.aborted', { player: seatName(p.seat) });
    case 'MatchEnded':
      return t('match:event.ended', {
        outcome:
          p.winner === null
            ? t('match:event.aDraw')
            : t('match:wins', { name: side(p.winner), count: view ? view.seats.filter((s) => s.side === p.winner).length : 1 }),
        why: reasonText(p.reason, pack),
        totals: tally(p.totals),
      });
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
  const mine = (seat: number) => !!me && view.seats[seat]?.player === me;
  const seatName = (seat: number) => (view.seats[seat] ? seatLabel(view.seats[seat]) : t('match:seatN', { seat: num(seat) }));
  for (const e of events) {
    const p = e.payload as Record<string, any>;
    if (e.type === 'RoundDealt') current = p.round as number;
    if (current !== round) continue;
    if (e.type === 'InitialTableCaptured') {
      items.push(
        h(
          'li',
          { class: 'initial-capture', 'data-seq': e.seq },
          mine(p.dealer)
            ? t('match:bonus.firstTableYou')
            : view.seats.filter((s) => s.side === p.side).length > 1
              ? t('match:bonus.firstTableTeam', { player: seatName(p.dealer), side: sideLabel(view, p.side, me) })
              : t('match:bonus.firstTable', { player: seatName(p.dealer) }),
          ' ',
          cardRow(p.cards as string[], 32, pack),
          ' ',
          h('strong', null, scopeText(p.scope)),
        ),
      );
    } else if (e.type === 'HandDeclared') {
      items.push(
        h(
          'li',
          { class: 'declaration', 'data-seq': e.seq, 'data-seat': p.seat },
          mine(p.seat) ? t('match:bonus.declaredByYou') : t('match:bonus.declared', { player: seatName(p.seat) }),
          ' ',
          cardRow(p.cards as string[], 32, pack),
          ' ',
          p.mattaValue === null || p.mattaValue === undefined ? '' : t('match:bonus.mattaAs', { value: num(p.mattaValue) }),
          h('strong', null, scopeText(p.scope)),
        ),
      );
    }
  }
  return items.length ? h('div', { class: 'round-bonuses', 'data-round': round }, h('h3', null, t('match:bonus.title')), h('ul', null, items)) : null;
}
