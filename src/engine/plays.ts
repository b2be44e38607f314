/** Legal plays of a hand on a table, with the scopa flag (contract, "Legal plays"). */
import { RANK, cardCodes } from './cards';
import type { Card, CardCode } from './cards';
import { CaptureBuffer, findCaptures, isAceSweep } from './captures';
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

const buffer = new CaptureBuffer();

/**
 * A capture that empties the table is a scopa, except on the round's last
 * play and except an ace sweep when `aceSweepIsScopa` is off.
 */
export function isScopa(options: RulesetOptions, card: Card, captureSize: number, tableSize: number, lastPlay: boolean): boolean {
  if (captureSize === 0 || captureSize !== tableSize || lastPlay) return false;
  return !isAceSweep(options, card, tableSize) || options.aceSweepIsScopa;
}

export function legalPlaysOf(options: RulesetOptions, hand: readonly Card[], table: readonly Card[], lastPlay: boolean): Play[] {
  const plays: Play[] = [];
  for (const card of hand) {
    findCaptures(options, table, card, buffer);
    if (buffer.count === 0) {
      plays.push({ card, capture: [], scopa: false });
      continue;
    }
    for (let i = 0; i < buffer.count; i++) {
      const capture = buffer.cards(i, table);
      plays.push({ card, capture, scopa: isScopa(options, card, capture.length, table.length, lastPlay) });
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
