import type { MatchEvent, MatchView, RoundBreakdown, SeatPublic } from './api';
import { ApiError } from './api';
import { backSvg, cardName, cardSvg } from './cards';
import { fromMarkup, h } from './dom';
import type { Child } from './dom';

// ------------------------------------------------------------------ errors

let banner: HTMLElement | null = null;

export function errorBanner(): HTMLElement {
  banner = h('div', { id: 'error', class: 'error', role: 'alert', hidden: true });
  return banner;
}

/** Every failure is shown with its stable code and message (GraphQL `extensions`). */
export function showError(err: unknown): void {
  if (!banner) return;
  const e = err instanceof ApiError ? err : new ApiError('CLIENT', err instanceof Error ? err.message : String(err));
  const details = Object.entries(e.details).filter(([k]) => k !== 'status');
  banner.replaceChildren(
    h('strong', { class: 'error-code' }, e.code),
    ' ',
    h('span', { class: 'error-message' }, e.message),
    details.length ? h('span', { class: 'error-details' }, ' (', details.map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(', '), ')') : '',
    h('button', { class: 'link close', 'aria-label': 'dismiss', onclick: clearError }, '×'),
  );
  banner.hidden = false;
}

export function clearError(): void {
  if (banner) banner.hidden = true;
}

/** Run an action, showing its error if it fails. */
export async function attempt<T>(action: () => Promise<T>): Promise<T | undefined> {
  try {
    const result = await action();
    return result;
  } catch (err) {
    showError(err);
    return undefined;
  }
}

// ------------------------------------------------------------------ cards

export function cardEl(code: string, opts: { width?: number; cls?: string; onClick?: () => void; title?: string } = {}): HTMLElement {
  const art = fromMarkup(cardSvg(code, opts.width ?? 72));
  const title = opts.title ?? cardName(code);
  if (opts.onClick) {
    return h('button', { class: `card ${opts.cls ?? ''}`, 'data-card': code, title, onclick: opts.onClick }, art);
  }
  return h('span', { class: `card ${opts.cls ?? ''}`, 'data-card': code, title }, art);
}

export function cardRow(codes: string[], width = 48, cls = ''): HTMLElement {
  return h('span', { class: `card-row ${cls}` }, codes.length ? codes.map((c) => cardEl(c, { width })) : h('span', { class: 'muted' }, '—'));
}

export function backs(n: number, width = 30): HTMLElement {
  return h('span', { class: 'backs', title: `${n} card${n === 1 ? '' : 's'}` }, Array.from({ length: n }, () => fromMarkup(backSvg(width), 'card back')));
}

// ------------------------------------------------------------------ names

export function seatLabel(s: SeatPublic): string {
  if (s.player) return s.player;
  if (s.reservedFor) return `(kept for ${s.reservedFor})`;
  return '(open)';
}

/** The name a profile goes by: a bot seat (`bot:<level>:<seat>`) is rated as its level (`bot:<level>`). */
export function profileName(player: string | null): string | null {
  const bot = player ? /^bot:([^:]+):\d+$/.exec(player) : null;
  return bot ? `bot:${bot[1]}` : player;
}

/** A player's name, linking to their profile page. */
export function playerLink(name: string, opts: { strong?: boolean; label?: string } = {}): HTMLElement {
  const label = opts.label ?? name;
  return h('a', { href: `#/users/${encodeURIComponent(name)}`, class: 'player', 'data-player': name }, opts.strong ? h('strong', null, label) : label);
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
  const who = view.result.winner === null ? 'Draw' : `${sideLabel(view, view.result.winner, me)} win${view.seats.filter((s) => s.side === view.result!.winner).length > 1 ? '' : 's'}`;
  return `${who} ${why[view.result.reason] ?? view.result.reason}, ${totals}`;
}

// ------------------------------------------------------------------ scoring

const AWARDS: [keyof RoundBreakdown['awards'], string][] = [
  ['cards', 'Most cards'],
  ['denari', 'Most denari'],
  ['settebello', 'Settebello (7D)'],
  ['reBello', 'Re bello (10D)'],
  ['primiera', 'Primiera'],
  ['sevens', 'Most sevens'],
];

/** A round's scoring breakdown: one column per side. */
export function breakdownTable(view: MatchView, roundIndex: number, me?: string | null): HTMLElement {
  const { round, breakdown: b } = view.rounds[roundIndex];
  const sides = b.points.map((_p, i) => i);
  const running = sides.map((s) => view.rounds.slice(0, roundIndex + 1).reduce((n, r) => n + (r.breakdown.points[s] ?? 0), 0));
  const mark = (won: boolean) => (won ? h('span', { class: 'won' }, ' ✓ 1') : null);
  const rows: Child[] = [
    h('tr', null, h('th', null, 'Scope'), sides.map((s) => h('td', null, String(b.scope[s] ?? 0)))),
  ];
  for (const [key, label] of AWARDS) {
    if (!(key in b.awards)) continue;
    const winner = b.awards[key];
    const detail = (s: number): string =>
      key === 'cards' ? `${b.cardCounts[s]} cards` : key === 'denari' ? `${b.denariCounts[s]} denari` : key === 'primiera' && b.primiera ? `${b.primiera[s] ?? 'void'}` : '';
    rows.push(h('tr', null, h('th', null, label), sides.map((s) => h('td', null, detail(s), mark(winner === s), winner === null && s === 0 ? h('span', { class: 'muted' }, detail(s) ? ' (tie)' : 'tie') : null))));
  }
  if (b.denariBonus) rows.push(h('tr', null, h('th', null, 'Denari 1-2-3 bonus'), sides.map((s) => h('td', null, String(b.denariBonus![s] ?? 0)))));
  if (b.allDenari !== null && b.allDenari !== undefined) rows.push(h('tr', null, h('th', null, 'All ten denari'), sides.map((s) => h('td', null, b.allDenari === s ? '✓' : ''))));
  rows.push(h('tr', { class: 'points' }, h('th', null, 'Round points'), sides.map((s) => h('td', null, String(b.points[s])))));
  rows.push(h('tr', { class: 'total' }, h('th', null, 'Total'), sides.map((s) => h('td', null, String(running[s])))));
  return h(
    'table',
    { class: 'breakdown', 'data-round': round },
    h('caption', null, `Round ${round}`),
    h('thead', null, h('tr', null, h('th', null, ''), sides.map((s) => h('th', null, sideLabel(view, s, me))))),
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
    case 'CardPlayed':
      return `${seatName(p.seat)} played ${p.card}${p.capture.length ? ` capturing ${(p.capture as string[]).join('+')}` : ' to the table'}${p.scopa ? ' — scopa!' : ''}${p.auto ? ' (played by the clock)' : ''}`;
    case 'RoundEnded':
      return p.side === null || !p.cards.length ? `Round ${p.round} ended` : `Round ${p.round} ended: side ${p.side} takes the rest (${(p.cards as string[]).join(' ')})`;
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
