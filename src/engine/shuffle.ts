/**
 * Deck order as a pure function of (seed, round, redeal attempt).
 *
 * Stream: block i = SHA-256(seed || "scopa1" || u32be(round) ||
 * u32be(attempt) || u32be(i)) (50 bytes in, so one SHA-256 compression per
 * block); the stream is the bytes of blocks 0, 1, 2, ... in order. Shuffle: Fisher-Yates from the top (for i = 39 down to 1, swap
 * deck[i] with deck[j], j uniform in 0..i) over the deck sorted by card index
 * (1D..10D, 1C..10C, 1S..10S, 1B..10B). j comes from the next stream byte b
 * with rejection sampling: redraw while b >= 256 - (256 mod (i+1)), then
 * j = b mod (i+1), so every j is exactly equally likely.
 */
import { sha256 } from '@noble/hashes/sha2';
import { DECK_SIZE } from './cards';
import type { Card } from './cards';

const DOMAIN = new TextEncoder().encode('scopa1');

export const SEED_BYTES = 32;

export function isSeedHex(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

export function seedFromHex(hex: string): Uint8Array {
  if (!isSeedHex(hex)) throw new RangeError('a seed is 64 lowercase hex characters');
  const out = new Uint8Array(SEED_BYTES);
  for (let i = 0; i < SEED_BYTES; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += bytes[i].toString(16).padStart(2, '0');
  return s;
}

/** The public commitment to a seed: hex SHA-256 of its 32 bytes. */
export function seedCommitment(seed: Uint8Array): string {
  return toHex(sha256(seed));
}

class DealStream {
  private readonly input: Uint8Array;
  private readonly view: DataView;
  private block: Uint8Array = new Uint8Array(0);
  private offset = 32;
  private counter = 0;

  constructor(seed: Uint8Array, round: number, attempt: number) {
    this.input = new Uint8Array(SEED_BYTES + DOMAIN.length + 12);
    this.input.set(seed, 0);
    this.input.set(DOMAIN, SEED_BYTES);
    this.view = new DataView(this.input.buffer);
    this.view.setUint32(SEED_BYTES + DOMAIN.length, round);
    this.view.setUint32(SEED_BYTES + DOMAIN.length + 4, attempt);
  }

  private nextByte(): number {
    if (this.offset === 32) {
      this.view.setUint32(SEED_BYTES + DOMAIN.length + 8, this.counter++);
      this.block = sha256(this.input);
      this.offset = 0;
    }
    return this.block[this.offset++];
  }

  /** Uniform integer in 0..bound-1 (bound <= 256). */
  below(bound: number): number {
    const limit = 256 - (256 % bound);
    for (;;) {
      const b = this.nextByte();
      if (b < limit) return b % bound;
    }
  }
}

export function shuffledDeck(seed: Uint8Array, round: number, attempt: number): Uint8Array {
  if (seed.length !== SEED_BYTES) throw new RangeError('a seed is 32 bytes');
  const deck = new Uint8Array(DECK_SIZE);
  for (let c = 0; c < DECK_SIZE; c++) deck[c] = c as Card;
  const stream = new DealStream(seed, round, attempt);
  for (let i = DECK_SIZE - 1; i > 0; i--) {
    const j = stream.below(i + 1);
    const t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
  return deck;
}
