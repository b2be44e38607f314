/** Legal plays of a hand on a table, with the scopa flag (contract, "Legal plays"). */
import { RANK, cardCodes } from './cards';
import type { Card, CardCode } from './cards';
import { CaptureBuffer, capturesOnPrepared, isAceSweep, isAceSweepCapture, prepareTable } from './captures';
import type { CaptureValues } from './captures';
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

/**
 * `isScopa` for any ruleset: knows capture values (a named matta), a sweep a
 * table ace blocks, and that under `"matchOrFifteen"` a whole-table set that
 * step 3b allows is no ace sweep. The same answer as `isScopa` where that one
 * applies (no capture value named, no `aceSweepBlockedByAce`, no 3b).
 */
export function scopaOf(
  options: RulesetOptions,
  table: readonly Card[],
  card: Card,
  capture: readonly Card[],
  lastPlay: boolean,
  values?: CaptureValues,
): boolean {
  if (capture.length === 0 || capture.length !== table.length || lastPlay) return false;
  return options.aceSweepIsScopa || !isAceSweepCapture(options, table, card, capture, values);
}

/** Whether `isScopa` (sizes only) gives the rules' answer for this ruleset and these values. */
function sizesTellScopa(options: RulesetOptions, values: CaptureValues | undefined): boolean {
  return (values === undefined || values === RANK) && options.capture !== 'matchOrFifteen' && !options.aceSweepBlockedByAce;
}

export function legalPlaysOf(options: RulesetOptions, hand: readonly Card[], table: readonly Card[], lastPlay: boolean, values?: CaptureValues): Play[] {
  prepareTable(table, values); // once for the whole hand
  const optional = options.optionalCapture;
  const plain = sizesTellScopa(options, values);
  let total = 0;
  for (let h = 0; h < hand.length; h++) {
    if (h === buffers.length) buffers.push(new CaptureBuffer());
    capturesOnPrepared(options, hand[h], buffers[h]);
    total += buffers[h].count === 0 ? 1 : buffers[h].count + (optional ? 1 : 0);
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
      const scopa = plain ? isScopa(options, card, capture.length, table.length, lastPlay) : scopaOf(options, table, card, capture, lastPlay, values);
      plays[p++] = { card, capture, scopa };
    }
    // Step 5: `optionalCapture` lets a card that can capture be laid all the same.
    if (optional) plays[p++] = { card, capture: new Array<Card>(0), scopa: false };
  }
  return plays;
}

export function toPlayCodes(play: Play): PlayCodes {
  return { card: cardCodes([play.card])[0], capture: cardCodes(play.capture), scopa: play.scopa };
}

export { buffer as sharedCaptureBuffer };
