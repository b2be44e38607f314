/** Legal plays of a hand on a table, with the scopa flag (contract, "Legal plays"). */
import { RANK, cardCodes } from './cards';
import type { Card, CardCode } from './cards';
import { CaptureBuffer, capturesOnPrepared, isAceSweep, prepareTable } from './captures';
import type { RulesetOptions } from './options';

export interface Play {
  card: Card;
  capture: Card[];
  scopa: boolean;
}

export interface PlayCodes {
  card: CardCode;
  capture: CardCode[];
  scopa: boolean;
}

/** One capture buffer per hand card, so a hand's plays can be counted before the list is made. */
const buffers: CaptureBuffer[] = [new CaptureBuffer()];
const buffer = buffers[0];

/**
 * A capture that empties the table is a scopa, except on the round's last
 * play and except an ace sweep when `aceSweepIsScopa` is off.
 */
export function isScopa(options: RulesetOptions, card: Card, captureSize: number, tableSize: number, lastPlay: boolean): boolean {
  if (captureSize === 0 || captureSize !== tableSize || lastPlay) return false;
  return !isAceSweep(options, card, tableSize) || options.aceSweepIsScopa;
}

export function legalPlaysOf(options: RulesetOptions, hand: readonly Card[], table: readonly Card[], lastPlay: boolean): Play[] {
  prepareTable(table); // once for the whole hand
  let total = 0;
  for (let h = 0; h < hand.length; h++) {
    if (h === buffers.length) buffers.push(new CaptureBuffer());
    capturesOnPrepared(options, hand[h], buffers[h]);
    total += buffers[h].count === 0 ? 1 : buffers[h].count;
  }
  const plays = new Array<Play>(total); // exact size: no growth
  let p = 0;
  for (let h = 0; h < hand.length; h++) {
    const card = hand[h];
    const found = buffers[h];
    if (found.count === 0) {
      plays[p++] = { card, capture: new Array<Card>(0), scopa: false }; // new Array, like every capture list: one elements kind
      continue;
    }
    for (let i = 0; i < found.count; i++) {
      const capture = found.cards(i, table);
      plays[p++] = { card, capture, scopa: isScopa(options, card, capture.length, table.length, lastPlay) };
    }
  }
  return plays;
}

export function toPlayCodes(play: Play): PlayCodes {
  return { card: cardCodes([play.card])[0], capture: cardCodes(play.capture), scopa: play.scopa };
}

/** Sum of the ranks on a table (what a sweep needs). */
export function tableSum(table: readonly Card[]): number {
  let sum = 0;
  for (const c of table) sum += RANK[c];
  return sum;
}

export { buffer as sharedCaptureBuffer };
