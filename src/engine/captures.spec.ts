import fc from 'fast-check';
import { DECK_SIZE, RANK } from './cards';
import { CaptureBuffer, captureFault, findCaptures } from './captures';
import type { CaptureFault } from './captures';
import { PRESETS } from './options';
import type { RulesetOptions } from './options';

/**
 * The contract's "Legal plays" steps 1-4 read literally, by brute force over
 * every subset of the table: the reference the fast paths must agree with.
 * Sets are lists of table positions, in the order a plain search finds them
 * (lexicographic on ascending positions).
 */
function contractCaptures(options: RulesetOptions, table: number[], card: number): number[][] {
  const n = table.length;
  const rank = RANK[card];
  let sets: number[][] = [];
  const subsets: number[][] = [];
  for (let mask = 1; mask < 1 << n; mask++) {
    const set: number[] = [];
    for (let i = 0; i < n; i++) if (mask & (1 << i)) set.push(i);
    subsets.push(set);
  }
  const sum = (set: number[]) => set.reduce((s, i) => s + RANK[table[i]], 0);
  if (options.aceSweeps && rank === 1 && n > 0) {
    sets = [table.map((_, i) => i)];
  } else if (options.capture === 'match') {
    const singles = subsets.filter((s) => s.length === 1 && RANK[table[s[0]]] === rank);
    sets = singles.length > 0 ? singles : subsets.filter((s) => s.length >= 2 && sum(s) === rank);
  } else {
    sets = subsets.filter((s) => sum(s) + rank === 15);
  }
  if (options.maxCaptureCards !== null) sets = sets.filter((s) => s.length <= options.maxCaptureCards!);
  if (options.fewestCards && sets.length > 0) {
    const min = Math.min(...sets.map((s) => s.length));
    sets = sets.filter((s) => s.length === min);
  }
  return sets.sort((a, b) => {
    for (let k = 0; k < Math.min(a.length, b.length); k++) if (a[k] !== b[k]) return a[k] - b[k];
    return a.length - b.length;
  });
}

function found(buffer: CaptureBuffer): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < buffer.count; i++) out.push(Array.from(buffer.pos.subarray(buffer.start[i], buffer.start[i] + buffer.size[i])));
  return out;
}

/** What the decider must answer for a named capture, from the contract's list of legal sets. */
function expectedFault(legal: number[][], named: number[]): CaptureFault {
  if (named.length === 0) return legal.length === 0 ? null : 'MUST_CAPTURE'; // step 5
  const key = (s: number[]) => [...s].sort((a, b) => a - b).join(',');
  return legal.some((s) => key(s) === key(named)) ? null : 'CAPTURE_NOT_LEGAL';
}

const optionsArb: fc.Arbitrary<RulesetOptions> = fc
  .record({
    capture: fc.constantFrom<RulesetOptions['capture']>('match', 'fifteen'),
    maxCaptureCards: fc.constantFrom(null, 1, 2, 3, 4),
    fewestCards: fc.boolean(),
    aceSweeps: fc.boolean(),
  })
  .map((o) => ({ ...PRESETS.scopa.defaults, ...o }));

/** A table of distinct cards and a card from elsewhere (the one played). */
const positionArb = fc
  .shuffledSubarray(
    Array.from({ length: DECK_SIZE }, (_, c) => c),
    { minLength: 1, maxLength: 13 },
  )
  .map((cards) => ({ card: cards[0], table: cards.slice(1) }));

describe('captures', () => {
  it('finds exactly the sets the contract allows, in search order', () => {
    const buffer = new CaptureBuffer();
    fc.assert(
      fc.property(optionsArb, positionArb, (options, { card, table }) => {
        findCaptures(options, table, card, buffer);
        expect(found(buffer)).toEqual(contractCaptures(options, table, card));
      }),
      { numRuns: 3000 },
    );
  });

  it('checks a named capture the same way as looking it up among the legal sets', () => {
    fc.assert(
      fc.property(optionsArb, positionArb, fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), (options, { card, table }, picks) => {
        const legal = contractCaptures(options, table, card);
        // every legal set, no capture at all, and an arbitrary subset of the table
        const candidates = [...legal, [], table.map((_, i) => i).filter((i) => picks[i])];
        for (const named of candidates) {
          const capture = named.map((i) => table[i]);
          expect(captureFault(options, table, card, capture)).toBe(expectedFault(legal, named));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('handles the empty table and the ace sweep edges', () => {
    const options = { ...PRESETS['scopa-d-assi'].defaults, maxCaptureCards: 2 };
    expect(captureFault(options, [], 0, [])).toBeNull();
    // three cards are too many for one ace sweep under maxCaptureCards 2: the ace is laid
    expect(captureFault(options, [1, 2, 3], 0, [])).toBeNull();
    expect(captureFault(options, [1, 2, 3], 0, [1, 2])).toBe('CAPTURE_NOT_LEGAL');
    expect(captureFault(options, [1, 2], 0, [])).toBe('MUST_CAPTURE');
    expect(captureFault(options, [1, 2], 0, [1, 2])).toBeNull();
  });
});

/**
 * The whole of "Legal plays" steps 1 to 4 by brute force, with capture values
 * (a named matta), `aceSweepBlockedByAce` and `"matchOrFifteen"`: sets of
 * table positions in any order (step 3b joins two searches and a sweep).
 */
function contractCapturesWithValues(options: RulesetOptions, table: number[], card: number, values: Uint8Array): number[][] {
  const n = table.length;
  const v = values[card];
  const subsets: number[][] = [];
  for (let mask = 1; mask < 1 << n; mask++) {
    const set: number[] = [];
    for (let i = 0; i < n; i++) if (mask & (1 << i)) set.push(i);
    subsets.push(set);
  }
  const sum = (set: number[]) => set.reduce((s, i) => s + values[table[i]], 0);
  const sweep = options.aceSweeps && v === 1 && n > 0 && !(options.aceSweepBlockedByAce && table.some((c) => values[c] === 1));
  let sets: number[][];
  const whole = table.map((_, i) => i);
  if (sweep && options.capture !== 'matchOrFifteen') {
    sets = [whole];
  } else if (options.capture === 'match') {
    const singles = subsets.filter((s) => s.length === 1 && values[table[s[0]]] === v);
    sets = singles.length > 0 ? singles : subsets.filter((s) => s.length >= 2 && sum(s) === v);
  } else if (options.capture === 'fifteen') {
    sets = subsets.filter((s) => sum(s) + v === 15);
  } else {
    sets = subsets.filter((s) => sum(s) === v || sum(s) + v === 15);
    if (sweep && !sets.some((s) => s.length === n)) sets.push(whole);
  }
  if (options.maxCaptureCards !== null) sets = sets.filter((s) => s.length <= options.maxCaptureCards!);
  if (options.fewestCards && sets.length > 0) {
    const min = Math.min(...sets.map((s) => s.length));
    sets = sets.filter((s) => s.length === min);
  }
  return sets;
}

const setKeyOf = (s: number[]) => [...s].sort((a, b) => a - b).join(',');

const fullOptionsArb: fc.Arbitrary<RulesetOptions> = fc
  .record({
    capture: fc.constantFrom<RulesetOptions['capture']>('match', 'fifteen', 'matchOrFifteen'),
    maxCaptureCards: fc.constantFrom(null, 1, 2, 3, 4),
    fewestCards: fc.boolean(),
    aceSweeps: fc.boolean(),
    aceSweepBlockedByAce: fc.boolean(),
    optionalCapture: fc.boolean(),
  })
  .map((o) => ({ ...PRESETS.cirulla.defaults, ...o }));

/** Every card's rank, or the matta (7C, index 16) named 1..10. */
const valuesArb = fc.integer({ min: 0, max: 10 }).map((named) => {
  const values = new Uint8Array(RANK);
  if (named > 0) values[16] = named;
  return values;
});

describe('captures with the options after target', () => {
  it('finds exactly the sets the contract allows, with capture values, 3b and a blocked sweep', () => {
    const buffer = new CaptureBuffer();
    fc.assert(
      fc.property(fullOptionsArb, positionArb, valuesArb, (options, { card, table }, values) => {
        findCaptures(options, table, card, buffer, values);
        expect(found(buffer).map(setKeyOf).sort()).toEqual(contractCapturesWithValues(options, table, card, values).map(setKeyOf).sort());
      }),
      { numRuns: 3000 },
    );
  });

  it('checks a named capture the same way, laying included (step 5, optionalCapture)', () => {
    fc.assert(
      fc.property(
        fullOptionsArb,
        positionArb,
        valuesArb,
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        (options, { card, table }, values, picks) => {
          const legal = contractCapturesWithValues(options, table, card, values);
          const candidates = [...legal, [], table.map((_, i) => i).filter((i) => picks[i])];
          for (const named of candidates) {
            const capture = named.map((i) => table[i]);
            const strict = expectedFault(legal, named);
            expect(captureFault(options, table, card, capture, values)).toBe(strict === 'MUST_CAPTURE' && options.optionalCapture ? null : strict);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
