/**
 * The seeds of a duplicate tournament (docs/fairness.md "Duplicate
 * tournaments"): every table of a round is dealt the same cards, and no
 * table and no single party chooses them.
 *
 * 1. At creation the service draws a 32-byte master seed M (CSPRNG) and
 *    commits to it in TournamentCreated: `seedCommitment` = hex SHA-256(M).
 * 2. Players give a client seed (1 to 64 bytes, hex) with their join, after
 *    that commitment: it is public in PlayerJoined.
 * 3. Round n's seed is R_n = SHA-256("scopa-round/1" ‖ M ‖ u32be(n)); its
 *    commitment hex SHA-256(R_n) is in RoundPaired, R_n itself in RoundEnded
 *    (revealing R_n reveals neither M nor another round's seed), and M in
 *    TournamentEnded.
 * 4. The server seed of every table of round n is
 *      D_n = SHA-256("scopa-duplicate/1" ‖ R_n ‖ for each player of the
 *            round's tables, in table order, first seat then second:
 *            u8(length) ‖ clientSeed)
 *    (a player without a seed adds u8(0); the bye is not at a table). Each
 *    table's match is created with server seed D_n and takes no seat seeds,
 *    so its deck seed (`scopa-seed/2`, src/engine/client-seeds.ts) is
 *    SHA-256("scopa-seed/2" ‖ D_n ‖ u8(0) ‖ u8(0)): the same at every
 *    table, and the match's own audit (MatchEnded reveals D_n) applies.
 */
import { createHash } from 'node:crypto';

export const SEED_BYTES = 32;

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const bytesOf = (hex: string): Buffer => Buffer.from(hex, 'hex');

export function seedCommitment(seedHex: string): string {
  return createHash('sha256').update(bytesOf(seedHex)).digest('hex');
}

export function roundSeed(masterHex: string, round: number): string {
  const n = Buffer.alloc(4);
  n.writeUInt32BE(round);
  return createHash('sha256').update('scopa-round/1').update(bytesOf(masterHex)).update(n).digest('hex');
}

/** D_n: the server seed of every table of a round, from the round seed and the seeds of its seated players in table order. */
export function tableSeed(roundSeedHex: string, clientSeeds: readonly (string | null)[]): string {
  const hash = createHash('sha256').update('scopa-duplicate/1').update(bytesOf(roundSeedHex));
  for (const seed of clientSeeds) {
    const bytes = seed ? bytesOf(seed) : Buffer.alloc(0);
    hash.update(Uint8Array.of(bytes.length)).update(bytes);
  }
  return hexOf(hash.digest());
}
