/**
 * The `ismcts` bot: single-observer information-set Monte Carlo tree search
 * (Cowling, Powley & Whitehouse 2012) over the rest of the current round.
 *
 * Each iteration samples a determinization from the seat's view only: the
 * unseen cards (40 minus own hand, table, and this round's captures, which are
 * public) are shuffled and dealt to the other seats' hands (by their known
 * sizes) and to the undealt deck. Hidden cards are never read: the bot's input
 * is a `MatchView`. The tree's nodes are action histories; a node's children
 * are selected by UCB with availability counts (a child is only a candidate
 * when its play is legal in the current determinization). Below the tree a
 * fast rollout policy plays the round to its end, and the result is the
 * round's point difference for each side, scored by the engine's own
 * `scoreRound`.
 *
 * The rules come from the engine: legal plays and the scopa flag from
 * `legalPlaysOf`, points from `scoreRound`. The round simulator here only
 * moves cards between piles (play, deal when all hands are empty, last
 * capturer takes the rest) on plain arrays, to be fast.
 *
 * Pure: no clock or randomness of its own. The Rng is passed in; an ms budget
 * needs a `now` clock passed in too.
 */
import { BIT as BIT_TABLE, RANK as RANK_TABLE, parseCard } from '../cards';
import type { Card } from '../cards';
import { sideCount, sideOf } from '../options';
import type { RulesetOptions } from '../options';
import { legalPlaysOf } from '../plays';
import type { Play } from '../plays';
import { scoreRound } from '../scoring';
import { legalPlaysInView } from '../views';
import type { MatchView } from '../views';
import { scorePlay, unseenCards } from './greedy';
import type { Rng } from './rng';

// Local copies: under tsx every imported binding is read through a getter (hot loops below).
const RANK = RANK_TABLE;
const BIT = BIT_TABLE;

export interface IsmctsBudget {
  /** Iterations (determinization + descent + rollout), default `ISMCTS_DEFAULT_ITERATIONS`. With `ms`, an upper bound. */
  iterations?: number;
  /** Milliseconds of search; needs `now`. */
  ms?: number;
  /** A clock in milliseconds, for `ms` budgets: the engine reads no clock itself, the caller passes one in. */
  now?: () => number;
}

export interface IsmctsOptions extends IsmctsBudget {
  /** UCB exploration constant, on rewards in round points. */
  exploration?: number;
  /** Rollout policy below the tree: 'greedy' (one-ply heuristic, epsilon-random) or 'random'. */
  rollout?: 'greedy' | 'random';
}

export const ISMCTS_DEFAULT_ITERATIONS = 800;
const DEFAULT_EXPLORATION = 2.5;
const ROLLOUT_EPSILON = 0.1;

// ------------------------------------------------------------------ round simulator

/** One determinized round in progress: every card known, on plain arrays (exported for simulator.spec.ts, which holds it to `evolve`). */
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
}

function cloneSim(s: Sim): Sim {
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
  };
}

function isLastPlay(s: Sim): boolean {
  return s.cardsInHands === 1 && s.deck.length === 0;
}

export function legalPlays(s: Sim): Play[] {
  return legalPlaysOf(s.options, s.hands[s.turn], s.table, isLastPlay(s));
}

/** Applies a legal play (its scopa flag computed by the engine) and what follows it: a deal, or the round's end. */
export function applyPlay(s: Sim, play: Play): void {
  const seat = s.turn;
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
    return;
  }
  // Round over: the last side to capture takes what is left.
  if (s.lastCapturer >= 0) for (const c of s.table) s.captured[s.lastCapturer].push(c);
  s.table.length = 0;
  s.over = true;
}

/** The round's points per side minus the best other side's: what each side wants to maximize. */
function rewards(s: Sim): number[] {
  const points = scoreRound(s.options, s.captured, s.scope).points;
  return points.map((p, side) => {
    let best = -Infinity;
    for (let o = 0; o < points.length; o++) if (o !== side && points[o] > best) best = points[o];
    return p - best;
  });
}

/** The public part of the round, with the viewer's hand; other hands and the deck still empty. */
function baseSim(view: MatchView): Sim {
  const options = view.options!;
  const sides = sideCount(options);
  const hands = view.seats.map(() => [] as Card[]);
  hands[view.viewer!] = view.hand.map(parseCard);
  return {
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
  };
}

/** Deals the unseen cards at random: other seats' hands by their known sizes, the rest is the deck. */
function determinize(base: Sim, view: MatchView, unseen: readonly Card[], rng: Rng): Sim {
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
    for (let n = 0; n < seat.handSize; n++) s.hands[seat.seat].push(cards[k++]);
  }
  for (; k < cards.length; k++) s.deck.push(cards[k]);
  return s;
}

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

function rollout(s: Sim, rng: Rng, policy: 'greedy' | 'random'): void {
  while (!s.over) {
    const plays = legalPlays(s);
    applyPlay(s, policy === 'greedy' ? greedyRolloutPlay(s, plays, rng) : plays[Math.floor(rng() * plays.length)]);
  }
}

// ------------------------------------------------------------------ tree

interface Node {
  /** card + 64 * setKey(capture): identifies a play from any determinization. */
  key: number;
  play: Play | null;
  /** Side that made the play leading here (-1 at the root). */
  side: number;
  visits: number;
  total: number;
  avail: number;
  children: Node[];
}

function playKey(play: Play): number {
  let key = 0;
  for (let i = 0; i < play.capture.length; i++) key += BIT[play.capture[i]];
  return play.card + 64 * key;
}

function newNode(play: Play | null, side: number): Node {
  return { key: play ? playKey(play) : -1, play, side, visits: 0, total: 0, avail: 0, children: [] };
}

function findChild(node: Node, key: number): Node | null {
  for (const c of node.children) if (c.key === key) return c;
  return null;
}

/** Search statistics of one decision, for tests and diagnostics. */
export interface IsmctsResult {
  play: Play;
  iterations: number;
  /** Root children: play, visits, mean reward for the viewer's side. */
  stats: { play: Play; visits: number; mean: number }[];
}

export function ismctsSearch(view: MatchView, rng: Rng, options: IsmctsOptions = {}): IsmctsResult {
  const legal = legalPlaysInView(view);
  if (legal.length === 0) throw new RangeError('the viewer has no play to make');
  if (legal.length === 1) return { play: legal[0], iterations: 0, stats: [{ play: legal[0], visits: 0, mean: 0 }] };

  const useClock = options.ms !== undefined && options.now !== undefined;
  const maxIterations = options.iterations ?? (useClock ? Infinity : ISMCTS_DEFAULT_ITERATIONS);
  const deadline = useClock ? options.now!() + options.ms! : Infinity;
  const c = options.exploration ?? DEFAULT_EXPLORATION;
  const policy = options.rollout ?? 'greedy';

  const base = baseSim(view);
  base.lastCapturer = view.lastCapturer ?? -1;
  const unseen = unseenCards(view);
  const root = newNode(null, -1);
  const path: Node[] = [];

  let iterations = 0;
  while (iterations < maxIterations) {
    if (useClock && (iterations & 15) === 0 && options.now!() >= deadline && iterations > 0) break;
    iterations++;
    const s = determinize(base, view, unseen, rng);
    let node = root;
    path.length = 0;
    while (!s.over) {
      const plays = legalPlays(s);
      const side = sideOf(s.options, s.turn);
      // Expand one untried play, if any.
      let untried: Play | null = null;
      let untriedCount = 0;
      for (const p of plays) {
        const child = findChild(node, playKey(p));
        if (child) child.avail++;
        else if (rng() * ++untriedCount < 1) untried = p; // reservoir sampling
      }
      if (untried) {
        const child = newNode(untried, side);
        node.children.push(child);
        applyPlay(s, untried);
        path.push(child);
        break;
      }
      // Select among the children available in this determinization.
      let best: Node | null = null;
      let bestValue = -Infinity;
      for (const p of plays) {
        const child = findChild(node, playKey(p))!;
        const value = child.total / child.visits + c * Math.sqrt(Math.log(child.avail) / child.visits);
        if (value > bestValue) {
          bestValue = value;
          best = child;
        }
      }
      // Apply the determinization's own copy of the play (same card and capture).
      const key = best!.key;
      applyPlay(s, plays.find((p) => playKey(p) === key)!);
      node = best!;
      path.push(node);
    }
    rollout(s, rng, policy);
    const r = rewards(s);
    for (const n of path) {
      n.visits++;
      n.total += r[n.side];
    }
  }

  let best = root.children[0];
  for (const child of root.children) {
    if (child.visits > best.visits || (child.visits === best.visits && child.total > best.total)) best = child;
  }
  // Return the view's own Play object (same card and capture).
  const play = legal.find((p) => playKey(p) === best.key)!;
  return {
    play,
    iterations,
    stats: root.children.map((n) => ({ play: n.play!, visits: n.visits, mean: n.visits ? n.total / n.visits : 0 })),
  };
}

/** The `ismcts` bot's play for the seat of `view` (the seat to move). */
export function ismctsPlay(view: MatchView, rng: Rng, budget: IsmctsOptions = {}): Play {
  return ismctsSearch(view, rng, budget).play;
}
