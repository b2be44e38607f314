/**
 * The `ismcts` bot: the determinized search (./determinized-search.ts) grown
 * at its decision on its budget (iterations, or milliseconds with a clock
 * passed in), and the root's most visited move played.
 *
 * Pure: no clock or randomness of its own. The Rng is passed in; an ms budget
 * needs a `now` clock passed in too.
 */
import type { Declaration } from '../bonuses';
import type { Play } from '../plays';
import { declarationsInView, legalPlaysInView } from '../views';
import type { MatchView } from '../views';
import { declarationKey, playKey, searchDecision } from './determinized-search';
import type { RolloutPolicy, SearchNode } from './determinized-search';
import type { BotMove } from './move';
import type { Rng } from './rng';

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
  rollout?: RolloutPolicy;
}

export const ISMCTS_DEFAULT_ITERATIONS = 800;
const DEFAULT_EXPLORATION = 2.5;

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
  const { root, iterations } = searchDecision(
    view,
    rng,
    {
      iterations: options.iterations ?? (useClock ? Infinity : ISMCTS_DEFAULT_ITERATIONS),
      deadline: useClock ? { at: options.now!() + options.ms!, now: options.now! } : undefined,
    },
    { exploration: options.exploration ?? DEFAULT_EXPLORATION, rollout: options.rollout ?? 'greedy', expandedAvailability: 0 },
  );

  const better = (a: SearchNode, b: SearchNode) => a.visits > b.visits || (a.visits === b.visits && a.total > b.total);
  let best = root.children[0];
  for (const child of root.children) if (better(child, best)) best = child;
  let bestPlay: SearchNode | null = null;
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
