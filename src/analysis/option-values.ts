/**
 * The analyzer's evaluation of one decision: every legal option of the seat
 * to move, valued from that seat's view only (a `MatchView`: its hand, the
 * table, the captured piles, the cards a declaration showed), as the side's
 * expected point difference in the round at its end (its round points minus
 * the best other side's).
 *
 * Two methods:
 * - **exact**: two players, last deal (the deck is empty). The cards the
 *   viewer has not seen are then exactly the opponent's hand, so nothing is
 *   hidden: a full minimax over every line (both hands known, declarations
 *   included) gives each option's value.
 * - **search**: otherwise, the engine's determinized search (the `ismcts`
 *   bot's: src/engine/bots/determinized-search.ts) with the budget split
 *   evenly: every option gets `iterationsPerOption` iterations, each on the
 *   same sequence of determinizations (common random numbers: the options
 *   are compared on the same deals), and under each option a tree of its own.
 *   An option's value is the mean reward of its iterations.
 *
 * Pure and seeded: the caller passes the Rng; hidden cards never enter (the
 * only input is the view).
 */
import { parseCard } from '../engine/cards';
import type { Card } from '../engine/cards';
import { unseenCards } from '../engine/auto-play';
import { sideOf } from '../engine/options';
import type { MatchView } from '../engine/views';
import type { Rng } from '../engine/bots/rng';
import { optionValuesSteps } from '../engine/bots/determinized-search';
import { applyDeclaration, applyMove, applyPlay, baseSim, cloneSim, legalDeclarations, legalPlays, rewards } from '../engine/bots/round-simulator';
import type { SearchMove, Sim } from '../engine/bots/round-simulator';

/** One option of a decision: a play, a hand declaration (cirulla), or letting the declaration window close. */
export type Move = SearchMove;

export interface SearchBudget {
  /** Iterations (one determinization, one descent, one rollout) given to each option. */
  iterationsPerOption: number;
  /** UCB exploration constant, on rewards in round points (the bot's). */
  exploration: number;
}

export type Method = 'exact' | 'search';

/** Whether nothing hidden matters: two players, last deal (the unseen cards are the opponent's hand). */
export function isExactPosition(view: MatchView): boolean {
  return view.options!.players === 2 && view.deckSize === 0;
}

/** Iterations between two pauses of a search (./analyzer.ts passes them on: a worker's event loop gets a turn). */
const SLICE = 32;

/** Runs a generator to its end (no pauses). */
export function drain<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Values of `moves` for the viewer's side, by the method the position calls for; pauses (yields) between slices of the search. */
export function* evaluateMovesSteps(
  view: MatchView,
  moves: readonly Move[],
  rng: Rng,
  budget: SearchBudget,
  closeWindow: boolean,
): Generator<void, { method: Method; values: number[] }, void> {
  if (isExactPosition(view)) return { method: 'exact', values: exactValues(view, moves, closeWindow) };
  const policy = { exploration: budget.exploration, rollout: 'greedy', expandedAvailability: 1 } as const;
  return {
    method: 'search',
    values: yield* optionValuesSteps(view, moves, rng, { iterationsPerOption: budget.iterationsPerOption, pauseEvery: SLICE }, policy, closeWindow),
  };
}

export function evaluateMoves(
  view: MatchView,
  moves: readonly Move[],
  rng: Rng,
  budget: SearchBudget,
  closeWindow: boolean,
): { method: Method; values: number[] } {
  return drain(evaluateMovesSteps(view, moves, rng, budget, closeWindow));
}

// ------------------------------------------------------------------ exact

/** Every line to the round's end, both hands known: each mover takes what is best for its side. */
export function exactValues(view: MatchView, moves: readonly Move[], closeWindow: boolean): number[] {
  const s = baseSim(view, closeWindow);
  const viewer = view.viewer!;
  const other = 1 - viewer;
  // Deck empty: what the viewer has not seen is the opponent's hand (plus the cards its declaration showed).
  const hand: Card[] = [...(view.seats[other].declared ?? []).map(parseCard), ...unseenCards(view)];
  if (hand.length !== view.seats[other].handSize) throw new RangeError('not an exact position: the unseen cards are not the other hand');
  s.hands[other] = hand;
  const side = sideOf(s.options, viewer);
  return moves.map((move) => {
    const c = cloneSim(s);
    applyMove(c, move);
    return minimax(c)[side];
  });
}

function minimax(s: Sim): number[] {
  if (s.over) return rewards(s);
  const mover = sideOf(s.options, s.turn);
  let best: number[] | null = null;
  for (const d of legalDeclarations(s)) {
    const c = cloneSim(s);
    applyDeclaration(c, d);
    const r = minimax(c);
    if (best === null || r[mover] > best[mover]) best = r;
  }
  for (const p of legalPlays(s)) {
    const c = cloneSim(s);
    applyPlay(c, p); // a play with the seat's window open lets it close
    const r = minimax(c);
    if (best === null || r[mover] > best[mover]) best = r;
  }
  return best!;
}
