/**
 * What each audience may see of a match. A seat sees its own hand; a
 * spectator sees no hand; nobody sees the deck order, the server seed or the
 * deck seed until the match is over, when the reveal shows everything. Client
 * seeds are public from the moment they are given.
 */
import { RANK, cardCodes, parseCard } from './cards';
import type { Card, CardCode } from './cards';
import { declarationsOf } from './bonuses';
import type { Declaration } from './bonuses';
import { captureValuesWith } from './captures';
import type { CaptureValues } from './captures';
import { sideCount, sideOf } from './options';
import type { PresetId, RulesetOptions } from './options';
import { legalPlaysOf, toPlayCodes } from './plays';
import type { Play, PlayCodes } from './plays';
import { toHex } from './shuffle';
import type { MatchResult, MatchSettings, MatchState, Phase, RoundRecord } from './types';

export interface SeatPublic {
  seat: number;
  side: number;
  player: string | null;
  reservedFor: string | null;
  bot: string | null;
  handSize: number;
  /** The cards of this seat's hand declaration still in its hand: public to every seat and spectator (empty without one). */
  declared: CardCode[];
  /** The seat's turn clock: `paused` while its player is on vacation (ClockPaused, `scopa-rules/5`). Optional only for views made before it existed. */
  clock?: { paused: boolean };
}

export interface SidePublic {
  side: number;
  seats: number[];
  capturedCount: number;
  /** This round's captures: public, since every capture was played face up. */
  captured: CardCode[];
  scope: number;
  score: number;
}

export interface MatchView {
  /** The seat this view is for, or null for a spectator. */
  viewer: number | null;
  phase: Phase;
  rulesVersion: string;
  preset: PresetId | null;
  options: RulesetOptions | null;
  settings: MatchSettings;
  seedCommitment: string | null;
  /** Client seed per seat (lowercase hex), null where none was given yet: public at once. */
  clientSeeds: (string | null)[];
  round: number;
  dealer: number;
  turn: number;
  /** The side that captured last this round (it takes what is left at the end), or null. */
  lastCapturer: number | null;
  /** The viewer's own hand (empty for a spectator). */
  hand: CardCode[];
  table: CardCode[];
  /**
   * Capture values other than the rank, public until the round ends: a
   * declared matta's, e.g. `{"7C": 2}`; `{}` when none. The engine's views
   * always set it (optional only for views made before it existed).
   */
  captureValues?: Record<CardCode, number>;
  deckSize: number;
  seats: SeatPublic[];
  sides: SidePublic[];
  rounds: RoundRecord[];
  result: MatchResult | null;
}

export interface MatchReveal extends MatchView {
  seed: string;
  hands: CardCode[][];
  /** Undealt cards of the current round, in deal order. */
  deck: CardCode[];
  captured: CardCode[][];
}

// Shared by every view with nothing there: a live feed builds a view per subscriber per event, and views are never changed once built.
const NO_CARDS = Object.freeze([]) as unknown as CardCode[];
const PAUSED = Object.freeze({ paused: true });
const RUNNING = Object.freeze({ paused: false });
const NO_CAPTURE_VALUES = Object.freeze({}) as Record<CardCode, number>;

function baseView(state: MatchState, viewer: number | null, hand: readonly Card[]): MatchView {
  const options = state.options;
  const sides = options ? sideCount(options) : 0;
  return {
    viewer,
    phase: state.phase,
    rulesVersion: state.rulesVersion,
    preset: state.preset,
    options,
    settings: state.settings,
    seedCommitment: state.seedCommitment,
    clientSeeds: state.clientSeeds.slice(),
    round: state.round,
    dealer: state.dealer,
    turn: state.turn,
    lastCapturer: state.lastCapturer,
    hand: cardCodes(hand),
    table: cardCodes(state.table),
    captureValues: state.mattaValue !== null && options?.matta ? { [options.matta]: state.mattaValue } : NO_CAPTURE_VALUES,
    deckSize: state.deck ? state.deck.length - state.deckPos : 0,
    seats: state.seats.map((s, seat) => ({
      seat,
      side: options ? sideOf(options, seat) : seat,
      player: s.player,
      reservedFor: s.reservedFor,
      bot: s.bot,
      handSize: state.hands[seat]?.length ?? 0,
      declared: state.declared[seat]?.length ? cardCodes(state.declared[seat]) : NO_CARDS,
      clock: state.clockPaused[seat] ? PAUSED : RUNNING,
    })),
    sides: Array.from({ length: sides }, (_, side) => ({
      side,
      seats: state.seats.map((_s, seat) => seat).filter((seat) => sideOf(options!, seat) === side),
      capturedCount: state.captured[side]?.length ?? 0,
      captured: cardCodes(state.captured[side] ?? []),
      scope: state.scope[side] ?? 0,
      score: state.scores[side] ?? 0,
    })),
    rounds: state.rounds.slice(),
    result: state.result,
  };
}

/** One seat's view: its own hand and everything public. */
export function seatView(state: MatchState, seat: number): MatchView {
  return baseView(state, seat, state.hands[seat] ?? []);
}

/** A spectator's view: everything public, no hand. */
export function spectatorView(state: MatchState): MatchView {
  return baseView(state, null, []);
}

/** Everything, seed and deck included: only once the match is over. */
export function revealView(state: MatchState): MatchReveal | null {
  if (state.phase !== 'over' || !state.seed) return null;
  return {
    ...spectatorView(state),
    seed: toHex(state.seed),
    hands: state.hands.map((hand) => cardCodes(hand)),
    deck: state.deck ? cardCodes(Array.from(state.deck.subarray(state.deckPos))) : [],
    captured: state.captured.map((pile) => cardCodes(pile)),
  };
}

/** Would the next play be the round's last (deck and every other hand empty)? */
export function isLastPlayInView(view: MatchView): boolean {
  return view.deckSize === 0 && view.seats.reduce((n, s) => n + s.handSize, 0) === 1;
}

/** The capture values a view shows (every card's rank but those in `captureValues`). */
export function captureValuesInView(view: MatchView): CaptureValues {
  const named = view.captureValues ? Object.entries(view.captureValues) : [];
  if (named.length === 0) return RANK;
  const [code, value] = named[0];
  return captureValuesWith(parseOrThrow(code), value);
}

/** The legal plays of the viewer's hand, computed from what the viewer may see. */
export function legalPlaysInView(view: MatchView): Play[] {
  if (!view.options || view.phase !== 'playing' || view.viewer === null || view.turn !== view.viewer) return [];
  return legalPlaysOf(view.options, view.hand.map(parseOrThrow), view.table.map(parseOrThrow), isLastPlayInView(view), captureValuesInView(view));
}

export function legalPlayCodesInView(view: MatchView): PlayCodes[] {
  return legalPlaysInView(view).map(toPlayCodes);
}

/**
 * The hand declarations open to the viewer now (the conformance `handBonus`
 * shape): on its turn, while its hand holds the whole last deal and is not
 * declared yet. Any of them may be sent as listed.
 */
export function declarationsInView(view: MatchView): Declaration[] {
  if (!view.options || view.phase !== 'playing' || view.viewer === null || view.turn !== view.viewer) return [];
  if (view.hand.length !== view.options.handSize) return [];
  if ((view.seats[view.viewer]?.declared.length ?? 0) > 0) return [];
  return declarationsOf(view.options, view.hand.map(parseOrThrow));
}

/** Everything the viewer may do now: its legal plays and the declarations open to it. */
export interface LegalMoves {
  plays: PlayCodes[];
  declarations: Declaration[];
}

export function legalMovesInView(view: MatchView): LegalMoves {
  return { plays: legalPlayCodesInView(view), declarations: declarationsInView(view) };
}

function parseOrThrow(code: CardCode): Card {
  const c = parseCard(code);
  if (c < 0) throw new RangeError(`bad card code ${code}`);
  return c;
}
