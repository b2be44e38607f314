/**
 * Cards are small integers internally (index = suit * 10 + rank - 1) and
 * strings like `7D` at every boundary (events, views, API).
 * Suit order D, C, S, B follows the contract's table (denari first).
 */
export type Card = number;
export type CardCode = string;

export const SUITS = ['D', 'C', 'S', 'B'] as const;
export type Suit = (typeof SUITS)[number];
export const DENARI = 0;
export const DECK_SIZE = 40;

/** Rank (1..10) of each card index, as a lookup table for the hot paths. */
export const RANK: Uint8Array = new Uint8Array(DECK_SIZE);
/** Suit index (0..3) of each card index. */
export const SUIT: Uint8Array = new Uint8Array(DECK_SIZE);
/** 2^index, so a set of cards has an exact numeric key (40 bits < 2^53). */
export const BIT: Float64Array = new Float64Array(DECK_SIZE);
const CODES: CardCode[] = [];

for (let c = 0; c < DECK_SIZE; c++) {
  RANK[c] = (c % 10) + 1;
  SUIT[c] = Math.floor(c / 10);
  BIT[c] = 2 ** c;
  const code = `${RANK[c]}${SUITS[SUIT[c]]}`;
  CODES.push(code);
}

export const SETTEBELLO: Card = 6; // 7D
export const RE_BELLO: Card = 9; // 10D

export function cardCode(card: Card): CardCode {
  return CODES[card];
}

/** Suit index by character code ('D' 'C' 'S' 'B'), -1 elsewhere. */
const SUIT_INDEX = new Int8Array(128).fill(-1);
SUITS.forEach((suit, i) => (SUIT_INDEX[suit.charCodeAt(0)] = i));

/** Parses a card code; returns -1 for anything that is not one of the 40 codes. */
export function parseCard(code: unknown): Card {
  if (typeof code !== 'string') return -1;
  // Hot path (events are folded by the million): read the characters, no lookup table of strings.
  if (code.length === 2) {
    const rank = code.charCodeAt(0) - 48;
    const c = code.charCodeAt(1);
    const suit = c < 128 ? SUIT_INDEX[c] : -1; // no masking: '7\u00c4' is not 7D
    return rank >= 1 && rank <= 9 && suit >= 0 ? suit * 10 + rank - 1 : -1;
  }
  if (code.length === 3 && code.charCodeAt(0) === 49 && code.charCodeAt(1) === 48) {
    const c = code.charCodeAt(2);
    const suit = c < 128 ? SUIT_INDEX[c] : -1;
    return suit >= 0 ? suit * 10 + 9 : -1;
  }
  return -1;
}

export function cardCodes(cards: readonly Card[]): CardCode[] {
  const out = new Array<CardCode>(cards.length);
  for (let i = 0; i < cards.length; i++) out[i] = CODES[cards[i]];
  return out;
}

/** Numeric key of a set of distinct cards: equal keys, equal sets. */
export function setKey(cards: readonly Card[]): number {
  let key = 0;
  for (let i = 0; i < cards.length; i++) key += BIT[cards[i]];
  return key;
}

export function allCards(): Card[] {
  return Array.from({ length: DECK_SIZE }, (_, c) => c);
}
