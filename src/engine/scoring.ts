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

/** Most 7s; among sides tied on 7s, most 6s; still tied: nobody. */
function sevensWinner(sevens: readonly number[], sixes: readonly number[]): number | null {
  let top = -1;
  for (const n of sevens) if (n > top) top = n;
  let winner: number | null = null;
  let bestSixes = -1;
  for (let side = 0; side < sevens.length; side++) {
    if (sevens[side] !== top) continue;
    if (sixes[side] > bestSixes) {
      bestSixes = sixes[side];
      winner = side;
    } else if (sixes[side] === bestSixes) {
      winner = null;
    }
  }
  return winner;
}

export function scoreRound(options: RulesetOptions, captured: readonly (readonly Card[])[], scope: readonly number[]): RoundBreakdown {
  const sides = captured.length;
  const points = new Array<number>(sides);
  const cardCounts = new Array<number>(sides);
  const denariCounts = new Array<number>(sides);
  const sevens = new Array<number>(sides);
  const sixes = new Array<number>(sides);
  const bonus = new Array<number>(sides);
  const primiera = new Array<number | null>(sides);
  const allSuitsRequired = options.primiera === 'allSuitsRequired';
  let settebelloSide: number | null = null;
  let reBelloSide: number | null = null;
  for (let side = 0; side < sides; side++) {
    const pile = captured[side];
    let denari = 0;
    let sevensHere = 0;
    let sixesHere = 0;
    let bonusHere = 0;
    let d = 0, c = 0, s = 0, b = 0; // best primiera value per suit
    for (let k = 0; k < pile.length; k++) {
      const card = pile[k];
      const rank = RANK[card];
      const value = PRIMIERA_VALUE[rank];
      switch (SUIT[card]) {
        case DENARI:
          denari++;
          if (rank <= 3) bonusHere += rank;
          if (value > d) d = value;
          break;
        case 1:
          if (value > c) c = value;
          break;
        case 2:
          if (value > s) s = value;
          break;
        default:
          if (value > b) b = value;
      }
      if (rank === 7) sevensHere++;
      else if (rank === 6) sixesHere++;
      if (card === SETTEBELLO) settebelloSide = side;
      else if (card === RE_BELLO) reBelloSide = side;
    }
    points[side] = scope[side];
    cardCounts[side] = pile.length;
    denariCounts[side] = denari;
    sevens[side] = sevensHere;
    sixes[side] = sixesHere;
    bonus[side] = bonusHere;
    primiera[side] = allSuitsRequired && (d === 0 || c === 0 || s === 0 || b === 0) ? null : d + c + s + b;
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
  let allDenari: number | null = null;
  for (let side = 0; side < sides; side++) if (denariCounts[side] === 10) allDenari = side;
  const breakdown: RoundBreakdown = { points, scope: scope.slice(0, sides), awards, cardCounts, denariCounts, allDenari };
  if (options.primiera !== null) {
    breakdown.primiera = primiera;
    // A void primiera ranks below every real total (the lowest real one is 4 * 10).
    const ranked = new Array<number>(sides);
    for (let side = 0; side < sides; side++) ranked[side] = primiera[side] ?? -1;
    award('primiera', uniqueTop(ranked));
  }
  if (options.sevens) award('sevens', sevensWinner(sevens, sixes));
  if (options.denariBonus123) {
    // 1D, 2D, 3D score their face value for whoever took them.
    breakdown.denariBonus = bonus;
    for (let side = 0; side < sides; side++) points[side] += bonus[side];
  }
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
