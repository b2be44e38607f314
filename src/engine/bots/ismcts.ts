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
 * Hand declarations (cirulla) are moves like plays: a declaration (with the
 * value it names for the matta) is a child of the node where the seat's
 * window is open, and the seat then plays from the same turn. Cards a
 * declaration revealed stay in their seat's hand in every determinization.
 *
 * The simulator, determinization and rollout are exported for the post-game
 * analyzer (src/analysis), which runs the same search with every root move
 * given an equal share of the budget.
 *
 * Pure: no clock or randomness of its own. The Rng is passed in; an ms budget
 * needs a `now` clock passed in too.
 */
import { BIT as BIT_TABLE, RANK as RANK_TABLE, parseCard } from '../cards';
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
import { captureValuesInView, declarationsInView, legalPlaysInView } from '../views';
import type { MatchView } from '../views';
import { scorePlay, unseenCards } from './greedy';
import type { BotMove } from './move';
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

function isLastPlay(s: Sim): boolean {
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
    if (s.declarable) s.declared.fill(false);
    return;
  }
  // Round over: the last side to capture takes what is left.
  if (s.lastCapturer >= 0) for (const c of s.table) s.captured[s.lastCapturer].push(c);
  s.table.length = 0;
  s.over = true;
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

/** The public part of the round, with the viewer's hand; other hands and the deck still empty. */
export function baseSim(view: MatchView): Sim {
  const options = view.options!;
  const sides = sideCount(options);
  const hands = view.seats.map(() => [] as Card[]);
  hands[view.viewer!] = view.hand.map(parseCard);
  const declarable = hasDeclarations(options);
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
    values: captureValuesInView(view),
    matta: mattaCard(options),
    declarable,
    // A seat whose declared cards are still all in its hand declared this deal's hand.
    declared: view.seats.map((seat) => declarable && (seat.declared?.length ?? 0) > 0 && seat.declared.length === seat.handSize),
  };
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

export function rollout(s: Sim, rng: Rng, policy: 'greedy' | 'random'): void {
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

interface Node {
  /** card + 64 * setKey(capture): identifies a play from any determinization; a declaration's is negative (declarationKey). */
  key: number;
  play: Play | null;
  declaration: Declaration | null;
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

/** -2 - the matta value (0 for none): never a play's key, nor the root's -1. */
function declarationKey(d: Declaration): number {
  return -2 - (d.mattaValue ?? 0);
}

function newNode(play: Play | null, side: number, declaration: Declaration | null = null): Node {
  const key = play ? playKey(play) : declaration ? declarationKey(declaration) : -1;
  return { key, play, declaration, side, visits: 0, total: 0, avail: 0, children: [] };
}

function findChild(node: Node, key: number): Node | null {
  for (const c of node.children) if (c.key === key) return c;
  return null;
}

/** Search statistics of one decision, for tests and diagnostics. */
export interface IsmctsResult {
  /** The best play (the most visited play at the root, even when a declaration comes first). */
  play: Play;
  /** The best move: a play, or a hand declaration to make before playing. */
  move: BotMove;
  iterations: number;
  /** Root children: play (null for a declaration), the declaration (null for a play), visits, mean reward for the viewer's side. */
  stats: { play: Play | null; declaration: Declaration | null; visits: number; mean: number }[];
}

export function ismctsSearch(view: MatchView, rng: Rng, options: IsmctsOptions = {}): IsmctsResult {
  const legal = legalPlaysInView(view);
  if (legal.length === 0) throw new RangeError('the viewer has no play to make');
  const open = declarationsInView(view);
  if (legal.length === 1 && open.length === 0) {
    return { play: legal[0], move: { type: 'play', play: legal[0] }, iterations: 0, stats: [{ play: legal[0], declaration: null, visits: 0, mean: 0 }] };
  }

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
      const declarations = legalDeclarations(s);
      const side = sideOf(s.options, s.turn);
      // Expand one untried move, if any.
      let untried: Play | null = null;
      let untriedDeclaration: Declaration | null = null;
      let untriedCount = 0;
      for (const p of plays) {
        const child = findChild(node, playKey(p));
        if (child) child.avail++;
        else if (rng() * ++untriedCount < 1) untried = p; // reservoir sampling
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
        const child = newNode(untried, side, untriedDeclaration);
        node.children.push(child);
        if (untried) applyPlay(s, untried);
        else applyDeclaration(s, untriedDeclaration!);
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
      for (const d of declarations) {
        const child = findChild(node, declarationKey(d))!;
        const value = child.total / child.visits + c * Math.sqrt(Math.log(child.avail) / child.visits);
        if (value > bestValue) {
          bestValue = value;
          best = child;
        }
      }
      // Apply the determinization's own copy of the move (same card and capture, or same declaration).
      const key = best!.key;
      if (key < -1) applyDeclaration(s, declarations.find((d) => declarationKey(d) === key)!);
      else applyPlay(s, plays.find((p) => playKey(p) === key)!);
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

  const better = (a: Node, b: Node) => a.visits > b.visits || (a.visits === b.visits && a.total > b.total);
  let best = root.children[0];
  for (const child of root.children) if (better(child, best)) best = child;
  let bestPlay: Node | null = null;
  for (const child of root.children) if (child.play && (!bestPlay || better(child, bestPlay))) bestPlay = child;
  // Return the view's own Play object (same card and capture).
  const play = bestPlay ? legal.find((p) => playKey(p) === bestPlay.key)! : legal[0];
  const declared = best.declaration ? open.find((d) => declarationKey(d) === best.key) : undefined;
  const move: BotMove = declared ? { type: 'declare', mattaValue: declared.mattaValue } : { type: 'play', play };
  return {
    play,
    move,
    iterations,
    stats: root.children.map((n) => ({ play: n.play, declaration: n.declaration, visits: n.visits, mean: n.visits ? n.total / n.visits : 0 })),
  };
}

/** The `ismcts` bot's play for the seat of `view` (the seat to move); it never declares (see ismctsMove). */
export function ismctsPlay(view: MatchView, rng: Rng, budget: IsmctsOptions = {}): Play {
  return ismctsSearch(view, rng, budget).play;
}

/** The `ismcts` bot's move: a hand declaration when the search prefers one, else its play. */
export function ismctsMove(view: MatchView, rng: Rng, budget: IsmctsOptions = {}): BotMove {
  return ismctsSearch(view, rng, budget).move;
}
