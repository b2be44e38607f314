/**
 * The determinized search: single-observer information-set Monte Carlo tree
 * search (Cowling, Powley & Whitehouse 2012) over the rest of the current
 * round, from one seat's view only (a `MatchView`: hidden cards never enter).
 * Its two users:
 * - the `ismcts` bot (./ismcts.ts) grows one tree at its decision, on its
 *   iteration or millisecond budget, and plays the root's most visited move
 *   (`searchDecision`);
 * - the post-game analyzer (src/analysis) values every option of a decision:
 *   each gets the same number of iterations, on the same determinizations
 *   (common random numbers), in a tree of its own (`optionValuesSteps`).
 *
 * One iteration: a determinization (./round-simulator.ts deals the unseen
 * cards at random), a descent where a node's children are selected by UCB
 * with availability counts (a child is only a candidate when its move is legal
 * in the current determinization) until one untried move is expanded, a fast
 * rollout to the round's end, and the round's point difference for each side
 * (the engine's `scoreRound`) backed up along the path. Hand declarations
 * (cirulla) are moves like plays: a declaration is a child of the node where
 * the seat's window is open, and the seat then plays from the same turn.
 *
 * Pure: no clock or randomness of its own. The Rng is passed in; a deadline
 * needs a `now` clock passed in too. The draws from the Rng, and their order,
 * are the search's results: src/engine/bots/search-pinned.spec.ts and
 * src/analysis/search-pinned.spec.ts hold them.
 */
import { BIT as BIT_TABLE, RANK as RANK_TABLE } from '../cards';
import type { Declaration } from '../bonuses';
import { scorePlay as scorePlayOf, unseenCards } from '../auto-play';
import { sideOf as sideOfSeat } from '../options';
import type { Play } from '../plays';
import type { MatchView } from '../views';
import * as simulator from './round-simulator';
import type { SearchMove, Sim } from './round-simulator';
import type { Rng } from './rng';

// Local copies: under tsx every imported binding is read through a getter (hot loops below).
const RANK = RANK_TABLE;
const BIT = BIT_TABLE;
const scorePlay = scorePlayOf;
const sideOf = sideOfSeat;
const { applyDeclaration, applyMove, applyPlay, baseSim, cloneSim, determinize, isLastPlay, legalDeclarations, legalPlays, rewards } = simulator;

export type RolloutPolicy = 'greedy' | 'random';

/** How a tree grows: the same for both users, but for their constants. */
export interface TreePolicy {
  /** UCB exploration constant, on rewards in round points. */
  exploration: number;
  /** Below the tree: 'greedy' (one-ply heuristic, epsilon-random) or 'random'. */
  rollout: RolloutPolicy;
  /**
   * A new child's availability count: 0, the bot's (the count starts at the
   * next iteration that finds it legal), or 1, the analyzer's (the expansion
   * counts). Each user keeps its own so that its results stay what they were.
   */
  expandedAvailability: 0 | 1;
}

const ROLLOUT_EPSILON = 0.1;

// ------------------------------------------------------------------ rollout policies

const rankCount = new Array<number>(11).fill(0);

/** One-ply greedy (the `greedy` bot's play scoring), with the mover's own notion of unseen ranks. */
function greedyRolloutPlay(s: Sim, plays: Play[], rng: Rng): Play {
  if (plays.length === 1) return plays[0];
  if (rng() < ROLLOUT_EPSILON) return plays[Math.floor(rng() * plays.length)];
  // Unseen by the mover: other hands and the deck.
  rankCount.fill(0);
  let total = 0;
  for (let p = 0; p < s.players; p++) {
    if (p === s.turn) continue;
    for (const c of s.hands[p]) rankCount[RANK[c]]++;
    total += s.hands[p].length;
  }
  for (const c of s.deck) rankCount[RANK[c]]++;
  total += s.deck.length;
  const last = isLastPlay(s);
  let best = plays[0];
  let bestValue = -Infinity;
  for (const play of plays) {
    const v = scorePlay(s.options, s.table, play, rankCount, total, last);
    if (v > bestValue) {
      bestValue = v;
      best = play;
    }
  }
  return best;
}

/** Plays the round to its end. */
export function rollout(s: Sim, rng: Rng, policy: RolloutPolicy): void {
  while (!s.over) {
    const plays = legalPlays(s);
    const declarations = legalDeclarations(s);
    if (declarations.length > 0) {
      // Greedy declares the best-scoring hand; random picks among every move.
      if (policy === 'greedy') {
        applyDeclaration(s, bestDeclaration(declarations));
        continue;
      }
      const pick = Math.floor(rng() * (plays.length + declarations.length));
      if (pick >= plays.length) {
        applyDeclaration(s, declarations[pick - plays.length]);
        continue;
      }
      applyPlay(s, plays[pick]);
      continue;
    }
    applyPlay(s, policy === 'greedy' ? greedyRolloutPlay(s, plays, rng) : plays[Math.floor(rng() * plays.length)]);
  }
}

/** The first declaration of most points. */
function bestDeclaration(declarations: readonly Declaration[]): Declaration {
  let best = declarations[0];
  for (const d of declarations) if (d.points > best.points) best = d;
  return best;
}

// ------------------------------------------------------------------ tree

export interface SearchNode {
  /** card + 64 * setKey(capture): identifies a play from any determinization; a declaration's is negative (declarationKey). */
  key: number;
  play: Play | null;
  declaration: Declaration | null;
  /** Side that made the move leading here (-1 at a root). */
  side: number;
  visits: number;
  total: number;
  avail: number;
  children: SearchNode[];
}

export function playKey(play: Play): number {
  let key = 0;
  for (let i = 0; i < play.capture.length; i++) key += BIT[play.capture[i]];
  return play.card + 64 * key;
}

/** -2 - the matta value (0 for none): never a play's key, nor a root's -1. */
export function declarationKey(d: Declaration): number {
  return -2 - (d.mattaValue ?? 0);
}

function newNode(play: Play | null, declaration: Declaration | null, side: number, avail: number): SearchNode {
  const key = play ? playKey(play) : declaration ? declarationKey(declaration) : -1;
  return { key, play, declaration, side, visits: 0, total: 0, avail, children: [] };
}

const newRoot = (): SearchNode => newNode(null, null, -1, 0);

function findChild(node: SearchNode, key: number): SearchNode | null {
  for (const c of node.children) if (c.key === key) return c;
  return null;
}

/** UCB1 with the availability count in place of the parent's visits. */
const ucb = (n: SearchNode, c: number): number => n.total / n.visits + c * Math.sqrt(Math.log(n.avail) / n.visits);

const path: SearchNode[] = [];

/**
 * One iteration from `root`, on `s` (a determinization at the root's
 * position, consumed): descent, one expansion, rollout, backup. Returns the
 * rewards per side.
 */
function iterate(root: SearchNode, s: Sim, rng: Rng, policy: TreePolicy): number[] {
  const c = policy.exploration;
  let node = root;
  path.length = 0;
  while (!s.over) {
    const plays = legalPlays(s);
    const declarations = legalDeclarations(s);
    const side = sideOf(s.options, s.turn);
    // Expand one untried move (reservoir sampling among them), if any.
    let untried: Play | null = null;
    let untriedDeclaration: Declaration | null = null;
    let untriedCount = 0;
    for (const p of plays) {
      const child = findChild(node, playKey(p));
      if (child) child.avail++;
      else if (rng() * ++untriedCount < 1) untried = p;
    }
    for (const d of declarations) {
      const child = findChild(node, declarationKey(d));
      if (child) child.avail++;
      else if (rng() * ++untriedCount < 1) {
        untried = null;
        untriedDeclaration = d;
      }
    }
    if (untried && untriedDeclaration) untriedDeclaration = null; // a later play replaced the declaration
    if (untried || untriedDeclaration) {
      const child = newNode(untried, untriedDeclaration, side, policy.expandedAvailability);
      node.children.push(child);
      if (untried) applyPlay(s, untried);
      else applyDeclaration(s, untriedDeclaration!);
      path.push(child);
      break;
    }
    // Select among the children available in this determinization.
    let best: SearchNode | null = null;
    let bestValue = -Infinity;
    let bestPlay: Play | null = null;
    let bestDeclaration: Declaration | null = null;
    for (const p of plays) {
      const child = findChild(node, playKey(p))!;
      const value = ucb(child, c);
      if (value > bestValue) {
        bestValue = value;
        best = child;
        bestPlay = p;
      }
    }
    for (const d of declarations) {
      const child = findChild(node, declarationKey(d))!;
      const value = ucb(child, c);
      if (value > bestValue) {
        bestValue = value;
        best = child;
        bestPlay = null;
        bestDeclaration = d;
      }
    }
    // Apply the determinization's own copy of the move (same card and capture, or same declaration).
    if (bestPlay) applyPlay(s, bestPlay);
    else applyDeclaration(s, bestDeclaration!);
    node = best!;
    path.push(node);
  }
  rollout(s, rng, policy.rollout);
  const r = rewards(s);
  for (const n of path) {
    n.visits++;
    n.total += r[n.side];
  }
  return r;
}

// ------------------------------------------------------------------ the bot's search: one tree at the decision

export interface DecisionBudget {
  /** At most this many iterations (Infinity: the deadline alone stops the search). */
  iterations: number;
  /** Stop when `now()` reaches `at` (read every 16 iterations, after at least one). */
  deadline?: { at: number; now: () => number };
}

/** The tree grown at the decision of `view`'s seat: its root's children are the moves open to the seat. */
export function searchDecision(view: MatchView, rng: Rng, budget: DecisionBudget, policy: TreePolicy): { root: SearchNode; iterations: number } {
  const base = baseSim(view);
  const unseen = unseenCards(view);
  const root = newRoot();
  const { deadline } = budget;
  let iterations = 0;
  while (iterations < budget.iterations) {
    if (deadline && (iterations & 15) === 0 && deadline.now() >= deadline.at && iterations > 0) break;
    iterations++;
    iterate(root, determinize(base, view, unseen, rng), rng, policy);
  }
  return { root, iterations };
}

// ------------------------------------------------------------------ the analyzer's search: a tree per option

export interface OptionsBudget {
  /** Iterations (one determinization, then one descent and rollout per option) given to each option. */
  iterationsPerOption: number;
  /** Yield after every this many iterations (a caller's event loop gets a turn; nothing is drawn at a pause). */
  pauseEvery: number;
}

/**
 * The mean reward for the viewer's side of each of `moves` (options of the
 * decision of `view`'s seat): `iterationsPerOption` iterations each, the k-th
 * determinization shared by every option, under each option a tree of its
 * own. `closeWindow`: the seat plays without declaring.
 */
export function* optionValuesSteps(
  view: MatchView,
  moves: readonly SearchMove[],
  rng: Rng,
  budget: OptionsBudget,
  policy: TreePolicy,
  closeWindow: boolean,
): Generator<void, number[], void> {
  const base = baseSim(view, closeWindow);
  const unseen = unseenCards(view);
  const side = sideOf(base.options, view.viewer!);
  const roots = moves.map(newRoot);
  const totals = new Array<number>(moves.length).fill(0);
  const n = Math.max(1, budget.iterationsPerOption);
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % budget.pauseEvery === 0) yield;
    const det = determinize(base, view, unseen, rng);
    for (let k = 0; k < moves.length; k++) {
      const s = k === moves.length - 1 ? det : cloneSim(det);
      applyMove(s, moves[k]);
      totals[k] += iterate(roots[k], s, rng, policy)[side];
    }
  }
  return totals.map((t) => t / n);
}
