/**
 * Deals a test wants, through the public client seeds: the server seed of a
 * match is random and secret, but a suite runs the service in its own
 * process and may read it from the store; the deck follows from it and the
 * client seeds (src/engine/client-seeds.ts), so a search over one seat's
 * client seed, run through the engine, finds one whose first deal the test
 * wants (an initial-table capture, a hand with the matta that may be
 * declared, ...). The search is deterministic: the candidates are the
 * counters 1, 2, 3, ... as 4 bytes of hex, the first one that fits is
 * returned.
 */
import type { INestApplication } from '@nestjs/common';
import { PrismaService } from '../../src/database/prisma.service';
import { declarationsOf, parseCard, seedFromHex } from '../../src/engine';
import type { Declaration, MatchState } from '../../src/engine';
import { startedMatch } from '../../src/engine/testing';
import type { Driven } from '../../src/engine/testing';

/** A match's server seed (hex), read from the store (what the reveal at its end will show). */
export async function serverSeedOf(app: INestApplication, matchId: string): Promise<string> {
  const rows = await app.get(PrismaService).$queryRawUnsafe<{ seed: string }[]>('SELECT seed FROM matches WHERE id = $1::uuid', matchId);
  if (rows.length !== 1) throw new Error(`no match ${matchId}`);
  return rows[0].seed;
}

/**
 * The client seed `seat` should give, beside `clientSeeds` of the other
 * seats (null: none; bots give none), for the start of a `preset` match
 * with that server seed to deal what `wanted` accepts (it gets the engine's
 * state right after the start, and the events of the start). Throws when
 * none of `tries` candidates fits.
 */
export function clientSeedFor(
  serverSeed: string,
  preset: string,
  clientSeeds: readonly (string | null)[],
  seat: number,
  wanted: (started: Driven) => boolean,
  tries = 200_000,
): string {
  const seed = seedFromHex(serverSeed);
  for (let n = 1; n <= tries; n++) {
    const candidate = n.toString(16).padStart(8, '0');
    const seeds = clientSeeds.map((s, i) => (i === seat ? candidate : s));
    if (wanted(startedMatch(seed, preset, {}, seeds.length, { clientSeeds: seeds }))) return candidate;
  }
  throw new Error(`no client seed among ${tries} gives the deal wanted`);
}

/** The round's first deal gave the dealer's side the initial table. */
export function initialTableCaptured(started: Driven): boolean {
  return started.events.some((e) => e.type === 'InitialTableCaptured');
}

/** The declarations `seat`'s first hand qualifies for (cirulla: by matta value when it holds the matta). */
export function firstHandDeclarations(state: MatchState, seat: number): Declaration[] {
  return state.options ? declarationsOf(state.options, state.hands[seat]) : [];
}

/** `seat`'s first hand holds `card` (a code such as `7C`). */
export function holds(state: MatchState, seat: number, card: string): boolean {
  return state.hands[seat].includes(parseCard(card));
}
