/**
 * Legal captures (contract, "Legal plays"), written for the hot path: a table
 * is read once into scratch arrays (ranks, and which sums its subsets can
 * make), then each card's captures are enumerated into a reusable buffer as
 * table positions; a named capture is checked without enumerating at all.
 * Nothing here allocates.
 */
import { DECK_SIZE, RANK as RANK_TABLE } from './cards';
import type { Card } from './cards';
import type { RulesetOptions } from './options';

// A local binding: under tsx every imported one is read through a getter.
const RANK = RANK_TABLE;

/**
 * Capture value per card index (contract, "Cards"): its rank, except a matta
 * whose value a hand declaration named. `RANK` itself when nothing is named.
 */
export type CaptureValues = Uint8Array;

const valueTables = new Map<number, CaptureValues>();

/** The capture values with `card` worth `value` (shared tables: never write to one). */
export function captureValuesWith(card: Card | null, value: number | null): CaptureValues {
  if (card === null || card < 0 || value === null || value === RANK[card]) return RANK;
  const key = card * 16 + value;
  let table = valueTables.get(key);
  if (!table) {
    table = new Uint8Array(RANK);
    table[card] = value;
    valueTables.set(key, table);
  }
  return table;
}

/** Capture sets as table positions, flattened: set i is pos[start[i] .. start[i] + size[i]). */
export class CaptureBuffer {
  count = 0;
  pos = new Uint8Array(256);
  start = new Uint32Array(64);
  size = new Uint8Array(64);
  private used = 0;

  reset(): void {
    this.count = 0;
    this.used = 0;
  }

  push(stack: Uint8Array, length: number): void {
    if (this.count === this.start.length) {
      this.start = grow(this.start, new Uint32Array(this.start.length * 2));
      this.size = grow(this.size, new Uint8Array(this.size.length * 2));
    }
    if (this.used + length > this.pos.length) this.pos = grow(this.pos, new Uint8Array((this.used + length) * 2));
    this.start[this.count] = this.used;
    this.size[this.count] = length;
    for (let k = 0; k < length; k++) this.pos[this.used + k] = stack[k];
    this.used += length;
    this.count++;
  }

  /** Keeps only the sets of minimal size (the `fewestCards` rule). */
  keepFewest(): void {
    let min = 255;
    for (let i = 0; i < this.count; i++) if (this.size[i] < min) min = this.size[i];
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      if (this.size[i] !== min) continue;
      this.start[kept] = this.start[i];
      this.size[kept] = this.size[i];
      kept++;
    }
    this.count = kept;
  }

  /** The table cards of set i. */
  cards(i: number, table: readonly Card[]): Card[] {
    const size = this.size[i];
    const from = this.start[i];
    const out = new Array<Card>(size);
    for (let k = 0; k < size; k++) out[k] = table[this.pos[from + k]];
    return out;
  }
}

function grow<T extends Uint8Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

// Scratch for the prepared table, shared: the engine is single-threaded and
// never re-enters here (every caller prepares the table it then asks about).
// Fixed arrays held in consts, which the compiler can treat as constants.
// Sums above 15 never matter (the most a capture can need is 15 - 1).
const SUMS = 0xffff;
let tableLength = 0;
/** Capture values of the prepared table (RANK unless a matta was named). */
let preparedValues: CaptureValues = RANK;
/** Sum of the prepared table's values (any size: a sweep's test). */
let tableTotal = 0;
/** Capture value of each table position. */
const ranks = new Uint8Array(DECK_SIZE);
/** reach[i]: bit s set iff some subset of positions i.. sums to s (s <= 15; the empty set gives bit 0). */
const reach = new Int32Array(DECK_SIZE + 1);
/** Whether `reach` is filled for the prepared table: only a search needs more than reach[0]. */
let reachFilled = false;
/** Bit r set iff a card of rank r lies on the table. */
let rankMask = 0;
const stack = new Uint8Array(DECK_SIZE);
let dfsOut: CaptureBuffer;
let dfsMinSize = 1;
let dfsMaxSize = DECK_SIZE;
/** Fewest cards making each sum 0..15 (255: none), filled only when a rule needs it. */
const fewest = new Uint8Array(16);

/** Reads a table into the scratch arrays. */
export function prepareTable(table: readonly Card[], values: CaptureValues = RANK): void {
  const n = table.length;
  if (n > DECK_SIZE) throw new RangeError(`a table of ${n} cards`);
  tableLength = n;
  preparedValues = values;
  let mask = 0;
  let sums = 1;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const r = values[table[i]];
    ranks[i] = r;
    total += r;
    mask |= 1 << r;
    sums = (sums | (sums << r)) & SUMS;
  }
  tableTotal = total;
  rankMask = mask;
  reach[0] = sums;
  reachFilled = false;
}

function fillReach(): void {
  let m = 1;
  reach[tableLength] = m;
  for (let i = tableLength - 1; i > 0; i--) {
    m = (m | (m << ranks[i])) & SUMS;
    reach[i] = m;
  }
  reachFilled = true;
}

/**
 * Every set of table positions from `start` whose ranks sum to `remaining`.
 * A branch is entered only if the rest of the table can still make the sum,
 * so the search visits little more than the sets it finds; the order of the
 * sets is that of a plain search (positions ascending).
 */
function sumsTo(start: number, remaining: number, depth: number): void {
  for (let i = start; i < tableLength; i++) {
    const r = ranks[i];
    if (r > remaining) continue;
    stack[depth] = i;
    if (r === remaining) {
      if (depth + 1 >= dfsMinSize) dfsOut.push(stack, depth + 1);
    } else if (depth + 1 < dfsMaxSize && (reach[i + 1] >> (remaining - r)) & 1) {
      sumsTo(i + 1, remaining - r, depth + 1);
    }
  }
}

export function isAceSweep(options: RulesetOptions, card: Card, tableLength: number): boolean {
  return options.aceSweeps && RANK[card] === 1 && tableLength > 0;
}

/** Whether step 1 gives `card` the whole table: an ace on a non-empty table that holds no ace blocking it. */
export function sweepsTable(options: RulesetOptions, table: readonly Card[], card: Card, values: CaptureValues = RANK): boolean {
  if (!options.aceSweeps || values[card] !== 1 || table.length === 0) return false;
  if (options.aceSweepBlockedByAce) for (let i = 0; i < table.length; i++) if (values[table[i]] === 1) return false;
  return true;
}

/**
 * Whether taking `capture` with `card` is an ace sweep (step 1) rather than
 * an ordinary capture: under `"match"` or `"fifteen"` every capture of a
 * sweeping ace is; under `"matchOrFifteen"` only the whole table when step 3b
 * does not also allow it.
 */
export function isAceSweepCapture(
  options: RulesetOptions,
  table: readonly Card[],
  card: Card,
  capture: readonly Card[],
  values: CaptureValues = RANK,
): boolean {
  if (!sweepsTable(options, table, card, values)) return false;
  if (options.capture !== 'matchOrFifteen') return true;
  if (capture.length !== table.length) return false;
  let sum = 0;
  for (let k = 0; k < capture.length; k++) sum += values[capture[k]];
  return sum !== values[card] && sum + values[card] !== 15;
}

/**
 * Fills `out` with the capture sets legal for `card` on `table`, after the
 * `maxCaptureCards` and `fewestCards` filters. An empty result means the card
 * is laid on the table (step 5: a card that can capture must capture, unless
 * `optionalCapture`, which the callers add).
 */
export function findCaptures(options: RulesetOptions, table: readonly Card[], card: Card, out: CaptureBuffer, values: CaptureValues = RANK): void {
  prepareTable(table, values);
  capturesOnPrepared(options, card, out);
}

/** `findCaptures` on the table last given to `prepareTable` (with its capture values). */
export function capturesOnPrepared(options: RulesetOptions, card: Card, out: CaptureBuffer): void {
  out.reset();
  const n = tableLength;
  if (n === 0) return;
  const max = options.maxCaptureCards ?? DECK_SIZE;
  const rank = preparedValues[card];

  // Step 1, unless a table ace blocks it (`aceSweepBlockedByAce`).
  const sweep = options.aceSweeps && rank === 1 && !(options.aceSweepBlockedByAce && (rankMask >> 1) & 1);
  if (sweep && options.capture !== 'matchOrFifteen') {
    // The ace takes the whole table, or nothing if that is too many cards.
    if (n <= max) {
      for (let i = 0; i < n; i++) stack[i] = i;
      out.push(stack, n);
    }
    return;
  }

  if (options.capture === 'matchOrFifteen') {
    // Step 3b: one card of equal value or several adding up to it, or a set making 15 with the card; no priority.
    dfsMinSize = 1;
    dfsMaxSize = max;
    dfsOut = out;
    const fifteen = 15 - rank;
    if ((reach[0] >> rank) & 1) {
      if (!reachFilled) fillReach();
      sumsTo(0, rank, 0);
    }
    if (fifteen !== rank && (reach[0] >> fifteen) & 1) {
      if (!reachFilled) fillReach();
      sumsTo(0, fifteen, 0);
    }
    // Step 1 beside them: the whole table, unless 3b already lists it (one play).
    if (sweep && n <= max && tableTotal !== rank && tableTotal !== fifteen) {
      for (let i = 0; i < n; i++) stack[i] = i;
      out.push(stack, n);
    }
    if (options.fewestCards && out.count > 1) out.keepFewest();
    return;
  }

  let target: number;
  if (options.capture === 'match') {
    // Step 2: a card of the same rank on the table must be taken alone.
    if ((rankMask >> rank) & 1) {
      for (let i = 0; i < n; i++) {
        if (ranks[i] === rank) {
          stack[0] = i;
          out.push(stack, 1);
        }
      }
      return; // sets of one card: max >= 1 and fewest keep them all
    }
    target = rank;
    dfsMinSize = 2;
  } else {
    // Step 3: table cards that make 15 with the card played.
    target = 15 - rank;
    dfsMinSize = 1;
  }
  if (!((reach[0] >> target) & 1)) return;
  if (!reachFilled) fillReach();
  dfsMaxSize = max;
  dfsOut = out;
  sumsTo(0, target, 0);
  if (options.fewestCards && out.count > 1) out.keepFewest();
}

/** Fills `fewest` for a table: a 0/1 knapsack on card count. */
function fillFewest(table: readonly Card[], values: CaptureValues): void {
  fewest.fill(255);
  fewest[0] = 0;
  for (let i = 0; i < table.length; i++) {
    const r = values[table[i]];
    for (let s = 15; s >= r; s--) {
      const via = fewest[s - r] + 1;
      if (via < fewest[s]) fewest[s] = via;
    }
  }
}

/** Why a named capture is refused; null when it is legal. */
export type CaptureFault = null | 'MUST_CAPTURE' | 'CAPTURE_NOT_LEGAL';

/**
 * Checks a named capture (distinct cards of the table) for `card`, with the
 * same outcome as looking it up among the sets `findCaptures` lists, but
 * without listing them: a capture is legal iff it makes the card's sum and
 * has an allowed size. Every set that makes the sum already has the
 * contract's minimum size (a single card of the played rank would be a
 * match, step 2), so only `maxCaptureCards` and `fewestCards` need the
 * fewest cards that make it.
 */
export function captureFault(
  options: RulesetOptions,
  table: readonly Card[],
  card: Card,
  capture: readonly Card[],
  values: CaptureValues = RANK,
): CaptureFault {
  const fault = strictCaptureFault(options, table, card, capture, values);
  // Step 5: with `optionalCapture` a card that can capture may be laid all the same.
  return fault === 'MUST_CAPTURE' && options.optionalCapture ? null : fault;
}

function strictCaptureFault(options: RulesetOptions, table: readonly Card[], card: Card, capture: readonly Card[], values: CaptureValues): CaptureFault {
  if (options.capture === 'matchOrFifteen') return listedCaptureFault(options, table, card, capture, values);
  const n = table.length;
  const size = capture.length;
  const max = options.maxCaptureCards ?? DECK_SIZE;
  const rank = values[card];
  if (options.aceSweeps && rank === 1 && n > 0 && sweepsTable(options, table, card, values)) {
    // Step 1: the one set is the whole table, when it is not too many cards.
    if (n > max) return size === 0 ? null : 'CAPTURE_NOT_LEGAL';
    if (size === 0) return 'MUST_CAPTURE';
    return size === n ? null : 'CAPTURE_NOT_LEGAL';
  }
  let target: number;
  if (options.capture === 'match') {
    let matched = false;
    for (let i = 0; i < n; i++) if (values[table[i]] === rank) matched = true;
    if (matched) {
      if (size === 0) return 'MUST_CAPTURE';
      return size === 1 && values[capture[0]] === rank ? null : 'CAPTURE_NOT_LEGAL';
    }
    target = rank;
  } else {
    target = 15 - rank;
  }
  let sums = 1; // bit s: some subset of the table sums to s
  for (let i = 0; i < n; i++) sums = (sums | (sums << values[table[i]])) & SUMS;
  let least = 255; // fewest cards making the target: only a size rule needs the exact figure
  if ((sums >> target) & 1) {
    if (options.maxCaptureCards !== null || options.fewestCards) {
      fillFewest(table, values);
      least = fewest[target];
    } else {
      least = 1;
    }
  }
  const canCapture = least <= max;
  if (size === 0) return canCapture ? 'MUST_CAPTURE' : null;
  if (!canCapture || size > max || (options.fewestCards && size !== least)) return 'CAPTURE_NOT_LEGAL';
  let sum = 0;
  for (let k = 0; k < size; k++) sum += values[capture[k]];
  return sum === target ? null : 'CAPTURE_NOT_LEGAL';
}

const listed = new CaptureBuffer();

/** A named capture checked against the listed sets (`"matchOrFifteen"`, whose sets have no single target). */
function listedCaptureFault(options: RulesetOptions, table: readonly Card[], card: Card, capture: readonly Card[], values: CaptureValues): CaptureFault {
  findCaptures(options, table, card, listed, values);
  if (capture.length === 0) return listed.count > 0 ? 'MUST_CAPTURE' : null;
  let want = 0;
  for (let k = 0; k < capture.length; k++) want += 2 ** capture[k];
  for (let i = 0; i < listed.count; i++) {
    if (listed.size[i] !== capture.length) continue;
    let key = 0;
    for (let k = 0; k < listed.size[i]; k++) key += 2 ** table[listed.pos[listed.start[i] + k]];
    if (key === want) return null;
  }
  return 'CAPTURE_NOT_LEGAL';
}
