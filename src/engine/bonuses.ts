/**
 * Cirulla's and escoba's bonus scope (contract, "Hand declarations" and
 * "Round and match"): the hand declarations open to a dealt hand, and the
 * scope a dealer's side scores by taking the initial table.
 */
import { RANK, parseCard } from './cards';
import type { Card } from './cards';
import type { RulesetOptions } from './options';

/** One legal hand declaration: the value named for the matta (null: the hand holds none) and the scope it scores. */
export interface Declaration {
  mattaValue: number | null;
  points: number;
}

/** The matta's card index, or -1 when the ruleset has none. */
export function mattaCard(options: RulesetOptions): Card {
  return options.matta === null ? -1 : parseCard(options.matta);
}

/**
 * Scope a declaration of `hand` scores with the matta counted as `mattaValue`:
 * b = max(triple ? tripleBonus : 0, low ? lowHandBonus : 0); 0 means not legal.
 * Only a hand of exactly three cards qualifies.
 */
export function declarationScope(options: RulesetOptions, hand: readonly Card[], mattaValue: number | null): number {
  if (hand.length !== 3) return 0;
  const matta = mattaCard(options);
  let sum = 0;
  const v = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    v[k] = hand[k] === matta && mattaValue !== null ? mattaValue : RANK[hand[k]];
    sum += v[k];
  }
  const triple = v[0] === v[1] && v[1] === v[2];
  const low = sum <= 9;
  return Math.max(triple ? options.tripleBonus : 0, low ? options.lowHandBonus : 0);
}

/** Whether the hand holds the ruleset's matta (then a declaration must name its value). */
export function holdsMatta(options: RulesetOptions, hand: readonly Card[]): boolean {
  const matta = mattaCard(options);
  return matta >= 0 && hand.includes(matta);
}

/**
 * The legal declarations of a dealt hand (the conformance `handBonus` kind):
 * one entry per matta value 1..10 that makes a legal declaration when the
 * hand holds the matta, else at most one entry with `mattaValue` null.
 */
export function declarationsOf(options: RulesetOptions, hand: readonly Card[]): Declaration[] {
  if ((options.lowHandBonus <= 0 && options.tripleBonus <= 0) || hand.length !== 3) return [];
  if (!holdsMatta(options, hand)) {
    const points = declarationScope(options, hand, null);
    return points > 0 ? [{ mattaValue: null, points }] : [];
  }
  const out: Declaration[] = [];
  for (let value = 1; value <= 10; value++) {
    const points = declarationScope(options, hand, value);
    if (points > 0) out.push({ mattaValue: value, points });
  }
  return out;
}

/**
 * k, the scope the dealer's side scores by taking the initial table
 * (`initialTableCapture`), the matta on the table taking whichever value
 * 1..10 gives the largest k. 0: the table stays. The redeal is the caller's
 * (it comes first).
 */
export function initialTableScope(options: RulesetOptions, table: readonly Card[]): number {
  const rule = options.initialTableCapture;
  if (rule === null || table.length === 0) return 0;
  const matta = mattaCard(options);
  const values = table.map((c) => RANK[c]);
  const at = matta >= 0 ? table.indexOf(matta) : -1;
  if (at < 0) return tableScope(rule, values);
  let best = 0;
  for (let value = 1; value <= 10; value++) {
    values[at] = value;
    best = Math.max(best, tableScope(rule, values));
  }
  return best;
}

function tableScope(rule: 'sum15or30' | 'groups15', values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  if (rule === 'sum15or30') return total === 15 ? 1 : total === 30 ? 2 : 0;
  if (total === 0 || total % 15 !== 0) return 0;
  const counts = new Array<number>(11).fill(0);
  for (const v of values) counts[v]++;
  return splitsInto15s(counts, new Map()) ? total / 15 : 0;
}

/**
 * Whether cards of these values (counts[v] cards of value v) split into
 * groups of exactly 15 each. The largest value left must be in some group:
 * try every multiset of the others that completes it to 15.
 */
function splitsInto15s(counts: number[], memo: Map<string, boolean>): boolean {
  let top = 10;
  while (top > 0 && counts[top] === 0) top--;
  if (top === 0) return true;
  const key = counts.join(',');
  const known = memo.get(key);
  if (known !== undefined) return known;
  counts[top]--;
  const found = completes(counts, 15 - top, top, memo);
  counts[top]++;
  memo.set(key, found);
  return found;
}

/** Takes values <= `below` from counts that sum to `remaining`, then splits the rest. */
function completes(counts: number[], remaining: number, below: number, memo: Map<string, boolean>): boolean {
  if (remaining === 0) return splitsInto15s(counts, memo);
  for (let v = Math.min(below, remaining); v >= 1; v--) {
    if (counts[v] === 0) continue;
    counts[v]--;
    const found = completes(counts, remaining - v, v, memo);
    counts[v]++;
    if (found) return true;
  }
  return false;
}
