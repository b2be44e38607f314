/**
 * Swiss pairing, version 1 (tournament logs whose TournamentStarted carries
 * no `pairingVersion`): kept as it was so that the audit recomputes the
 * rounds of those logs exactly. New events pair with version 2 (round-pairing.ts,
 * docs/tournaments.md "Pairing"). Do not change this file's behaviour.
 *
 * 1. rank the active players: match points (descending), then rating
 *    (descending, rated events only), then join order;
 * 2. quick path (topDown): the highest unpaired player meets the nearest
 *    player below who is not a previous opponent and does not share a
 *    non-zero first-seat balance with them (so both stay within one); a dead
 *    end undoes the last choice; with an odd count the bye is a phantom
 *    ranked last that only players without a bye may meet. This finds the
 *    round at once almost always; it gives up after TOP_DOWN_BUDGET steps;
 * 3. otherwise a maximum-weight matching among those that seat everybody
 *    (Edmonds' blossom algorithm, npm `edmonds-blossom-fixed`) over the graph
 *    of possible tables, whole-number weights ordered lexicographically:
 *    first, tables whose seats stay within one; then the smallest score
 *    differences; then the smallest rank distances; the bye edge weighs more
 *    the lower the player's score and rank. The matching is first taken over
 *    players at most NEAR_WINDOW places apart, and over the whole field when
 *    that leaves somebody out or seats somebody two away from balance;
 * 4. seats: the player with the lower balance sits first; at equal balance
 *    the one who sat second in their last game; then the higher-ranked
 *    player when the round number plus the table's index (from 0) is odd;
 * 5. lookahead (seatWithLookahead): step 4's seats stand unless they leave
 *    no rematch-free next round with seats within one; then the tables of two
 *    players at balance 0 are turned to follow a next round chosen now.
 */
import blossom from 'edmonds-blossom-fixed';
import { rankForPairing } from './round-pairing';
import type { PairingPlayer, RoundPairing } from './round-pairing';

/** One Swiss round (round numbers from 1), or null when no pairing avoids a rematch (or a second bye). */
export function pairSwissV1(players: readonly PairingPlayer[], round: number): RoundPairing | null {
  const ranked = rankForPairing(players);
  if (ranked.length < 2) return null;
  const n = ranked.length;
  const odd = n % 2 === 1;
  const met = ranked.map((p) => new Set(p.opponents));
  // Weights, lexicographic (each term outweighs the sum of all the lower ones over a whole round):
  // seats within one, then score distance, then rank distance. Whole numbers: the matching is exact.
  const scoreUnits = (p: PairingPlayer): number => Math.round(p.score * 2);
  const maxScore = Math.max(1, ...ranked.map(scoreUnits));
  const rankW = 1;
  const scoreW = rankW * (n + 1) * (n + 1);
  const seatW = scoreW * (maxScore + 2) * (n + 1);
  const match = (window: number): { tables: [PairingPlayer, PairingPlayer][]; bye: string | null; clashes: number } | null => {
    const edges: [number, number, number][] = [];
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n && j - i <= window; j++) {
        if (met[i].has(ranked[j].id)) continue;
        const a = ranked[i];
        const b = ranked[j];
        const seatsOk = a.balance === 0 || a.balance !== b.balance ? 1 : 0;
        edges.push([i, j, seatW * seatsOk + scoreW * (maxScore + 1 - Math.abs(scoreUnits(a) - scoreUnits(b))) + rankW * (n - (j - i))]);
      }
      // The bye: a phantom vertex n, met only by players without a bye; the lower the score and rank, the heavier.
      if (odd && ranked[i].byes === 0 && n - i <= window) edges.push([i, n, seatW + scoreW * (maxScore + 1 - scoreUnits(ranked[i])) + rankW * i]);
    }
    if (edges.length === 0) return null;
    const mate = blossom(edges, true);
    const tables: [PairingPlayer, PairingPlayer][] = [];
    let bye: string | null = null;
    let clashes = 0;
    for (let i = 0; i < n; i++) {
      const j = mate[i] ?? -1;
      if (j === -1) return null; // someone is left without an opponent or a bye
      if (j === n) bye = ranked[i].id;
      else if (j > i) {
        tables.push([ranked[i], ranked[j]]);
        if (ranked[i].balance !== 0 && ranked[i].balance === ranked[j].balance) clashes++;
      }
    }
    if (odd && bye === null) return null;
    return { tables, bye, clashes };
  };
  // First among near neighbours in the ranking (fast: a sparse graph); the whole field when that seats
  // somebody two away from balance or leaves somebody out.
  const quick = topDown(ranked, met);
  if (quick) return { tables: seatWithLookahead(ranked, quick.tables, quick.bye, round), bye: quick.bye };
  let best = n > NEAR_WINDOW ? match(NEAR_WINDOW) : null;
  if (!best || best.clashes > 0) best = match(n);
  if (!best) return null;
  return { tables: seatWithLookahead(ranked, best.tables, best.bye, round), bye: best.bye };
}

/**
 * Seats a round so that the next one can still keep everybody within one
 * (step 5 of the header). The rule of step 4 decides, unless the balances it
 * leaves admit no rematch-free next round with seats within one; then the
 * tables of two players at balance 0 (the only ones whose seats are free) are
 * turned to follow a rematch-free next round M' chosen now: along the cycles
 * of this round and M', free tables alternate, so both rounds seat within one.
 */
function seatWithLookahead(ranked: PairingPlayer[], pairs: [PairingPlayer, PairingPlayer][], bye: string | null, round: number): [string, string][] {
  const seated = seat(pairs, round);
  if (hasSeatedNextRound(ranked, seated, bye)) return seated;
  const turned = turnFreeTables(ranked, pairs, seated, bye);
  return turned ?? seated;
}

/** The players as the next round would see them after `tables` and `bye`. */
function afterRound(ranked: PairingPlayer[], tables: [string, string][], bye: string | null): PairingPlayer[] {
  const next = new Map(ranked.map((p) => [p.id, { ...p, opponents: [...p.opponents] }]));
  for (const [first, second] of tables) {
    const a = next.get(first)!;
    const b = next.get(second)!;
    a.opponents.push(second);
    b.opponents.push(first);
    a.balance++;
    b.balance--;
    a.lastSeat = 0;
    b.lastSeat = 1;
  }
  if (bye) next.get(bye)!.byes++;
  return ranked.map((p) => next.get(p.id)!);
}

/** Whether a rematch-free round with seats within one (and no second bye) exists after this one. */
function hasSeatedNextRound(ranked: PairingPlayer[], tables: [string, string][], bye: string | null): boolean {
  const next = afterRound(ranked, tables, bye);
  const met = next.map((p) => new Set(p.opponents));
  if (topDown(next, met)) return true;
  const n = next.length;
  const edges: [number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = next[i];
      const b = next[j];
      if (!met[i].has(b.id) && (a.balance === 0 || a.balance !== b.balance)) edges.push([i, j, 1]);
    }
    if (n % 2 === 1 && next[i].byes === 0) edges.push([i, n, 1]);
  }
  const mate = blossom(edges, true);
  for (let i = 0; i < n; i++) if ((mate[i] ?? -1) === -1) return false;
  return true;
}

/**
 * Chooses the free tables' seats from a next round M' (a rematch-free perfect
 * matching of the players as they stand after this round, phantom bye
 * included): each M' table between two players whose next balances are both
 * non-zero must join opposite balances. A free table's two players get
 * opposite balances (+1 for who sits first), so the M' tables give parity
 * constraints between free tables and fix some of them; a union-find with
 * parity solves them. Free tables left unconstrained keep step 4's seats.
 * Returns null when no M' found this way can be seated.
 */
function turnFreeTables(
  ranked: PairingPlayer[],
  pairs: [PairingPlayer, PairingPlayer][],
  seated: [string, string][],
  bye: string | null,
): [string, string][] | null {
  const n = ranked.length;
  const index = new Map(ranked.map((p, i) => [p.id, i]));
  // Next balance of each player: a number when fixed, or [table, sign] when it follows a free table's seats
  // (sign +1: the table's first-listed player of `pairs`).
  const fixed = new Map<number, number>();
  const free = new Map<number, { table: number; sign: 1 | -1 }>();
  pairs.forEach(([hi, lo], table) => {
    const [first, second] = seated[table];
    if (hi.balance === 0 && lo.balance === 0) {
      free.set(index.get(hi.id)!, { table, sign: 1 });
      free.set(index.get(lo.id)!, { table, sign: -1 });
    } else {
      fixed.set(index.get(first)!, ranked[index.get(first)!].balance + 1);
      fixed.set(index.get(second)!, ranked[index.get(second)!].balance - 1);
    }
  });
  if (bye) fixed.set(index.get(bye)!, ranked[index.get(bye)!].balance);
  const after = afterRound(ranked, seated, bye);
  const met = after.map((p) => new Set(p.opponents));
  const edges: [number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (met[i].has(ranked[j].id)) continue;
      const bi = fixed.get(i);
      const bj = fixed.get(j);
      if (bi !== undefined && bj !== undefined && bi !== 0 && bi === bj) continue;
      // Tables that constrain nothing (a player at a fixed 0) weigh more: fewer parity constraints to meet.
      edges.push([i, j, bi === 0 || bj === 0 ? 2 : 1]);
    }
    if (n % 2 === 1 && after[i].byes === 0) edges.push([i, n, 2]);
  }
  const mate = blossom(edges, true);
  for (let i = 0; i < n; i++) if ((mate[i] ?? -1) === -1) return null;
  // Union-find with parity over free tables; node pairs.length stands for "hi sits first is true".
  const truth = pairs.length;
  const parent = Array.from({ length: pairs.length + 1 }, (_, i) => i);
  const parity = new Array<number>(pairs.length + 1).fill(0);
  const find = (x: number): [number, number] => {
    let p = 0;
    let r = x;
    while (parent[r] !== r) {
      p ^= parity[r];
      r = parent[r];
    }
    return [r, p];
  };
  // x_a XOR x_b = want; false on a contradiction.
  const relate = (a: number, b: number, want: number): boolean => {
    const [ra, pa] = find(a);
    const [rb, pb] = find(b);
    if (ra === rb) return (pa ^ pb) === want;
    parent[ra] = rb;
    parity[ra] = pa ^ pb ^ want;
    return true;
  };
  for (let i = 0; i < n; i++) {
    const j = mate[i];
    if (j === undefined || j < i || j === n) continue;
    const fi = free.get(i);
    const fj = free.get(j);
    const bi = fixed.get(i);
    const bj = fixed.get(j);
    if (bi === 0 || bj === 0) continue;
    if (fi && fj) {
      // Opposite balances: sign_i * s_i != sign_j * s_j, with s = +1 when x (hi first) is true.
      if (!relate(fi.table, fj.table, fi.sign === fj.sign ? 1 : 0)) return null;
    } else if (fi || fj) {
      const f = (fi ?? fj)!;
      const other = (bi ?? bj)!;
      // The free player must end at -other: x true gives it balance sign.
      if (!relate(f.table, truth, f.sign === -other ? 0 : 1)) return null;
    }
  }
  const [truthRoot, truthParity] = find(truth);
  const chosen = new Map<number, boolean>();
  return seated.map((tableSeats, table) => {
    const [hi, lo] = pairs[table];
    if (!(hi.balance === 0 && lo.balance === 0)) return tableSeats;
    const [root, p] = find(table);
    let hiFirst: boolean;
    if (root === truthRoot) hiFirst = (p ^ truthParity) === 0;
    else {
      // Unanchored: the component's root keeps step 4's seats, the others follow it.
      if (!chosen.has(root)) {
        const rootHiFirst = root < pairs.length ? seated[root][0] === pairs[root][0].id : true;
        chosen.set(root, rootHiFirst);
      }
      hiFirst = chosen.get(root)! === (p === 0);
    }
    return hiFirst ? [hi.id, lo.id] : [lo.id, hi.id];
  });
}

/** Steps of the top-down search before it gives the round to the matching. */
export const TOP_DOWN_BUDGET = 20_000;

/**
 * The quick path: top-down with backtracking. The highest unpaired player
 * meets the nearest player below who is not a previous opponent and does not
 * share a non-zero balance with them; the last choice is undone at a dead
 * end. The bye is a phantom ranked last (only players without a bye may meet
 * it). Gives up (null) after TOP_DOWN_BUDGET steps.
 */
function topDown(ranked: PairingPlayer[], met: Set<string>[]): { tables: [PairingPlayer, PairingPlayer][]; bye: string | null } | null {
  const n = ranked.length;
  const size = n + (n % 2);
  const used = new Array<boolean>(size).fill(false);
  const pairs: [number, number][] = [];
  let budget = TOP_DOWN_BUDGET;
  const fits = (i: number, j: number): boolean => {
    if (j === n) return ranked[i].byes === 0;
    const a = ranked[i];
    const b = ranked[j];
    return !met[i].has(b.id) && (a.balance === 0 || a.balance !== b.balance);
  };
  const step = (): boolean => {
    if (--budget < 0) return false;
    const i = used.indexOf(false);
    if (i < 0) return true;
    used[i] = true;
    for (let j = i + 1; j < size; j++) {
      if (used[j] || !fits(i, j)) continue;
      used[j] = true;
      pairs.push([i, j]);
      if (step()) return true;
      pairs.pop();
      used[j] = false;
      if (budget < 0) break;
    }
    used[i] = false;
    return false;
  };
  if (!step()) return null;
  const tables: [PairingPlayer, PairingPlayer][] = [];
  let bye: string | null = null;
  for (const [i, j] of pairs) {
    if (j === n) bye = ranked[i].id;
    else tables.push([ranked[i], ranked[j]]);
  }
  return { tables, bye };
}

/** Rank distance of the first, sparse matching attempt. */
export const NEAR_WINDOW = 24;

function seat(pairs: [PairingPlayer, PairingPlayer][], round: number): [string, string][] {
  return pairs.map(([hi, lo], table) => {
    const hiFirst = firstOf(hi, lo, round + table);
    return hiFirst ? [hi.id, lo.id] : [lo.id, hi.id];
  });
}

/** Whether `hi` (the higher-ranked) sits first against `lo` (step 4 of the header); `parity` = round + table index. */
function firstOf(hi: Pick<PairingPlayer, 'balance' | 'lastSeat'>, lo: Pick<PairingPlayer, 'balance' | 'lastSeat'>, parity: number): boolean {
  if (hi.balance !== lo.balance) return hi.balance < lo.balance;
  if (hi.lastSeat !== lo.lastSeat && hi.lastSeat !== null && lo.lastSeat !== null) return hi.lastSeat === 1;
  return parity % 2 === 1;
}
