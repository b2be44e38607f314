import { createHash } from 'node:crypto';
import { cardCodes } from './cards';
import { seedCommitment, seedFromHex, shuffledDeck, toHex } from './shuffle';

const SEED = seedFromHex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');

/** The documented algorithm, written again from the README with Node's own SHA-256. */
function referenceShuffle(seed: Uint8Array, round: number, attempt: number): number[] {
  let block = Buffer.alloc(0);
  let offset = 32;
  let counter = 0;
  const nextByte = () => {
    if (offset === 32) {
      const header = Buffer.alloc(12);
      header.writeUInt32BE(round, 0);
      header.writeUInt32BE(attempt, 4);
      header.writeUInt32BE(counter++, 8);
      block = createHash('sha256').update(seed).update('scopa1').update(header).digest();
      offset = 0;
    }
    return block[offset++];
  };
  const deck = Array.from({ length: 40 }, (_, c) => c);
  for (let i = 39; i > 0; i--) {
    const limit = 256 - (256 % (i + 1));
    let b = nextByte();
    while (b >= limit) b = nextByte();
    const j = b % (i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

describe('dealing from a seed', () => {
  it('is pinned: this seed always deals this deck (a change here breaks every recorded match)', () => {
    expect(cardCodes(Array.from(shuffledDeck(SEED, 1, 0)))).toEqual([
      '8B',
      '6B',
      '2B',
      '4B',
      '9B',
      '6C',
      '1D',
      '1S',
      '10C',
      '8S',
      '4C',
      '7D',
      '3C',
      '8C',
      '8D',
      '1C',
      '5C',
      '6D',
      '4S',
      '6S',
      '10S',
      '2S',
      '10D',
      '5B',
      '9S',
      '1B',
      '4D',
      '7B',
      '9D',
      '9C',
      '10B',
      '3B',
      '5D',
      '2D',
      '3S',
      '2C',
      '3D',
      '7S',
      '7C',
      '5S',
    ]);
    expect(cardCodes(Array.from(shuffledDeck(SEED, 2, 1))).slice(0, 6)).toEqual(['3S', '8S', '9B', '10D', '7B', '4S']);
  });

  it('follows the documented algorithm exactly', () => {
    for (let round = 1; round <= 5; round++) {
      for (let attempt = 0; attempt < 3; attempt++) {
        expect(Array.from(shuffledDeck(SEED, round, attempt))).toEqual(referenceShuffle(SEED, round, attempt));
      }
    }
  });

  it('gives a permutation of the 40 cards that depends on round and attempt', () => {
    const a = Array.from(shuffledDeck(SEED, 1, 0));
    expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, c) => c));
    expect(Array.from(shuffledDeck(SEED, 1, 1))).not.toEqual(a);
    expect(Array.from(shuffledDeck(SEED, 2, 0))).not.toEqual(a);
  });

  it('puts a card in every position about equally often (chi-square, fixed seeds)', () => {
    const counts = new Array<number>(40).fill(0);
    const runs = 8000;
    for (let r = 0; r < runs; r++) counts[shuffledDeck(SEED, r, 0).indexOf(0)]++;
    const expected = runs / 40;
    const chi2 = counts.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(72.05); // 39 degrees of freedom, p = 0.001
  });

  it('commits to a seed with its SHA-256', () => {
    expect(seedCommitment(new Uint8Array(32))).toBe('66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925');
    expect(toHex(SEED)).toBe('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
  });

  it('refuses a seed that is not 32 bytes', () => {
    expect(() => shuffledDeck(new Uint8Array(31), 1, 0)).toThrow(RangeError);
    expect(() => seedFromHex('abc')).toThrow(RangeError);
  });
});
