/**
 * The determinized search's round simulator: one round with every card known
 * (a determinization), on plain arrays, to be fast. It only moves cards
 * between piles (play, deal when all hands are empty, last capturer takes the
 * rest); the rules come from the engine: legal plays and the scopa flag from
 * `legalPlaysOf`, declarations from `declarationsOf`, points from
 * `scoreRound`. round-simulator.spec.ts holds it to decide/evolve.
 *
 * `baseSim` is the public part of a decision (from the seat's `MatchView`);
 * `determinize` deals the cards the seat has not seen at random: hidden cards
 * are never read.
 */
import { parseCard } from '../cards';
import type { Card } from '../cards';
import { declarationsOf, mattaCard } from '../bonuses';
import type { Declaration } from '../bonuses';
import { captureValuesWith } from '../captures';
import type { CaptureValues } from '../captures';
import { hasDeclarations, sideCount, sideOf } from '../options';
import type { RulesetOptions } from '../options';
import { legalPlaysOf } from '../plays';
import type { Play } from '../plays';
import { scoreRound } from '../scoring';
import { captureValuesInView } from '../views';
import type { MatchView } from '../views';
import type { Rng } from './rng';

/** One determinized round in progress: every card known, on plain arrays (round-simulator.spec.ts holds it to `evolve`). */
export interface Sim {
  options: RulesetOptions;
  players: number;
  hands: Card[][];
  table: Card[];
  /** Undealt cards; the next deal takes from the end (the order is already random). */
  deck: Card[];
  captured: Card[][];
  scope: number[];
  /** Side of the last capture, or -1. */
  lastCapturer: number;
  turn: number;
  cardsInHands: number;
  over: boolean;
  /** Capture values in force (a named matta's), RANK otherwise. */
  values: CaptureValues;
  /** The matta's card, or -1. */
  matta: Card;
  /** Whether the ruleset has hand declarations. */
  declarable: boolean;
  /** Per seat: it declared the hand of the current deal. */
  declared: boolean[];
}

export function cloneSim(s: Sim): Sim {
  return {
    options: s.options,
    players: s.players,
    hands: s.hands.map((h) => h.slice()),
    table: s.table.slice(),
    deck: s.deck.slice(),
    captured: s.captured.map((p) => p.slice()),
    scope: s.scope.slice(),
    lastCapturer: s.lastCapturer,
    turn: s.turn,
    cardsInHands: s.cardsInHands,
    over: s.over,
    values: s.values,
    matta: s.matta,
    declarable: s.declarable,
    declared: s.declared.slice(),
  };
}

export function isLastPlay(s: Sim): boolean {
  return s.cardsInHands === 1 && s.deck.length === 0;
}

export function legalPlays(s: Sim): Play[] {
  return legalPlaysOf(s.options, s.hands[s.turn], s.table, isLastPlay(s), s.values);
}

const NO_DECLARATIONS: Declaration[] = [];

/** The declarations open to the seat to move: its whole deal in hand, not declared yet. */
export function legalDeclarations(s: Sim): Declaration[] {
  if (!s.declarable || s.declared[s.turn] || s.hands[s.turn].length !== s.options.handSize) return NO_DECLARATIONS;
  return declarationsOf(s.options, s.hands[s.turn]);
}

/** A declaration: its side scores, a named matta value holds from now on; the same seat then plays. */
export function applyDeclaration(s: Sim, d: Declaration): void {
  s.declared[s.turn] = true;
  s.scope[sideOf(s.options, s.turn)] += d.points;
  if (d.mattaValue !== null) s.values = captureValuesWith(s.matta, d.mattaValue);
}

/** Applies a legal play (its scopa flag computed by the engine) and what follows it: a deal, or the round's end. The play closes the seat's declaration window. */
export function applyPlay(s: Sim, play: Play): void {
  const seat = s.turn;
  if (s.declarable) s.declared[seat] = true;
  const hand = s.hands[seat];
  hand.splice(hand.indexOf(play.card), 1);
  s.cardsInHands--;
  if (play.capture.length === 0) {
    s.table.push(play.card);
  } else {
    const side = sideOf(s.options, seat);
    const pile = s.captured[side];
    for (const c of play.capture) {
      s.table.splice(s.table.indexOf(c), 1);
      pile.push(c);
    }
    pile.push(play.card);
    if (play.scopa) s.scope[side]++;
    s.lastCapturer = side;
  }
  s.turn = (seat + 1) % s.players;
  if (s.cardsInHands > 0) return;
  if (s.deck.length > 0) {
    const { handSize } = s.options;
    for (let p = 0; p < s.players; p++) for (let k = 0; k < handSize; k++) s.hands[p].push(s.deck.pop()!);
    s.cardsInHands = s.players * handSize;
    if (s.declarable) s.declared.fill(false);
    return;
  }
  // Round over: the last side to capture takes what is left.
  if (s.lastCapturer >= 0) for (const c of s.table) s.captured[s.lastCapturer].push(c);
  s.table.length = 0;
  s.over = true;
}

/** One option of a decision: a play, a hand declaration (cirulla), or letting the declaration window close. */
export type SearchMove = { kind: 'play'; play: Play } | { kind: 'declare'; declaration: Declaration } | { kind: 'pass' };

export function applyMove(s: Sim, move: SearchMove): void {
  if (move.kind === 'play') applyPlay(s, move.play);
  else if (move.kind === 'declare') applyDeclaration(s, move.declaration);
  else s.declared[s.turn] = true; // the window closes unused: the seat now plays without declaring
}

/** The round's points per side minus the best other side's: what each side wants to maximize. */
export function rewards(s: Sim): number[] {
  const points = scoreRound(s.options, s.captured, s.scope).points;
  return points.map((p, side) => {
    let best = -Infinity;
    for (let o = 0; o < points.length; o++) if (o !== side && points[o] > best) best = points[o];
    return p - best;
  });
}

/**
 * The public part of the round, with the viewer's hand; other hands and the
 * deck still empty. `closeWindow`: the viewer plays without declaring (its
 * window closes with the play), so no declaration is open to it.
 */
export function baseSim(view: MatchView, closeWindow = false): Sim {
  const options = view.options!;
  const sides = sideCount(options);
  const hands = view.seats.map(() => [] as Card[]);
  hands[view.viewer!] = view.hand.map(parseCard);
  const declarable = hasDeclarations(options);
  const s: Sim = {
    options,
    players: options.players,
    hands,
    table: view.table.map(parseCard),
    deck: [],
    captured: Array.from({ length: sides }, (_, side) => view.sides[side].captured.map(parseCard)),
    scope: Array.from({ length: sides }, (_, side) => view.sides[side].scope),
    lastCapturer: -1,
    turn: view.turn,
    cardsInHands: view.seats.reduce((n, s) => n + s.handSize, 0),
    over: false,
    values: captureValuesInView(view),
    matta: mattaCard(options),
    declarable,
    // A seat whose declared cards are still all in its hand declared this deal's hand.
    declared: view.seats.map((seat) => declarable && (seat.declared?.length ?? 0) > 0 && seat.declared.length === seat.handSize),
  };
  s.lastCapturer = view.lastCapturer ?? -1;
  if (closeWindow && declarable) s.declared[view.viewer!] = true;
  return s;
}

/** Deals the unseen cards at random: other seats' hands by their known sizes, the rest is the deck. */
export function determinize(base: Sim, view: MatchView, unseen: readonly Card[], rng: Rng): Sim {
  const s = cloneSim(base);
  const cards = unseen.slice();
  for (let i = cards.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = cards[i];
    cards[i] = cards[j];
    cards[j] = t;
  }
  let k = 0;
  for (const seat of view.seats) {
    if (seat.seat === view.viewer) continue;
    // Cards a declaration showed are in that hand in every determinization (unseenCards leaves them out).
    const shown = seat.declared ?? [];
    for (const code of shown) s.hands[seat.seat].push(parseCard(code));
    for (let n = shown.length; n < seat.handSize; n++) s.hands[seat.seat].push(cards[k++]);
  }
  for (; k < cards.length; k++) s.deck.push(cards[k]);
  return s;
}
