/**
 * Legal capture enumeration (contract, "Legal plays"), written for the hot
 * path: captures go into a reusable buffer as table positions, so asking for
 * legal plays allocates nothing.
 */
import { RANK } from './cards';
import type { Card } from './cards';
import type { RulesetOptions } from './options';

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
    const out = new Array<Card>(this.size[i]);
    const from = this.start[i];
    for (let k = 0; k < out.length; k++) out[k] = table[this.pos[from + k]];
    return out;
  }
}

function grow<T extends Uint8Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

// DFS scratch, shared: the engine is single-threaded and never re-enters here.
const stack = new Uint8Array(64);
let dfsTable: readonly Card[] = [];
let dfsOut: CaptureBuffer;
let dfsMinSize = 1;
let dfsMaxSize = 64;

/** Every set of table positions from `start` whose ranks sum to `remaining`. */
function sumsTo(start: number, remaining: number, depth: number): void {
  for (let i = start; i < dfsTable.length; i++) {
    const r = RANK[dfsTable[i]];
    if (r > remaining) continue;
    stack[depth] = i;
    if (r === remaining) {
      if (depth + 1 >= dfsMinSize) dfsOut.push(stack, depth + 1);
    } else if (depth + 1 < dfsMaxSize) {
      sumsTo(i + 1, remaining - r, depth + 1);
    }
  }
}

export function isAceSweep(options: RulesetOptions, card: Card, tableLength: number): boolean {
  return options.aceSweeps && RANK[card] === 1 && tableLength > 0;
}

/**
 * Fills `out` with the capture sets legal for `card` on `table`, after the
 * `maxCaptureCards` and `fewestCards` filters. An empty result means the card
 * is laid on the table (step 5: a card that can capture must capture).
 */
export function findCaptures(options: RulesetOptions, table: readonly Card[], card: Card, out: CaptureBuffer): void {
  out.reset();
  const n = table.length;
  if (n === 0) return;
  const max = options.maxCaptureCards ?? 64;
  const rank = RANK[card];

  if (isAceSweep(options, card, n)) {
    // Step 1: the ace takes the whole table, or nothing if that is too many cards.
    if (n <= max) {
      for (let i = 0; i < n; i++) stack[i] = i;
      out.push(stack, n);
    }
    return;
  }

  if (options.capture === 'match') {
    // Step 2: a card of the same rank on the table must be taken alone.
    for (let i = 0; i < n; i++) {
      if (RANK[table[i]] === rank) {
        stack[0] = i;
        out.push(stack, 1);
      }
    }
    if (out.count > 0) return; // sets of one card: max >= 1 and fewest keep them all
    dfsMinSize = 2;
    dfsMaxSize = max;
    dfsTable = table;
    dfsOut = out;
    sumsTo(0, rank, 0);
  } else {
    // Step 3: table cards that make 15 with the card played.
    dfsMinSize = 1;
    dfsMaxSize = max;
    dfsTable = table;
    dfsOut = out;
    sumsTo(0, 15 - rank, 0);
  }
  dfsTable = [];
  if (options.fewestCards && out.count > 1) out.keepFewest();
}
