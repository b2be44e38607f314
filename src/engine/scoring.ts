/** Round scoring and match end (contract, "Round and match"). */
import { DENARI, RANK, RE_BELLO, SETTEBELLO, SUIT } from './cards';
import type { Card } from './cards';
import type { PointRule, RulesetOptions } from './options';
import type { AwardName, RoundBreakdown } from './round-breakdown';

export type { AwardName, RoundBreakdown } from './round-breakdown';

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

/**
 * `bonusScope`: the part of `scope` that came from the initial-table capture
 * and hand declarations; recorded in the breakdown when the ruleset has
 * either (it is already counted in `scope`).
 */
export function scoreRound(
  options: RulesetOptions,
  captured: readonly (readonly Card[])[],
  scope: readonly number[],
  bonusScope?: readonly number[],
): RoundBreakdown {
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
    let d = 0,
      c = 0,
      s = 0,
      b = 0; // best primiera value per suit
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
  if (options.piccola || options.grande) {
    const holder = new Array<number>(10).fill(-1); // side holding each denaro, by rank - 1
    for (let side = 0; side < sides; side++) for (const card of captured[side]) if (SUIT[card] === DENARI) holder[RANK[card] - 1] = side;
    if (options.piccola) {
      // 1D 2D 3D: 3, plus one per 4D, 5D, 6D held in unbroken sequence after them (7D never extends it).
      const side = holder[0] >= 0 && holder[1] === holder[0] && holder[2] === holder[0] ? holder[0] : null;
      let worth = 0;
      if (side !== null) {
        worth = 3;
        for (let rank = 4; rank <= 6 && holder[rank - 1] === side; rank++) worth++;
        points[side] += worth;
      }
      awards.piccola = side;
      breakdown.piccolaPoints = worth;
    }
    if (options.grande) {
      const side = holder[7] >= 0 && holder[8] === holder[7] && holder[9] === holder[7] ? holder[7] : null;
      if (side !== null) points[side] += 5;
      awards.grande = side;
    }
  }
  if (options.initialTableCapture !== null || options.lowHandBonus > 0 || options.tripleBonus > 0) {
    breakdown.bonusScope = bonusScope ? bonusScope.slice(0, sides) : new Array<number>(sides).fill(0);
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
