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

// Scratch for hashing, reused by every call (they never overlap): one
// hasher reset from a pristine copy for each hash, and buffers over explicit
// ArrayBuffers, since taking a DataView of a small typed array that owns its
// bytes makes V8 move them off the heap, with a malloc, on every call.
const PRISTINE = sha256.create();
const HASHER = sha256.create();
const INPUT = new Uint8Array(new ArrayBuffer(SEED_BYTES + DOMAIN.length + 12));
const INPUT_VIEW = new DataView(INPUT.buffer);
const BLOCK = new Uint8Array(new ArrayBuffer(32));
const DIGEST = new Uint8Array(new ArrayBuffer(32));
INPUT.set(DOMAIN, SEED_BYTES);
const HEX: string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]];
  return s;
}

/** The public commitment to a seed: hex SHA-256 of its 32 bytes. */
export function seedCommitment(seed: Uint8Array): string {
  PRISTINE._cloneInto(HASHER);
  HASHER.update(seed).digestInto(DIGEST);
  return toHex(DIGEST);
}

const COUNTER_AT = SEED_BYTES + DOMAIN.length + 8;

/** Puts stream block i (of the seed, round and attempt already in INPUT) into BLOCK. */
function streamBlock(i: number): void {
  INPUT_VIEW.setUint32(COUNTER_AT, i);
  PRISTINE._cloneInto(HASHER);
  HASHER.update(INPUT).digestInto(BLOCK);
}

// Per bound 1..40: the rejection limit 256 - (256 mod bound), and
// ceil(2^16 / bound), with which (b * it) >>> 16 is exactly floor(b / bound)
// for every byte b (the error stays below b / 2^16 < 1 / bound): no division
// per draw.
const LIMIT = new Uint16Array(DECK_SIZE + 1);
const RECIPROCAL = new Uint32Array(DECK_SIZE + 1);
for (let bound = 1; bound <= DECK_SIZE; bound++) {
  LIMIT[bound] = 256 - (256 % bound);
  RECIPROCAL[bound] = Math.ceil(65536 / bound);
}

export function shuffledDeck(seed: Uint8Array, round: number, attempt: number): Uint8Array {
  if (seed.length !== SEED_BYTES) throw new RangeError('a seed is 32 bytes');
  const deck = new Uint8Array(DECK_SIZE);
  for (let c = 0; c < DECK_SIZE; c++) deck[c] = c as Card;
  INPUT.set(seed, 0);
  INPUT_VIEW.setUint32(SEED_BYTES + DOMAIN.length, round);
  INPUT_VIEW.setUint32(SEED_BYTES + DOMAIN.length + 4, attempt);
  let block = 0;
  let offset = 32; // next byte of BLOCK; 32: draw the next block first
  for (let i = DECK_SIZE - 1; i > 0; i--) {
    const bound = i + 1;
    const limit = LIMIT[bound];
    let b: number;
    do {
      if (offset === 32) {
        streamBlock(block++);
        offset = 0;
      }
      b = BLOCK[offset++];
    } while (b >= limit); // rejection sampling: every j below is equally likely
    const j = b - ((b * RECIPROCAL[bound]) >>> 16) * bound;
    const t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
  return deck;
}
