import blossom from 'edmonds-blossom-fixed';
import fc from 'fast-check';
import { EXACT_FIELD, maxSwissRounds, pairSwiss, roundRobinRounds, roundRobinSchedule, ROUND_ROBIN_MAX } from './round-pairing';
import type { PairingPlayer, RoundPairing } from './round-pairing';
import { pairSwissV1 } from './round-pairing-v1';

interface Sim {
  id: string;
  score: number;
  opponents: string[];
  byes: number;
  firsts: number;
  seconds: number;
  lastSeat: 0 | 1 | null;
  /** Every seat so far, in order (0 first, 1 second). */
  seats: (0 | 1)[];
}

type Pair = (players: readonly PairingPlayer[], round: number) => RoundPairing | null;

/**
 * Plays a Swiss of `n` players over `rounds` rounds with results drawn from `results` (0 first wins, 1 second, 2 draw),
 * paired by `pair` (the current version unless told); `check` sees each round's standings (before it) and pairing.
 */
function simulateSwiss(
  n: number,
  rounds: number,
  results: number[],
  pair: Pair = pairSwiss,
  check?: (before: Sim[], pairing: RoundPairing, round: number) => void,
) {
  const players: Sim[] = Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    score: 0,
    opponents: [],
    byes: 0,
    firsts: 0,
    seconds: 0,
    lastSeat: null,
    seats: [],
  }));
  const byId = new Map(players.map((p) => [p.id, p]));
  const pairs = new Set<string>();
  let k = 0;
  const log: { round: number; tables: [string, string][]; bye: string | null }[] = [];
  for (let round = 1; round <= rounds; round++) {
    const input: PairingPlayer[] = players.map((p, order) => ({
      id: p.id,
      score: p.score,
      order,
      rating: null,
      opponents: p.opponents,
      byes: p.byes,
      balance: p.firsts - p.seconds,
      lastSeat: p.lastSeat,
      seatRun: runOf(p.seats),
    }));
    const pairing = pair(input, round);
    if (!pairing) throw new Error(`no pairing for ${n} players in round ${round}`);
    check?.(
      players.map((p) => ({ ...p, opponents: [...p.opponents], seats: [...p.seats] })),
      pairing,
      round,
    );
    log.push({ round, ...pairing });
    const seen = new Set<string>();
    for (const [a, b] of pairing.tables) {
      for (const id of [a, b]) {
        if (seen.has(id)) throw new Error(`${id} twice in round ${round}`);
        seen.add(id);
      }
      const key = [a, b].sort().join('-');
      if (pairs.has(key)) throw new Error(`rematch ${key} in round ${round}`);
      pairs.add(key);
      const pa = byId.get(a)!;
      const pb = byId.get(b)!;
      pa.opponents.push(b);
      pb.opponents.push(a);
      pa.firsts++;
      pb.seconds++;
      pa.lastSeat = 0;
      pb.lastSeat = 1;
      pa.seats.push(0);
      pb.seats.push(1);
      const r = results[k++ % results.length];
      if (r === 0) pa.score += 1;
      else if (r === 1) pb.score += 1;
      else {
        pa.score += 0.5;
        pb.score += 0.5;
      }
    }
    if (pairing.bye) {
      if (seen.has(pairing.bye)) throw new Error('the bye is also at a table');
      seen.add(pairing.bye);
      byId.get(pairing.bye)!.byes++;
      byId.get(pairing.bye)!.score += 1;
    }
    if (seen.size !== n) throw new Error(`round ${round} left out ${n - seen.size} players`);
  }
  return { players, log };
}

/** Games in a row in the last seat. */
function runOf(seats: readonly (0 | 1)[]): number {
  let k = 0;
  while (k < seats.length && seats[seats.length - 1 - k] === seats[seats.length - 1]) k++;
  return k;
}

// ---------------------------------------------------------------- an independent reference for one round
// Written from the rules of docs/tournaments.md "Pairing", not from round-pairing.ts: a player's seat this round
// breaks a seat rule when it takes their balance beyond ±2 (further from 0) or makes a third game in a row in
// the same seat. Among the pairings without a rematch or a second bye, the best is the least by
// (seat rules broken, the bye's rank counted from the bottom, the total score difference in half points).

/** Whether sitting `seat` now breaks a seat rule for `p`. */
function breaks(p: Sim, seat: 0 | 1): number {
  const seats = [...p.seats, seat];
  const balance = (s: readonly (0 | 1)[]) => s.filter((x) => x === 0).length - s.filter((x) => x === 1).length;
  const k = seats.length;
  const third = k >= 3 && seats[k - 1] === seats[k - 2] && seats[k - 2] === seats[k - 3];
  return Math.abs(balance(seats)) > 2 && Math.abs(balance(seats)) > Math.abs(balance(p.seats)) ? 1 : third ? 1 : 0;
}

const half = (p: Sim) => Math.round(p.score * 2);

/** The standings order: score (descending), then join order (the ids are p0, p1, ... in join order). */
function standingsOrder(players: readonly Sim[]): Sim[] {
  return [...players].sort((a, b) => b.score - a.score || Number(a.id.slice(1)) - Number(b.id.slice(1)));
}

type Key = [broken: number, byeFromBottom: number, scoreDiff: number];
const less = (a: Key, b: Key) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The key of a pairing as played: its seats as given. */
function keyOf(before: readonly Sim[], pairing: RoundPairing): Key {
  const byId = new Map(before.map((p) => [p.id, p]));
  const order = standingsOrder(before);
  let broken = 0;
  let diff = 0;
  for (const [a, b] of pairing.tables) {
    broken += breaks(byId.get(a)!, 0) + breaks(byId.get(b)!, 1);
    diff += Math.abs(half(byId.get(a)!) - half(byId.get(b)!));
  }
  const bye = pairing.bye === null ? 0 : order.length - 1 - order.findIndex((p) => p.id === pairing.bye);
  return [broken, bye, diff];
}

/** The least a table of a and b must break (the better of its two seatings). */
const tableBroken = (a: Sim, b: Sim) => Math.min(breaks(a, 0) + breaks(b, 1), breaks(b, 0) + breaks(a, 1));

/** The best key by trying every pairing (small fields). */
function bestByExhaustiveSearch(before: readonly Sim[]): Key | null {
  const order = standingsOrder(before);
  const n = order.length;
  const used = new Array<boolean>(n).fill(false);
  let best: Key | null = null;
  const go = (broken: number, bye: number | null, diff: number): void => {
    const i = used.indexOf(false);
    if (i < 0) {
      if (n % 2 === 1 && bye === null) return;
      const key: Key = [broken, bye ?? 0, diff];
      if (!best || less(key, best) < 0) best = key;
      return;
    }
    used[i] = true;
    if (n % 2 === 1 && bye === null && order[i].byes === 0) go(broken, n - 1 - i, diff);
    for (let j = i + 1; j < n; j++) {
      if (used[j] || order[i].opponents.includes(order[j].id)) continue;
      used[j] = true;
      go(broken + tableBroken(order[i], order[j]), bye, diff + Math.abs(half(order[i]) - half(order[j])));
      used[j] = false;
    }
    used[i] = false;
  };
  go(0, null, 0);
  return best;
}

/** The best key by a minimum-cost perfect matching of this test's own weighting (larger fields). */
function bestByMatching(before: readonly Sim[]): Key | null {
  const order = standingsOrder(before);
  const n = order.length;
  const tables = Math.ceil(n / 2);
  const maxDiff = Math.max(...order.map(half)) - Math.min(...order.map(half));
  const byeUnit = tables * maxDiff + 1; // above any total score difference
  const brokenUnit = byeUnit * n; // above any bye rank (0 .. n-1) plus a total score difference
  const edges: [number, number, number][] = [];
  const top = brokenUnit * (2 * tables + 1);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (order[i].opponents.includes(order[j].id)) continue;
      const cost = brokenUnit * tableBroken(order[i], order[j]) + Math.abs(half(order[i]) - half(order[j]));
      edges.push([i, j, top - cost]);
    }
    if (n % 2 === 1 && order[i].byes === 0) edges.push([i, n, top - byeUnit * (n - 1 - i)]);
  }
  if (!edges.length) return null;
  expect(top * (tables + 1)).toBeLessThan(2 ** 52);
  const mate = blossom(edges, true);
  const key: Key = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const j = mate[i] ?? -1;
    if (j === -1) return null;
    if (j === n) key[1] = n - 1 - i;
    else if (j > i) {
      key[0] += tableBroken(order[i], order[j]);
      key[2] += Math.abs(half(order[i]) - half(order[j]));
    }
  }
  if (n % 2 === 1 && (mate[n] ?? -1) === -1) return null;
  return key;
}

/** (a) no rematch, no second bye, everybody once; (b)+(c) the key is the best there is. */
function checkRound(before: Sim[], pairing: RoundPairing): void {
  const byId = new Map(before.map((p) => [p.id, p]));
  const seen = new Set<string>();
  for (const [a, b] of pairing.tables) {
    expect(byId.get(a)!.opponents).not.toContain(b);
    seen.add(a);
    seen.add(b);
  }
  if (pairing.bye) {
    expect(byId.get(pairing.bye)!.byes).toBe(0);
    seen.add(pairing.bye);
  }
  expect(seen.size).toBe(before.length);
  const best = before.length <= 12 ? bestByExhaustiveSearch(before) : bestByMatching(before);
  expect(keyOf(before, pairing)).toEqual(best);
}

describe('Swiss pairing', () => {
  it('never repeats a pair or gives a second bye, keeps seats within ±2 and no three in a row, with the least total score difference (property, 2 to 40 players)', () => {
    let relaxed = 0;
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 64 }), (n, results) => {
        const { players } = simulateSwiss(n, maxSwissRounds(n), results, pairSwiss, (before, pairing) => {
          checkRound(before, pairing);
          if (keyOf(before, pairing)[0] > 0) relaxed++;
        });
        for (const p of players) {
          expect(p.byes).toBeLessThanOrEqual(1);
          expect(new Set(p.opponents).size).toBe(p.opponents.length);
        }
      }),
      { numRuns: 150 },
    );
    // Within the round cap no random event has needed the documented relaxation of the seat rules.
    expect(relaxed).toBe(0);
  });

  it('pairs large fields (the blocks and their certificate) as well as the whole-field matching would (41 to 120 players)', () => {
    expect(EXACT_FIELD).toBeLessThan(41);
    fc.assert(
      fc.property(fc.integer({ min: 41, max: 120 }), fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 64 }), (n, results) => {
        simulateSwiss(n, maxSwissRounds(n), results, pairSwiss, (before, pairing) => checkRound(before, pairing));
      }),
      { numRuns: 4 },
    );
    // One seat always wins: the leaders all need the same seat, so they must meet players of other scores.
    for (const always of [0, 1]) simulateSwiss(128, maxSwissRounds(128), [always], pairSwiss, (before, pairing) => checkRound(before, pairing));
  });

  it('6 players, round 1 won by every first seat: round 2 pairs two winners, two losers and one winner with one loser (score difference 1)', () => {
    // Round 1: p0-p3, p1-p4, p2-p5 (the first seat named first), every first seat wins.
    const round1 = [
      ['p0', 'p3'],
      ['p1', 'p4'],
      ['p2', 'p5'],
    ];
    const players: PairingPlayer[] = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'].map((id, order) => {
      const table = round1.find((t) => t.includes(id))!;
      const first = table[0] === id;
      return {
        id,
        score: first ? 1 : 0,
        order,
        rating: null,
        opponents: [table[first ? 1 : 0]],
        byes: 0,
        balance: first ? 1 : -1,
        lastSeat: first ? 0 : 1,
        seatRun: 1,
      };
    });
    const score = new Map(players.map((p) => [p.id, p.score]));
    const diff = (r: RoundPairing) => r.tables.reduce((t, [a, b]) => t + Math.abs(score.get(a)! - score.get(b)!), 0);
    const pairing = pairSwiss(players, 2)!;
    expect(diff(pairing)).toBe(1);
    expect(pairing.bye).toBeNull();
    for (const [a, b] of pairing.tables) expect(players.find((p) => p.id === a)!.opponents).not.toContain(b);
    // Version 1 (logs that name no pairing version) paired winners against losers at every table.
    expect(diff(pairSwissV1(players, 2)!)).toBe(3);
    // The winners' table seats one of them first a second time (balance +2, the rule allows it); the loser who
    // meets a winner sits first; the losers' table seats one of them second again (-2).
    const balance = new Map(players.map((p) => [p.id, p.balance]));
    for (const [a, b] of pairing.tables) {
      balance.set(a, balance.get(a)! + 1);
      balance.set(b, balance.get(b)! - 1);
    }
    for (const b of balance.values()) expect(Math.abs(b)).toBeLessThanOrEqual(2);
  });

  it('gives the bye to the lowest-scored player without one, even when a higher one would leave closer tables', () => {
    // Scores 3, 1, 1, 0, 0: a bye to the leader would leave tables of equal scores, but the bye goes to the bottom.
    const players: PairingPlayer[] = [3, 1, 1, 0, 0].map((score, order) => ({
      id: `p${order}`,
      score,
      order,
      rating: null,
      opponents: [],
      byes: 0,
      balance: 0,
      lastSeat: null,
    }));
    expect(pairSwiss(players, 2)!.bye).toBe('p4');
  });

  it('keeps nobody in the same seat three rounds in a row, and nobody beyond ±2, when a pairing can', () => {
    // p0 and p1 sat first twice in a row; p2 and p3 second twice. Equal scores: every table is possible.
    const players: PairingPlayer[] = [0, 0, 1, 1].map((seat, order) => ({
      id: `p${order}`,
      score: 1,
      order,
      rating: null,
      opponents: [],
      byes: 0,
      balance: seat === 0 ? 2 : -2,
      lastSeat: seat as 0 | 1,
      seatRun: 2,
    }));
    const pairing = pairSwiss(players, 3)!;
    for (const [first, second] of pairing.tables) {
      expect(['p2', 'p3']).toContain(first);
      expect(['p0', 'p1']).toContain(second);
    }
  });

  it('relaxes the seat rules, never the no-rematch rule, when no pairing keeps them', () => {
    // Two players, both at +2 and first twice in a row: one of them must sit first a third time.
    const players: PairingPlayer[] = [0, 1].map((order) => ({
      id: `p${order}`,
      score: 0,
      order,
      rating: null,
      opponents: [],
      byes: 0,
      balance: 2,
      lastSeat: 0,
      seatRun: 2,
    }));
    expect(pairSwiss(players, 3)!.tables).toHaveLength(1);
    // ... but never a rematch.
    expect(
      pairSwiss(
        players.map((p, i) => ({ ...p, opponents: [`p${1 - i}`] })),
        3,
      ),
    ).toBeNull();
  });

  it('version 1 (logs that name no pairing version) keeps seats within one when greedy seats would corner a later round (10 players, the second seat always wins)', () => {
    // Found by CI: without the lookahead round 4 had to seat two players at +1 together.
    const { players } = simulateSwiss(10, maxSwissRounds(10), [1], pairSwissV1);
    expect(maxSwissRounds(10)).toBe(4);
    for (const p of players) expect(Math.abs(p.firsts - p.seconds)).toBeLessThanOrEqual(1);
  });

  it('is a pure function of its input: the same standings pair the same way', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 16 }), fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 32 }), (n, results) => {
        const a = simulateSwiss(n, maxSwissRounds(n), results).log;
        const b = simulateSwiss(n, maxSwissRounds(n), results).log;
        expect(b).toEqual(a);
      }),
      { numRuns: 50 },
    );
  });

  it('pairs the top of the standings together (score groups)', () => {
    const players: PairingPlayer[] = ['a', 'b', 'c', 'd'].map((id, order) => ({
      id,
      score: [2, 0, 2, 0][order],
      order,
      rating: null,
      opponents: [],
      byes: 0,
      balance: 0,
      lastSeat: null,
    }));
    const pairing = pairSwiss(players, 3)!;
    expect(pairing.tables.map((t) => [...t].sort())).toEqual([
      ['a', 'c'],
      ['b', 'd'],
    ]);
    expect(pairing.bye).toBeNull();
  });

  it('gives the bye to the lowest-ranked player who has not had one', () => {
    const players: PairingPlayer[] = ['a', 'b', 'c'].map((id, order) => ({
      id,
      score: [1, 1, 0][order],
      order,
      rating: null,
      opponents: [],
      byes: id === 'c' ? 1 : 0,
      balance: 0,
      lastSeat: null,
    }));
    expect(pairSwiss(players, 2)!.bye).toBe('b');
  });

  it('caps rounds so that a field can always be paired', () => {
    expect(maxSwissRounds(8)).toBe(3);
    expect(maxSwissRounds(7)).toBe(3);
    expect(maxSwissRounds(256)).toBe(8);
    expect(maxSwissRounds(4)).toBe(2);
    expect(maxSwissRounds(3)).toBe(2);
    expect(maxSwissRounds(2)).toBe(1);
  });
});

describe('round robin', () => {
  it('plays every pair once: n(n-1)/2 games, at most one bye per round, first seats within one', () => {
    for (let n = 2; n <= ROUND_ROBIN_MAX; n++) {
      const ids = Array.from({ length: n }, (_, i) => `p${i}`);
      const rounds = roundRobinSchedule(ids);
      expect(rounds).toHaveLength(roundRobinRounds(n));
      const pairs = new Set<string>();
      const balance = new Map(ids.map((id) => [id, 0]));
      const byes = new Map(ids.map((id) => [id, 0]));
      for (const r of rounds) {
        const seen = new Set<string>();
        for (const [a, b] of r.tables) {
          expect(seen.has(a) || seen.has(b)).toBe(false);
          seen.add(a);
          seen.add(b);
          pairs.add([a, b].sort().join('-'));
          balance.set(a, balance.get(a)! + 1);
          balance.set(b, balance.get(b)! - 1);
        }
        if (r.bye) byes.set(r.bye, byes.get(r.bye)! + 1);
        expect(seen.size + (r.bye ? 1 : 0)).toBe(n);
      }
      expect(pairs.size).toBe((n * (n - 1)) / 2);
      expect(rounds.reduce((s, r) => s + r.tables.length, 0)).toBe((n * (n - 1)) / 2);
      for (const id of ids) {
        expect(Math.abs(balance.get(id)!)).toBeLessThanOrEqual(1);
        expect(byes.get(id)).toBe(n % 2);
      }
    }
  });

  it('refuses more than the documented size', () => {
    expect(() => roundRobinSchedule(Array.from({ length: ROUND_ROBIN_MAX + 1 }, (_, i) => `p${i}`))).toThrow(RangeError);
  });
});
