/** Round scoring and match end (contract, "Round and match"). */
import { DENARI, RANK, RE_BELLO, SETTEBELLO, SUIT } from './cards';
import type { Card } from './cards';
import type { PointRule, RulesetOptions } from './options';

export type AwardName = 'cards' | 'denari' | 'settebello' | 'reBello' | 'primiera' | 'sevens';

export interface RoundBreakdown {
  /** Points per side this round: scope + awards + denari bonus. */
  points: number[];
  scope: number[];
  /** One key per award the ruleset enables: the winning side, or null. */
  awards: Partial<Record<AwardName, number | null>>;
  /** Primiera value per side (null = void), when primiera is enabled. */
  primiera?: (number | null)[];
  /** `denariBonus123` points per side, when enabled. */
  denariBonus?: number[];
  /** Cards and denari captured per side, for the record. */
  cardCounts: number[];
  denariCounts: number[];
  /** Side that took all ten denari this round, if any. */
  allDenari: number | null;
}

/** Primiera scale by rank 1..10: 7=21, 6=18, 1=16, 5=15, 4=14, 3=13, 2=12, figures 10. */
const PRIMIERA_VALUE = [0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10];

/** The one side strictly above every other, or null on a tie at the top. */
export function uniqueTop(values: readonly number[]): number | null {
  let best = -Infinity;
  let winner: number | null = null;
  for (let side = 0; side < values.length; side++) {
    if (values[side] > best) {
      best = values[side];
      winner = side;
    } else if (values[side] === best) {
      winner = null;
    }
  }
  return winner;
}

function pointFor(rule: PointRule, counts: readonly number[], total: number): number | null {
  if (rule === 'most') return uniqueTop(counts);
  // "majority": strictly more than half of that kind (21+ of 40 cards, 6+ of 10 denari).
  for (let side = 0; side < counts.length; side++) if (counts[side] * 2 > total) return side;
  return null;
}

export function primieraValue(cards: readonly Card[], allSuitsRequired: boolean): number | null {
  const best = [0, 0, 0, 0];
  for (const c of cards) best[SUIT[c]] = Math.max(best[SUIT[c]], PRIMIERA_VALUE[RANK[c]]);
  if (allSuitsRequired && best.includes(0)) return null;
  return best[0] + best[1] + best[2] + best[3];
}

function sevensWinner(sevens: readonly number[], sixes: readonly number[]): number | null {
  const top = Math.max(...sevens);
  const tied = sevens.map((n, side) => (n === top ? side : -1)).filter((side) => side >= 0);
  if (tied.length === 1) return tied[0];
  const topSixes = Math.max(...tied.map((side) => sixes[side]));
  const stillTied = tied.filter((side) => sixes[side] === topSixes);
  return stillTied.length === 1 ? stillTied[0] : null;
}

export function scoreRound(options: RulesetOptions, captured: readonly (readonly Card[])[], scope: readonly number[]): RoundBreakdown {
  const sides = captured.length;
  const points = scope.slice(0, sides);
  const cardCounts = captured.map((pile) => pile.length);
  const denariCounts = new Array<number>(sides).fill(0);
  const sevens = new Array<number>(sides).fill(0);
  const sixes = new Array<number>(sides).fill(0);
  let settebelloSide: number | null = null;
  let reBelloSide: number | null = null;
  for (let side = 0; side < sides; side++) {
    for (const c of captured[side]) {
      if (SUIT[c] === DENARI) denariCounts[side]++;
      if (RANK[c] === 7) sevens[side]++;
      if (RANK[c] === 6) sixes[side]++;
      if (c === SETTEBELLO) settebelloSide = side;
      if (c === RE_BELLO) reBelloSide = side;
    }
  }

  const awards: RoundBreakdown['awards'] = {};
  const award = (name: AwardName, side: number | null) => {
    awards[name] = side;
    if (side !== null) points[side] += 1;
  };
  if (options.cardsPoint !== null) award('cards', pointFor(options.cardsPoint, cardCounts, 40));
  if (options.denariPoint !== null) award('denari', pointFor(options.denariPoint, denariCounts, 10));
  if (options.settebello) award('settebello', settebelloSide);
  if (options.reBello) award('reBello', reBelloSide);
  const breakdown: RoundBreakdown = { points, scope: scope.slice(0, sides), awards, cardCounts, denariCounts, allDenari: null };
  if (options.primiera !== null) {
    const values = captured.map((pile) => primieraValue(pile, options.primiera === 'allSuitsRequired'));
    breakdown.primiera = values;
    // A void primiera ranks below every real total (the lowest real one is 4 * 10).
    award('primiera', uniqueTop(values.map((v) => v ?? -1)));
  }
  if (options.sevens) award('sevens', sevensWinner(sevens, sixes));
  if (options.denariBonus123) {
    // 1D, 2D, 3D score their face value for whoever took them.
    const bonus = new Array<number>(sides).fill(0);
    for (let side = 0; side < sides; side++) for (const c of captured[side]) if (SUIT[c] === DENARI && RANK[c] <= 3) bonus[side] += RANK[c];
    breakdown.denariBonus = bonus;
    for (let side = 0; side < sides; side++) points[side] += bonus[side];
  }
  const denariSide = denariCounts.findIndex((n) => n === 10);
  breakdown.allDenari = denariSide >= 0 ? denariSide : null;
  return breakdown;
}

export interface MatchEndVerdict {
  over: boolean;
  winner: number | null;
}

/** Decides, after a round is scored, whether the match is over and who won. */
export function matchEnd(options: RulesetOptions, totals: readonly number[], allDenari: number | null): MatchEndVerdict {
  if (options.allDenariWins && allDenari !== null) return { over: true, winner: allDenari };
  const leader = uniqueTop(totals);
  if (leader !== null && totals[leader] >= options.target) return { over: true, winner: leader };
  return { over: false, winner: null };
}
