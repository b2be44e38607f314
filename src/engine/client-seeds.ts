/**
 * Player-contributed seeds (`scopa-rules/2`): nobody stacks the deck, not
 * even the operator.
 *
 * The server commits to its 32-byte seed in MatchCreated. Until the match
 * starts, each human seat may give one client seed (1 to 64 bytes, hex),
 * logged in public at once. At the start the deck seed is
 *
 *   SHA-256("scopa-seed/2" || serverSeed || for each seat in seat order:
 *            u8(length) || clientSeed)
 *
 * where a seat that gave none contributes length 0 and no bytes. Every
 * round's deck then follows from the deck seed by the shuffle (shuffle.ts),
 * exactly as it followed from the server seed under `scopa-rules/1`. The
 * length prefix keeps the encoding unambiguous: no two lists of seeds give
 * the same bytes.
 */
import { sha256 } from '@noble/hashes/sha2';
import { SEED_BYTES } from './shuffle';
import type { MatchState } from './types';
import { takesClientSeeds } from './version';

export const CLIENT_SEED_MAX_BYTES = 64;

const DOMAIN = new TextEncoder().encode('scopa-seed/2');

/** The client seed as the log records it (lowercase hex), or null when it is not 1 to 64 bytes of hex. */
export function normalizeClientSeed(value: unknown): string | null {
  if (typeof value !== 'string' || value.length < 2 || value.length > 2 * CLIENT_SEED_MAX_BYTES || value.length % 2 !== 0) return null;
  if (!/^[0-9a-fA-F]+$/.test(value)) return null;
  return value.toLowerCase();
}

export function bytesFromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The deck seed of a `scopa-rules/2` match: its server seed and each seat's client seed (hex, or null). */
export function deriveDeckSeed(serverSeed: Uint8Array, clientSeeds: readonly (string | null)[]): Uint8Array {
  if (serverSeed.length !== SEED_BYTES) throw new RangeError('a server seed is 32 bytes');
  const hash = sha256.create().update(DOMAIN).update(serverSeed);
  for (const hex of clientSeeds) {
    if (hex !== null && normalizeClientSeed(hex) !== hex) throw new RangeError('a client seed is 1 to 64 bytes of lowercase hex');
    const bytes = hex === null ? new Uint8Array(0) : bytesFromHex(hex);
    hash.update(Uint8Array.of(bytes.length)).update(bytes);
  }
  return hash.digest();
}

/** The seed the decks of a match follow from: the server seed itself before `scopa-rules/2`. */
export function deckSeedOf(rulesVersion: string, serverSeed: Uint8Array, clientSeeds: readonly (string | null)[]): Uint8Array {
  return takesClientSeeds(rulesVersion) ? deriveDeckSeed(serverSeed, clientSeeds) : serverSeed;
}

/**
 * Human seats (taken or open) that have not given a client seed yet, in seat
 * order: a service that waits for the seeds before starting waits for these.
 * Empty once the match has started, for bot seats, and under `scopa-rules/1`.
 */
export function seatsAwaitingClientSeed(state: MatchState): number[] {
  if (state.phase !== 'open' || !takesClientSeeds(state.rulesVersion)) return [];
  const out: number[] = [];
  for (let seat = 0; seat < state.seats.length; seat++) if (!state.seats[seat].bot && state.clientSeeds[seat] === null) out.push(seat);
  return out;
}
