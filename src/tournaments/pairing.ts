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
 * pair with version 1, pairing-v1.ts): the priorities of the FIDE Dutch
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
 *    certified (pairLarge), else matched whole. No perfect matching (a
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
 * has needed the seat rules to give way (pairing.spec.ts; 3,000 events once),
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
  return [...players].sort(
    (a, b) => b.score - a.score || (b.rating ?? 0) - (a.rating ?? 0) || a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** The Swiss pairing rules new tournaments record (TournamentStarted.pairingVersion); a log without one pairs with version 1 (pairing-v1.ts). */
export const PAIRING_VERSION = 2;

/** No first-seat balance beyond this, either way (an absolute seat rule). */
export const MAX_SEAT_BALANCE = 2;

/** Fields of up to this many players (a bye counts as one) are matched whole. */
export const EXACT_FIELD = 40;

/** Larger fields: tables of players at most this many places apart in the ranking, or from the player's Dutch partner. */
export const SPARSE_WINDOW = 8;

/** Large fields are paired in blocks of at most this many players (pairLarge). */
export const BLOCK = 16;

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
 * Rank term of a table i < j: how far j is from i's Dutch partner. In a
 * score group of s players the top half meets the bottom half in order
 * (i meets i + ⌊s/2⌋); a player of the bottom half (or the odd one out)
 * meets the nearest player below.
 */
function rankCost(f: Field, i: number, j: number, block: Block): number {
  const { start, half } = groupIn(f, i, block);
  const target = i - start < half ? half : 1;
  return Math.min(RANK_CAP, Math.abs(j - i - target));
}

/** Players lo .. hi-1 of the ranking, paired alone. */
type Block = { lo: number; hi: number };

/** Start and half size of i's score group, within the block. */
function groupIn(f: Field, i: number, block: Block): { start: number; half: number } {
  const start = Math.max(f.groupStart[i], block.lo);
  const end = Math.min(f.groupStart[i] + f.groupSize[i], block.hi);
  return { start, half: Math.floor((end - start) / 2) };
}

/** Priorities of one table, highest first (the bye is a table against nobody). */
const TIERS = ['absolute', 'bye', 'scoreDiff', 'scoreGap', 'strongSeat', 'mildSeat', 'rank'] as const;

function tableCost(f: Field, i: number, j: number, block: Block): number[] {
  const d = Math.abs(f.units[i] - f.units[j]);
  const seats = bestSeats(f.list[i], f.list[j]).cost;
  return [seats[0], 0, d, d * d, seats[1], seats[2], rankCost(f, i, j, block)];
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
 * The best pairing of the players `idx` (ascending indices of f.list), by a
 * maximum-weight perfect matching (blossom) whose whole-number weights order
 * the priorities lexicographically: each tier's multiplier exceeds the most
 * that all the lower tiers can add up to over a round. With `bye`, a phantom
 * vertex that players without a bye may meet, the lower ranked the better.
 * With `window`, only tables of players near each other or near the Dutch
 * partner. Null when nobody-left-out is impossible (a rematch or a second
 * bye would be needed).
 */
function matchField(f: Field, block: Block, bye: boolean, window: number | null): Solved | null {
  const idx = Array.from({ length: block.hi - block.lo }, (_, x) => block.lo + x);
  const vertices = idx.length + (bye ? 1 : 0);
  if (vertices === 0) return { pairs: [], bye: null, absolute: 0, scoreDiff: 0 };
  const phantom = idx.length;
  const raw: { a: number; b: number; cost: number[] }[] = [];
  for (let a = 0; a < idx.length; a++) {
    const i = idx[a];
    for (let b = a + 1; b < idx.length; b++) {
      const j = idx[b];
      if (f.met[i].has(f.list[j].id)) continue;
      if (window !== null && j - i > window) {
        const { start, half } = groupIn(f, i, block);
        if (i - start >= half || Math.abs(j - i - half) > window) continue;
      }
      raw.push({ a, b, cost: tableCost(f, i, j, block) });
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
  const top = raw.reduce((w, e) => Math.max(w, e.cost.reduce((s, c, k) => s + c * mult[k], 0)), 0) + 1;
  const edges: [number, number, number][] = raw.map((e) => [e.a, e.b, top - e.cost.reduce((s, c, k) => s + c * mult[k], 0)]);
  const mate = blossom(edges, true);
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
    const cost = tableCost(f, i, j, block);
    absolute += cost[0];
    scoreDiff += cost[2];
  }
  if (bye && byeAt === null) return null;
  return { pairs, bye: byeAt, absolute, scoreDiff };
}

/**
 * Large fields (more than EXACT_FIELD players): independent blocks and a
 * certificate, else null (the caller matches the whole field). The bye goes
 * to the lowest-ranked player without one.
 *
 * Every pairing's total score difference is the sum, over the gaps between
 * consecutive players of the ranking, of the gap times the tables that cross
 * it; a gap with an odd number of players above it is crossed at least once,
 * one with an even number not at all or at least twice. So the total is at
 * least LB, the sum of the odd gaps, and the field can be cut at any even
 * position (a score gap, or inside a score group) into blocks of at most
 * BLOCK players, each paired alone by the exact matching (or, a block of one
 * score group, in the Dutch order when that costs nothing at any priority).
 * A block that cannot be paired alone without breaking an absolute rule is
 * joined to its neighbour across the smaller gap and the joined block paired
 * again (over tables of near players, SPARSE_WINDOW, when it outgrows
 * EXACT_FIELD). The pairing stands when it breaks no absolute rule and its
 * total score difference is LB plus the least that crossing the cuts around
 * the blocks that could not be paired alone must add (twice the gap of one
 * of each such block's cuts): then no pairing is better at the absolute
 * rules, the bye or the total score difference; seats and ranks are the best
 * within each block.
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
  const gapAbove = (k: number): number => f.units[k - 1] - f.units[k];
  let lb = 0;
  // Cuts: the even score gaps, and more inside long stretches so that no block exceeds BLOCK.
  const cuts: number[] = [];
  let last = 0;
  const split = (end: number): void => {
    const parts = Math.ceil((end - last) / BLOCK);
    for (let q = 1; q < parts; q++) cuts.push(last + 2 * Math.round(((end - last) / 2) * (q / parts)));
    if (end < L) cuts.push(end);
    last = end;
  };
  for (let k = 1; k < L; k++) {
    if (f.units[k] === f.units[k - 1]) continue;
    if (k % 2 === 1) lb += gapAbove(k);
    else split(k);
  }
  split(L);
  const solve = (block: Block): Solved | null => {
    const ideal = dutchOrder(f, block);
    if (ideal) return { pairs: ideal, bye: null, absolute: 0, scoreDiff: 0 };
    return matchField(f, block, false, block.hi - block.lo > EXACT_FIELD ? SPARSE_WINDOW : null);
  };
  const ok = (s: Solved | null): s is Solved => s !== null && s.absolute === 0;
  const edges = [0, ...cuts, L];
  // Whether each first block can be paired alone (the exact matching proves it cannot).
  const alone: boolean[] = [];
  let blocks: (Block & { solved: Solved | null })[] = [];
  for (let s = 0; s + 1 < edges.length; s++) {
    const block = { lo: edges[s], hi: edges[s + 1] };
    const solved = solve(block);
    alone.push(ok(solved));
    blocks.push({ ...block, solved });
  }
  for (;;) {
    const b = blocks.findIndex((x) => !ok(x.solved));
    if (b < 0) break;
    if (blocks.length === 1) return null;
    const up = b > 0 ? gapAbove(blocks[b].lo) : Infinity;
    const down = b + 1 < blocks.length ? gapAbove(blocks[b].hi) : Infinity;
    const [x, y] = down <= up ? [b, b + 1] : [b - 1, b];
    const block = { lo: blocks[x].lo, hi: blocks[y].hi };
    blocks = [...blocks.slice(0, x), { ...block, solved: solve(block) }, ...blocks.slice(y + 1)];
  }
  // The least the crossings add: a cheapest set of cuts that includes a cut of each block that cannot be paired alone.
  let chosen = Infinity;
  let skipped = 0;
  for (let c = 0; c < cuts.length; c++) {
    const w = 2 * gapAbove(cuts[c]);
    [chosen, skipped] = [Math.min(chosen, skipped) + w, alone[c] ? Math.min(chosen, skipped) : chosen];
  }
  const extra = alone[alone.length - 1] ? Math.min(chosen, skipped) : chosen;
  const scoreDiff = blocks.reduce((t, x) => t + x.solved!.scoreDiff, 0);
  if (scoreDiff !== lb + extra) return null;
  return { f, solved: { pairs: blocks.flatMap((x) => x.solved!.pairs), bye: null, absolute: 0, scoreDiff }, bye };
}

/** A block of one score group paired top half against bottom half, when every table of it costs nothing (so no pairing is better); else null. */
function dutchOrder(f: Field, block: Block): [number, number][] | null {
  const size = block.hi - block.lo;
  if (size === 0) return [];
  if (f.units[block.lo] !== f.units[block.hi - 1]) return null;
  const half = size / 2;
  const pairs: [number, number][] = [];
  for (let i = block.lo; i < block.lo + half; i++) {
    if (f.met[i].has(f.list[i + half].id) || tableCost(f, i, i + half, block).some((c) => c !== 0)) return null;
    pairs.push([i, i + half]);
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
    const solved = matchField(f, { lo: 0, hi: ranked.length }, ranked.length % 2 === 1, null);
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
