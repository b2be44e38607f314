/**
 * Tournament pairing: pure and deterministic, so that the audit recomputes
 * every round from the log (docs/tournaments.md "Pairing").
 *
 * Why not the npm package `tournament-pairings`: its Swiss function shuffles
 * the players with Math.random before matching (two runs over the same
 * standings pair differently, so no audit could recompute a round), it is
 * GPL-3.0, and it only weighs against a second bye instead of forbidding it.
 *
 * Swiss (pairSwiss), version 2 (PAIRING_VERSION; logs that name no version
 * pair with version 1, round-pairing-v1.ts): the priorities of the FIDE Dutch
 * system (Handbook C.04.3) with the first seat for the white pieces.
 * 1. rank the active players: match points (descending), then rating
 *    (descending, rated events only), then join order;
 * 2. the best pairing, by these priorities in this order:
 *    a. absolute: never the same two players twice and at most one bye each
 *       (no such table is in the graph at all); no first-seat balance
 *       (first seats minus second seats) beyond ±2 and nobody in the same
 *       seat three games in a row (the fewest players whose seat breaks one
 *       of these: only they give way, when no pairing keeps them);
 *    b. the bye to the lowest-ranked player without one (so the
 *       lowest-scored);
 *    c. the least total score difference over the tables, then the least
 *       sum of squared differences (a floater meets the next score group
 *       rather than one further down);
 *    d. seats: the fewest players denied the seat their balance asks for
 *       (below 0 the first, above 0 the second: so balances stay within one
 *       where they can), then the fewest denied the other seat than last time
 *       (at balance 0);
 *    e. ranks: in each score group the top half meets the bottom half in
 *       order (the Dutch S1 against S2), the rest the nearest below.
 *    The best is a maximum-weight perfect matching (Edmonds' blossom
 *    algorithm, npm `edmonds-blossom-fixed`, a port of Van Rantwijk's
 *    mwmatching; deterministic, O(n³)) over the graph of possible tables (the
 *    bye a phantom vertex joined to the players without one), with
 *    whole-number weights that order the priorities lexicographically (each
 *    tier's multiplier exceeds the most all lower tiers add up to over a
 *    round, and weights stay below 2^50 so that the float arithmetic is
 *    exact; in a field where they would not, the last tiers are dropped).
 *    Fields of more than EXACT_FIELD players are paired in blocks and
 *    certified (pairLarge), else matched whole; a block of at most
 *    SUBSET_MAX players without a bye is matched by dynamic programming over
 *    subsets instead (the same weights, as exact). No perfect matching (a
 *    rematch or a second bye would be needed): no pairing (null), and the
 *    service ends the tournament;
 * 3. seats: each table the better way by 2a and 2d; when both ways are equal,
 *    whoever sat second last time sits first, then the higher-ranked when the
 *    round number plus the table's index (from 0) is odd.
 * With n players (n+1 when odd: the bye is a phantom opponent) and at most
 * n/2 rounds, every player has at least n/2 possible opponents left, so a
 * rematch-free pairing exists (Dirac's theorem gives a Hamiltonian cycle of
 * the "not yet met" graph); maxSwissRounds caps a tournament's rounds at
 * that and at ⌈log₂ n⌉. Within that cap no random event of 2 to 40 players
 * has needed the seat rules to give way (round-pairing.spec.ts; 3,000 events once),
 * so version 2 has no lookahead (version 1 needed one to keep seats within
 * one, a bound it held above scores).
 *
 * Round robin (roundRobinSchedule): the circle method (Berger tables) for up
 * to ROUND_ROBIN_MAX players; an odd count adds a bye slot.
 */
import blossom from 'edmonds-blossom-fixed';

export const ROUND_ROBIN_MAX = 16;

export interface PairingPlayer {
  id: string;
  /** Match points so far. */
  score: number;
  /** Join order (0 = first to join): the last tie-break of the ranking. */
  order: number;
  /** Rating at the start (rated events), else null. */
  rating: number | null;
  /** Ids of the players already met (forfeits included). */
  opponents: readonly string[];
  /** Byes received. */
  byes: number;
  /** First seats minus second seats over the games played. */
  balance: number;
  /** Seat of the last game played (0 first, 1 second), or null. */
  lastSeat: 0 | 1 | null;
  /** Games in a row played in lastSeat (version 2; absent: 1 after a game, 0 before the first). */
  seatRun?: number;
}

export interface RoundPairing {
  /** [first seat, second seat] per table, in table order (ranked). */
  tables: [string, string][];
  bye: string | null;
}

/**
 * The most Swiss rounds a field of `players` plays: ⌈log₂ n⌉ (enough rounds
 * for a single leader by score), and never more than n/2 (n+1 when odd),
 * within which a rematch-free pairing always exists (the header). Past
 * ⌈log₂ n⌉ a pairing that also keeps seats within one stops existing in some
 * events (8 players in a 4th round, about one event in eight).
 */
export function maxSwissRounds(players: number): number {
  const even = players + (players % 2);
  return Math.max(1, Math.min(Math.floor(even / 2), Math.ceil(Math.log2(Math.max(2, players)))));
}

export function rankForPairing(players: readonly PairingPlayer[]): PairingPlayer[] {
  return [...players].sort((a, b) => b.score - a.score || (b.rating ?? 0) - (a.rating ?? 0) || a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The Swiss pairing rules new tournaments record (TournamentStarted.pairingVersion); a log without one pairs with version 1 (round-pairing-v1.ts). */
export const PAIRING_VERSION = 2;

/** No first-seat balance beyond this, either way (an absolute seat rule). */
export const MAX_SEAT_BALANCE = 2;

/** Fields of up to this many players (a bye counts as one) are matched whole. */
export const EXACT_FIELD = 40;

/** Larger fields: tables of players at most this many places apart in the ranking, or from the player's Dutch partner. */
export const SPARSE_WINDOW = 8;

/** Large fields are paired in blocks of at most this many players (pairLarge). */
export const BLOCK = 12;

/** Edge weights stay below this (the blossom's float arithmetic is exact on whole numbers well below 2^53). */
const SAFE_WEIGHT = 2 ** 50;

/** The rank term of one table is capped here (it is the last priority). */
const RANK_CAP = 15;

type Seat = 0 | 1;

/** Games in a row in the last seat. */
function runOf(p: PairingPlayer): number {
  return p.seatRun ?? (p.lastSeat === null ? 0 : 1);
}

/** 1 when sitting `seat` breaks an absolute seat rule: a balance beyond ±2, or a third game in a row in the same seat. */
function breaksSeat(p: PairingPlayer, seat: Seat): number {
  if (seat === 0) return p.balance + 1 > MAX_SEAT_BALANCE || (p.lastSeat === 0 && runOf(p) >= 2) ? 1 : 0;
  return p.balance - 1 < -MAX_SEAT_BALANCE || (p.lastSeat === 1 && runOf(p) >= 2) ? 1 : 0;
}

/**
 * The seat a player's balance asks for: first below 0, second above (a
 * strong preference); at 0 the other seat than last time (a mild one);
 * none before the first game.
 */
export function seatWanted(p: Pick<PairingPlayer, 'balance' | 'lastSeat'>): Seat | null {
  if (p.balance < 0) return 0;
  if (p.balance > 0) return 1;
  return p.lastSeat === null ? null : p.lastSeat === 0 ? 1 : 0;
}

type SeatCost = [absolute: number, strong: number, mild: number];

/** What seating `first` first against `second` costs: absolute rules broken, strong and mild preferences denied. */
function seatCost(first: PairingPlayer, second: PairingPlayer): SeatCost {
  const deniedFirst = seatWanted(first) === 1;
  const deniedSecond = seatWanted(second) === 0;
  return [
    breaksSeat(first, 0) + breaksSeat(second, 1),
    (deniedFirst && first.balance !== 0 ? 1 : 0) + (deniedSecond && second.balance !== 0 ? 1 : 0),
    (deniedFirst && first.balance === 0 ? 1 : 0) + (deniedSecond && second.balance === 0 ? 1 : 0),
  ];
}

/** The better seats at a table of `hi` (higher-ranked) and `lo`: their cost, and whether hi sits first (null: both ways cost the same). */
function bestSeats(hi: PairingPlayer, lo: PairingPlayer): { cost: SeatCost; hiFirst: boolean | null } {
  const a = seatCost(hi, lo);
  const b = seatCost(lo, hi);
  const c = a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  return c < 0 ? { cost: a, hiFirst: true } : c > 0 ? { cost: b, hiFirst: false } : { cost: a, hiFirst: null };
}

/** The players of one round, ranked, with what the weights need. */
interface Field {
  list: PairingPlayer[];
  met: Set<string>[];
  /** Score in whole units (half points when there are draws). */
  units: number[];
  /** Start and size of each player's score group (players of equal score, consecutive in the ranking). */
  groupStart: number[];
  groupSize: number[];
}

function fieldOf(list: PairingPlayer[]): Field {
  const scale = list.every((p) => Number.isInteger(p.score)) ? 1 : 2;
  const units = list.map((p) => Math.round(p.score * scale));
  const groupStart: number[] = [];
  const groupSize: number[] = new Array<number>(list.length).fill(0);
  for (let i = 0; i < list.length; i++) groupStart.push(i > 0 && units[i] === units[i - 1] ? groupStart[i - 1] : i);
  for (let i = 0; i < list.length; i++) groupSize[groupStart[i]]++;
  for (let i = 0; i < list.length; i++) groupSize[i] = groupSize[groupStart[i]];
  return { list, met: list.map((p) => new Set(p.opponents)), units, groupStart, groupSize };
}

/**
 * Score groups of a block (its members, ascending in the ranking): for each
 * member, by position, the start and half size of its run of equal scores.
 */
function groupsOf(f: Field, members: readonly number[]): { start: number[]; half: number[] } {
  const start: number[] = [];
  for (let x = 0; x < members.length; x++) start.push(x > 0 && f.units[members[x]] === f.units[members[x - 1]] ? start[x - 1] : x);
  const size = new Array<number>(members.length).fill(0);
  for (let x = 0; x < members.length; x++) size[start[x]]++;
  return { start, half: start.map((g) => Math.floor(size[g] / 2)) };
}

/**
 * Rank term of a table of the block's members at positions x < y: how far y
 * is from x's Dutch partner. In a score group of s players the top half
 * meets the bottom half in order (x meets x + ⌊s/2⌋); a player of the bottom
 * half (or the odd one out) meets the nearest player below.
 */
function rankCost(g: { start: number[]; half: number[] }, x: number, y: number): number {
  const target = x - g.start[x] < g.half[x] ? g.half[x] : 1;
  return Math.min(RANK_CAP, Math.abs(y - x - target));
}

/** Priorities of one table, highest first (the bye is a table against nobody). */
const TIERS = ['absolute', 'bye', 'scoreDiff', 'scoreGap', 'strongSeat', 'mildSeat', 'rank'] as const;

function tableCost(f: Field, i: number, j: number, rank: number): number[] {
  const d = Math.abs(f.units[i] - f.units[j]);
  const seats = bestSeats(f.list[i], f.list[j]).cost;
  return [seats[0], 0, d, d * d, seats[1], seats[2], rank];
}

interface Solved {
  /** [i, j] with i < j, indices into the field's list. */
  pairs: [number, number][];
  bye: number | null;
  /** Absolute seat rules broken, and the total score difference (in units). */
  absolute: number;
  scoreDiff: number;
}

/**
 * The best pairing of the block `members` (ascending indices of f.list), by
 * a maximum-weight perfect matching (blossom) whose whole-number weights
 * order the priorities lexicographically: each tier's multiplier exceeds the
 * most that all the lower tiers can add up to over a round. With `bye`, a
 * phantom vertex that players without a bye may meet, the lower ranked the
 * better. With `window`, only tables of members near each other or near the
 * Dutch partner (by position in the block). Null when nobody-left-out is
 * impossible (a rematch or a second bye would be needed).
 */
function matchField(f: Field, members: readonly number[], bye: boolean, window: number | null): Solved | null {
  const idx = members;
  const vertices = idx.length + (bye ? 1 : 0);
  if (vertices === 0) return { pairs: [], bye: null, absolute: 0, scoreDiff: 0 };
  const g = groupsOf(f, idx);
  const phantom = idx.length;
  const raw: { a: number; b: number; cost: number[] }[] = [];
  for (let a = 0; a < idx.length; a++) {
    const i = idx[a];
    for (let b = a + 1; b < idx.length; b++) {
      const j = idx[b];
      if (f.met[i].has(f.list[j].id)) continue;
      if (window !== null && b - a > window && (a - g.start[a] >= g.half[a] || Math.abs(b - a - g.half[a]) > window)) continue;
      raw.push({ a, b, cost: tableCost(f, i, j, rankCost(g, a, b)) });
    }
    if (bye && f.list[i].byes === 0) raw.push({ a, b: phantom, cost: [0, f.list.length - 1 - i, 0, 0, 0, 0, 0] });
  }
  if (raw.length === 0) return null;
  const tables = Math.floor(vertices / 2);
  const tiers = TIERS.length;
  const maxEdge = new Array<number>(tiers).fill(0);
  for (const e of raw) for (let k = 0; k < tiers; k++) maxEdge[k] = Math.max(maxEdge[k], e.cost[k]);
  // The most a tier adds up to over a round (the bye: one table); the lowest tiers go when the product would not stay exact.
  const range = maxEdge.map((m, k) => (TIERS[k] === 'bye' ? m : m * tables) + 1);
  let used = tiers;
  const product = (upTo: number): number => range.slice(0, upTo).reduce((p, r) => p * r, 1);
  while (used > 3 && product(used) > SAFE_WEIGHT) used--;
  const mult = new Array<number>(tiers).fill(0);
  let m = 1;
  for (let k = used - 1; k >= 0; k--) {
    mult[k] = m;
    m *= range[k];
  }
  const weigh = (cost: number[]): number => cost.reduce((s, c, k) => s + c * mult[k], 0);
  const mate = bye || vertices > SUBSET_MAX ? byBlossom(raw, weigh) : bySubsets(vertices, raw, weigh);
  const pairs: [number, number][] = [];
  let byeAt: number | null = null;
  let absolute = 0;
  let scoreDiff = 0;
  for (let a = 0; a < vertices; a++) {
    const b = mate[a] ?? -1;
    if (b === -1) return null;
    if (a === phantom || b < a) continue;
    if (b === phantom) {
      byeAt = idx[a];
      continue;
    }
    const [i, j] = [idx[a], idx[b]];
    pairs.push([i, j]);
    const cost = tableCost(f, i, j, 0);
    absolute += cost[0];
    scoreDiff += cost[2];
  }
  if (bye && byeAt === null) return null;
  return { pairs, bye: byeAt, absolute, scoreDiff };
}

/** Mates (-1: none) by the maximum-weight matching of maximum cardinality: the least total cost among the perfect matchings when there is one. */
function byBlossom(raw: { a: number; b: number; cost: number[] }[], weigh: (cost: number[]) => number): number[] {
  const top = raw.reduce((w, e) => Math.max(w, weigh(e.cost)), 0) + 1;
  return blossom(
    raw.map((e): [number, number, number] => [e.a, e.b, top - weigh(e.cost)]),
    true,
  );
}

/** Blocks of at most this many players are matched by subsets instead of the blossom (as exact; faster on a dozen players). */
export const SUBSET_MAX = 12;

/**
 * Mates (-1: none) of the least-cost perfect matching, by dynamic programming
 * over subsets: best(S) pairs S's lowest vertex with each other vertex of S
 * it has a table with, plus best of the rest (2^n · n steps). Ties go to the
 * first partner in order, so the result is deterministic.
 */
function bySubsets(n: number, raw: { a: number; b: number; cost: number[] }[], weigh: (cost: number[]) => number): number[] {
  const cost: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(Infinity));
  for (const e of raw) cost[e.a][e.b] = cost[e.b][e.a] = weigh(e.cost);
  const size = 1 << n;
  const best = new Float64Array(size).fill(Infinity);
  const partner = new Int8Array(size).fill(-1);
  best[0] = 0;
  for (let set = 1; set < size; set++) {
    let i = 0;
    while (!(set & (1 << i))) i++;
    const rest = set ^ (1 << i);
    for (let j = i + 1; j < n; j++) {
      if (!(rest & (1 << j)) || cost[i][j] === Infinity) continue;
      const total = cost[i][j] + best[rest ^ (1 << j)];
      if (total < best[set]) {
        best[set] = total;
        partner[set] = j;
      }
    }
  }
  const mate = new Array<number>(n).fill(-1);
  if (best[size - 1] === Infinity) return mate;
  for (let set = size - 1; set;) {
    let i = 0;
    while (!(set & (1 << i))) i++;
    const j = partner[set];
    mate[i] = j;
    mate[j] = i;
    set ^= (1 << i) | (1 << j);
  }
  return mate;
}

/**
 * Large fields (more than EXACT_FIELD players): independent blocks and a
 * certificate, else null (the caller matches the whole field). The bye goes
 * to the lowest-ranked player without one.
 *
 * The bound. A player whose balance or seat run leaves them only the first
 * seat (or only the second) needs an opponent who can take the other. Every
 * pairing's total score difference is the sum, over the positions between
 * consecutive players of the ranking, of the score gap there times the tables
 * that cross it; without breaking a seat rule, at least r tables cross, r the
 * largest of: the parity of the number above; how many more players above
 * (or below) need the first seat than may take the second; the same for the
 * second seat. So the total is at least LB, the sum of gap × r.
 *
 * The blocks. Where r is 0 at an even position the best pairings need no
 * table across, so the field is cut there (between score groups, or inside
 * one) into segments of at most BLOCK players where it can be. A longer
 * segment (a score group whose players all need one seat, say) is dealt into
 * blocks of at most BLOCK by slicing each kind of player (first seat only,
 * second seat only, either) in rank order. Each block is matched exactly (or,
 * a block of one score group, paired in the Dutch order when that costs
 * nothing at any priority); a segment whose blocks fail is matched whole over
 * tables of near players (SPARSE_WINDOW); a segment that cannot be paired
 * alone within the absolute rules is joined to its neighbour across the
 * smaller gap.
 *
 * The certificate. The pairing stands when it breaks no absolute rule and
 * its total score difference is LB plus the least that crossing the cuts
 * around the segments proved unpairable alone must add (twice the gap of one
 * of each one's cuts): then no pairing is better at the absolute rules, the
 * bye or the total score difference; seats and ranks are the best within each
 * block.
 */
function pairLarge(ranked: PairingPlayer[]): { f: Field; solved: Solved; bye: string | null } | null {
  let bye: string | null = null;
  let list = ranked;
  if (ranked.length % 2 === 1) {
    const at = ranked.map((p) => p.byes).lastIndexOf(0);
    if (at < 0) return null;
    bye = ranked[at].id;
    list = ranked.filter((_, i) => i !== at);
  }
  const f = fieldOf(list);
  const L = list.length;
  const firstOnly = list.map((p) => breaksSeat(p, 1) === 1);
  const secondOnly = list.map((p) => breaksSeat(p, 0) === 1);
  if (firstOnly.some((x, i) => x && secondOnly[i])) return null;
  const gapAbove = (k: number): number => f.units[k - 1] - f.units[k];
  // r at each position k (between k-1 and k): the tables that must cross it.
  const totalFirst = firstOnly.filter(Boolean).length;
  const totalSecond = secondOnly.filter(Boolean).length;
  let lb = 0;
  const free: number[] = [];
  let fa = 0;
  let sa = 0;
  for (let k = 1; k < L; k++) {
    if (firstOnly[k - 1]) fa++;
    if (secondOnly[k - 1]) sa++;
    const below = L - k;
    const r = Math.max(k % 2, 2 * fa - k, 2 * sa - k, 2 * (totalFirst - fa) - below, 2 * (totalSecond - sa) - below);
    lb += gapAbove(k) * r;
    if (r === 0) free.push(k);
  }
  // Segments: cut at positions of r = 0, as few as keep segments within BLOCK where the cuts allow.
  const cuts: number[] = [];
  let start = 0;
  for (let c = 0; c < free.length; c++) {
    const next = c + 1 < free.length ? free[c + 1] : L;
    if (next - start > BLOCK || f.units[free[c] - 1] !== f.units[free[c]]) {
      cuts.push(free[c]);
      start = free[c];
    }
  }
  const range = (lo: number, hi: number): number[] => Array.from({ length: hi - lo }, (_, x) => lo + x);
  const ok = (s: Solved | null): s is Solved => s !== null && s.absolute === 0;
  const exact = (members: number[]): Solved | null => {
    const ideal = dutchOrder(f, members);
    return ideal ? { pairs: ideal, bye: null, absolute: 0, scoreDiff: 0 } : matchField(f, members, false, null);
  };
  const solve = (lo: number, hi: number): Solved | null => {
    if (hi - lo <= BLOCK) return exact(range(lo, hi));
    const parts = dealt(range(lo, hi), firstOnly, secondOnly);
    if (parts) {
      const solved = parts.map(exact);
      if (solved.every(ok)) return { pairs: solved.flatMap((s) => s.pairs), bye: null, absolute: 0, scoreDiff: solved.reduce((t, s) => t + s.scoreDiff, 0) };
    }
    return matchField(f, range(lo, hi), false, hi - lo > EXACT_FIELD ? SPARSE_WINDOW : null);
  };
  const edges = [0, ...cuts, L];
  // Whether each segment can be paired alone (false only where the exact matching proves it cannot).
  const alone: boolean[] = [];
  let segments: { lo: number; hi: number; solved: Solved | null }[] = [];
  for (let s = 0; s + 1 < edges.length; s++) {
    const [lo, hi] = [edges[s], edges[s + 1]];
    const solved = solve(lo, hi);
    alone.push(ok(solved) || hi - lo > EXACT_FIELD || ok(matchField(f, range(lo, hi), false, null)));
    segments.push({ lo, hi, solved });
  }
  for (;;) {
    const b = segments.findIndex((x) => !ok(x.solved));
    if (b < 0) break;
    if (segments.length === 1) return null;
    const up = b > 0 ? gapAbove(segments[b].lo) : Infinity;
    const down = b + 1 < segments.length ? gapAbove(segments[b].hi) : Infinity;
    const [x, y] = down <= up ? [b, b + 1] : [b - 1, b];
    const [lo, hi] = [segments[x].lo, segments[y].hi];
    segments = [...segments.slice(0, x), { lo, hi, solved: solve(lo, hi) }, ...segments.slice(y + 1)];
  }
  // The least the crossings add: a cheapest set of cuts that includes a cut of each segment proved unpairable alone.
  let chosen = Infinity;
  let skipped = 0;
  for (let c = 0; c < cuts.length; c++) {
    const w = 2 * gapAbove(cuts[c]);
    [chosen, skipped] = [Math.min(chosen, skipped) + w, alone[c] ? Math.min(chosen, skipped) : chosen];
  }
  const extra = alone[alone.length - 1] ? Math.min(chosen, skipped) : chosen;
  const scoreDiff = segments.reduce((t, x) => t + x.solved!.scoreDiff, 0);
  if (scoreDiff !== lb + extra) return null;
  return { f, solved: { pairs: segments.flatMap((x) => x.solved!.pairs), bye: null, absolute: 0, scoreDiff }, bye };
}

/**
 * A long segment dealt into blocks of at most BLOCK players (an even number
 * each): each kind of player (first seat only, second seat only, either) is
 * sliced in rank order, block q taking the q-th slice of each. Null when the
 * slices cannot make even blocks.
 */
function dealt(members: number[], firstOnly: boolean[], secondOnly: boolean[]): number[][] | null {
  const kinds = [members.filter((i) => firstOnly[i]), members.filter((i) => secondOnly[i]), members.filter((i) => !firstOnly[i] && !secondOnly[i])];
  const q = Math.ceil(members.length / BLOCK);
  const blocks: number[][] = [];
  const taken = [0, 0, 0];
  for (let p = 1; p <= q; p++) {
    const target = p === q ? members.length : 2 * Math.round((members.length * p) / q / 2);
    const ends = [Math.round((kinds[0].length * p) / q), Math.round((kinds[1].length * p) / q), 0];
    ends[2] = target - ends[0] - ends[1];
    if (ends[2] < taken[2] || ends[2] > kinds[2].length) return null;
    blocks.push(kinds.flatMap((k, x) => k.slice(taken[x], ends[x])).sort((a, b) => a - b));
    for (let x = 0; x < 3; x++) taken[x] = ends[x];
  }
  return blocks.every((b) => b.length % 2 === 0) ? blocks : null;
}

/** A block of one score group paired top half against bottom half, when every table of it costs nothing (so no pairing is better); else null. */
function dutchOrder(f: Field, members: readonly number[]): [number, number][] | null {
  if (members.length === 0) return [];
  if (f.units[members[0]] !== f.units[members[members.length - 1]]) return null;
  const half = members.length / 2;
  const pairs: [number, number][] = [];
  for (let x = 0; x < half; x++) {
    const [i, j] = [members[x], members[x + half]];
    if (f.met[i].has(f.list[j].id) || tableCost(f, i, j, 0).some((c) => c !== 0)) return null;
    pairs.push([i, j]);
  }
  return pairs;
}

/** One Swiss round (round numbers from 1), or null when no pairing avoids a rematch (or a second bye). Version 2: the header. */
export function pairSwiss(players: readonly PairingPlayer[], round: number): RoundPairing | null {
  const ranked = rankForPairing(players);
  if (ranked.length < 2) return null;
  let found = ranked.length + (ranked.length % 2) > EXACT_FIELD ? pairLarge(ranked) : null;
  if (!found) {
    const f = fieldOf(ranked);
    const solved = matchField(
      f,
      ranked.map((_, i) => i),
      ranked.length % 2 === 1,
      null,
    );
    if (!solved) return null;
    found = { f, solved, bye: solved.bye === null ? null : ranked[solved.bye].id };
  }
  const { f, solved, bye } = found;
  const tables = [...solved.pairs]
    .sort((x, y) => x[0] - y[0])
    .map(([i, j], table): [string, string] => {
      const [hi, lo] = [f.list[i], f.list[j]];
      const hiFirst = bestSeats(hi, lo).hiFirst ?? firstOf(hi, lo, round + table);
      return hiFirst ? [hi.id, lo.id] : [lo.id, hi.id];
    });
  return { tables, bye };
}

/** At a table where both seatings cost the same: whoever sat second last time sits first, else the higher-ranked when round + table index is odd. */
function firstOf(hi: PairingPlayer, lo: PairingPlayer, parity: number): boolean {
  if (hi.lastSeat !== lo.lastSeat && hi.lastSeat !== null && lo.lastSeat !== null) return hi.lastSeat === 1;
  return parity % 2 === 1;
}

/**
 * Round robin by the circle method: players in join order fill slots 0..m-1
 * (m = n, or n+1 with a bye slot, null, last); round r (from 1) seats the
 * fixed last slot against ring slot r-1, and ring slots (r-1+k) and
 * (r-1-k) mod (m-1) against each other for k = 1 .. m/2-1. Seats: between
 * ring slots i and j, i sits first when (j - i) mod (m-1) is in 1 .. (m-2)/2
 * (each ring player sits first in exactly half of its ring games); against
 * the fixed slot, ring slot i sits second when i < (m-1)/2. So every
 * player's first seats are within one of their second seats.
 */
export function roundRobinSchedule(ids: readonly string[]): RoundPairing[] {
  if (ids.length < 2 || ids.length > ROUND_ROBIN_MAX) throw new RangeError(`a round robin has 2 to ${ROUND_ROBIN_MAX} players`);
  const slots: (string | null)[] = [...ids];
  if (slots.length % 2 === 1) slots.push(null);
  const m = slots.length;
  const ring = m - 1;
  const fixed = slots[m - 1];
  const rounds: RoundPairing[] = [];
  for (let r = 0; r < ring; r++) {
    const pairs: [number, number | 'fixed'][] = [[r, 'fixed']];
    for (let k = 1; k < m / 2; k++) pairs.push([(r + k) % ring, (r - k + ring) % ring]);
    const tables: [string, string][] = [];
    let bye: string | null = null;
    for (const [i, j] of pairs) {
      const a = slots[i];
      const b = j === 'fixed' ? fixed : slots[j];
      if (a === null || b === null) {
        bye = a ?? b;
        continue;
      }
      const aFirst = j === 'fixed' ? i >= (m - 1) / 2 : (((j - i) % ring) + ring) % ring <= (m - 2) / 2;
      tables.push(aFirst ? [a, b] : [b, a]);
    }
    rounds.push({ tables, bye });
  }
  return rounds;
}

/** Rounds of a round robin of `players`. */
export function roundRobinRounds(players: number): number {
  return players % 2 === 0 ? players - 1 : players;
}
