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
 * - **search**: otherwise, the `ismcts` bot's machinery (src/engine/bots/ismcts.ts:
 *   determinizations drawn from the view, UCB with availability counts, greedy
 *   rollouts, the engine's scoreRound) with the budget split evenly: every
 *   option gets `iterationsPerOption` iterations, each on the same sequence of
 *   determinizations (common random numbers: the options are compared on the
 *   same deals), and under each option a tree of its own. An option's value is
 *   the mean reward of its iterations.
 *
 * Pure and seeded: the caller passes the Rng; hidden cards never enter (the
 * only input is the view).
 */
import { BIT, parseCard } from '../engine/cards';
import type { Card } from '../engine/cards';
import { unseenCards } from '../engine/auto-play';
import type { Declaration } from '../engine/bonuses';
import { sideOf } from '../engine/options';
import type { Play } from '../engine/plays';
import type { MatchView } from '../engine/views';
import type { Rng } from '../engine/bots/rng';
import { applyDeclaration, applyPlay, baseSim, cloneSim, determinize, legalDeclarations, legalPlays, rewards, rollout } from '../engine/bots/ismcts';
import type { Sim } from '../engine/bots/ismcts';

/** One option of a decision: a play, a hand declaration (cirulla), or letting the declaration window close. */
export type Move = { kind: 'play'; play: Play } | { kind: 'declare'; declaration: Declaration } | { kind: 'pass' };

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

function applyMove(s: Sim, move: Move): void {
  if (move.kind === 'play') applyPlay(s, move.play);
  else if (move.kind === 'declare') applyDeclaration(s, move.declaration);
  else s.declared[s.turn] = true; // the window closes unused: the seat now plays without declaring
}

/**
 * The public round with the viewer's hand. `closeWindow`: the viewer plays
 * without declaring (its window closes with the play), so no declaration is
 * open to it in the simulations.
 */
function baseOf(view: MatchView, closeWindow: boolean): Sim {
  const s = baseSim(view);
  s.lastCapturer = view.lastCapturer ?? -1;
  if (closeWindow && s.declarable) s.declared[view.viewer!] = true;
  return s;
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
export function* evaluateMovesSteps(view: MatchView, moves: readonly Move[], rng: Rng, budget: SearchBudget, closeWindow: boolean): Generator<void, { method: Method; values: number[] }, void> {
  if (isExactPosition(view)) return { method: 'exact', values: exactValues(view, moves, closeWindow) };
  return { method: 'search', values: yield* searchSteps(view, moves, rng, budget, closeWindow) };
}

export function evaluateMoves(view: MatchView, moves: readonly Move[], rng: Rng, budget: SearchBudget, closeWindow: boolean): { method: Method; values: number[] } {
  return drain(evaluateMovesSteps(view, moves, rng, budget, closeWindow));
}

// ------------------------------------------------------------------ exact

/** Every line to the round's end, both hands known: each mover takes what is best for its side. */
export function exactValues(view: MatchView, moves: readonly Move[], closeWindow: boolean): number[] {
  const s = baseOf(view, closeWindow);
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
  // A seat that plays with its window open lets it close.
  const open = s.declarable && !s.declared[s.turn] && s.hands[s.turn].length === s.options.handSize;
  for (const p of legalPlays(s)) {
    const c = cloneSim(s);
    if (open) c.declared[c.turn] = true;
    applyPlay(c, p);
    const r = minimax(c);
    if (best === null || r[mover] > best[mover]) best = r;
  }
  return best!;
}

// ------------------------------------------------------------------ search

interface Node {
  key: number;
  /** Side that made the move leading here. */
  side: number;
  visits: number;
  total: number;
  avail: number;
  children: Node[];
}

const playKey = (play: Play): number => {
  let key = 0;
  for (const c of play.capture) key += BIT[c];
  return play.card + 64 * key;
};
const declarationKey = (d: Declaration): number => -2 - (d.mattaValue ?? 0);

function child(node: Node, key: number): Node | undefined {
  for (const c of node.children) if (c.key === key) return c;
  return undefined;
}

/** Each option: `iterationsPerOption` ISMCTS iterations on the same determinizations, in a tree of its own. */
export function searchValues(view: MatchView, moves: readonly Move[], rng: Rng, budget: SearchBudget, closeWindow: boolean): number[] {
  return drain(searchSteps(view, moves, rng, budget, closeWindow));
}

/** searchValues, pausing every SLICE iterations (the numbers are the same: the pauses draw nothing from the rng). */
export function* searchSteps(view: MatchView, moves: readonly Move[], rng: Rng, budget: SearchBudget, closeWindow: boolean): Generator<void, number[], void> {
  const base = baseOf(view, closeWindow);
  const unseen = unseenCards(view);
  const side = sideOf(base.options, view.viewer!);
  const roots: Node[] = moves.map(() => ({ key: -1, side, visits: 0, total: 0, avail: 0, children: [] }));
  const totals = new Array<number>(moves.length).fill(0);
  const path: Node[] = [];
  const c = budget.exploration;
  const n = Math.max(1, budget.iterationsPerOption);
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % SLICE === 0) yield;
    const det = determinize(base, view, unseen, rng);
    for (let k = 0; k < moves.length; k++) {
      const s = k === moves.length - 1 ? det : cloneSim(det);
      applyMove(s, moves[k]);
      let node = roots[k];
      path.length = 0;
      path.push(node);
      while (!s.over) {
        const plays = legalPlays(s);
        const declarations = legalDeclarations(s);
        const mover = sideOf(s.options, s.turn);
        const open = declarations.length > 0;
        // Expand one untried move (reservoir sampling among them), if any.
        let untried: Play | Declaration | null = null;
        let untriedIsPlay = true;
        let count = 0;
        for (const p of plays) {
          const found = child(node, playKey(p));
          if (found) found.avail++;
          else if (rng() * ++count < 1) {
            untried = p;
            untriedIsPlay = true;
          }
        }
        for (const d of declarations) {
          const found = child(node, declarationKey(d));
          if (found) found.avail++;
          else if (rng() * ++count < 1) {
            untried = d;
            untriedIsPlay = false;
          }
        }
        if (untried !== null) {
          const key = untriedIsPlay ? playKey(untried as Play) : declarationKey(untried as Declaration);
          const next: Node = { key, side: mover, visits: 0, total: 0, avail: 1, children: [] };
          node.children.push(next);
          if (untriedIsPlay) {
            if (open) s.declared[s.turn] = true;
            applyPlay(s, untried as Play);
          } else applyDeclaration(s, untried as Declaration);
          path.push(next);
          break;
        }
        let best: Node | null = null;
        let bestValue = -Infinity;
        let bestMove: Play | Declaration | null = null;
        let bestIsPlay = true;
        for (const p of plays) {
          const ch = child(node, playKey(p))!;
          const value = ch.total / ch.visits + c * Math.sqrt(Math.log(ch.avail) / ch.visits);
          if (value > bestValue) {
            bestValue = value;
            best = ch;
            bestMove = p;
            bestIsPlay = true;
          }
        }
        for (const d of declarations) {
          const ch = child(node, declarationKey(d))!;
          const value = ch.total / ch.visits + c * Math.sqrt(Math.log(ch.avail) / ch.visits);
          if (value > bestValue) {
            bestValue = value;
            best = ch;
            bestMove = d;
            bestIsPlay = false;
          }
        }
        if (bestIsPlay) {
          if (open) s.declared[s.turn] = true;
          applyPlay(s, bestMove as Play);
        } else applyDeclaration(s, bestMove as Declaration);
        node = best!;
        path.push(node);
      }
      rollout(s, rng, 'greedy');
      const r = rewards(s);
      for (const p of path) {
        p.visits++;
        p.total += r[p.side];
      }
      totals[k] += r[side];
    }
  }
  return totals.map((t) => t / n);
}
