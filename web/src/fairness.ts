/**
 * The provably-fair checks, done in this browser with Web Crypto (docs/fairness.md,
 * "Dealing from a seed" and "Player-contributed seeds"): a fresh client seed
 * from the platform's CSPRNG; sha256(server seed) against the commitment;
 * the deck seed from the revealed server seed and the seats' client seeds;
 * and every deal's face-up table re-shuffled from it. Nothing here trusts
 * the service's audit: it re-derives the cards from the seeds alone.
 */

/** A client seed: 32 bytes from crypto.getRandomValues, as hex. */
export function freshClientSeed(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

export function toHex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function fromHex(hex: string): Uint8Array | null {
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) return null;
  return new Uint8Array((hex.match(/../g) ?? []).map((b) => parseInt(b, 16)));
}

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', all));
}

export const canVerify = (): boolean => !!globalThis.crypto?.subtle;

/** hex sha256 of the server seed's bytes: what MatchCreated committed to. */
export async function commitmentOf(seedHex: string): Promise<string | null> {
  const seed = fromHex(seedHex);
  return seed && canVerify() ? toHex(await sha256(seed)) : null;
}

const ascii = (s: string) => new TextEncoder().encode(s);

/**
 * The seed every deck follows from: under scopa-rules/2,
 * SHA-256("scopa-seed/2" ‖ serverSeed ‖ for each seat: u8(length) ‖ clientSeed);
 * before it, the server seed itself.
 */
export async function deckSeedOf(rulesVersion: string, serverSeedHex: string, clientSeeds: readonly (string | null)[]): Promise<Uint8Array> {
  const server = fromHex(serverSeedHex)!;
  if (rulesVersion === 'scopa-rules/1') return server;
  const parts: Uint8Array[] = [ascii('scopa-seed/2'), server];
  for (const hex of clientSeeds) {
    const bytes = hex === null ? new Uint8Array(0) : fromHex(hex)!;
    parts.push(Uint8Array.of(bytes.length), bytes);
  }
  return sha256(...parts);
}

const SUITS = ['D', 'C', 'S', 'B'];
const cardCode = (c: number) => `${(c % 10) + 1}${SUITS[Math.floor(c / 10)]}`;

/**
 * The deck of (round, attempt) as card codes, top first: Fisher-Yates from
 * the top over 1D..10D, 1C..10C, 1S..10S, 1B..10B, drawing bytes from the
 * stream SHA-256(seed ‖ "scopa1" ‖ u32be(round) ‖ u32be(attempt) ‖ u32be(block))
 * with rejection sampling (redraw while b >= 256 - 256 mod (i+1)).
 */
export async function shuffledDeck(deckSeed: Uint8Array, round: number, attempt: number): Promise<string[]> {
  const deck = Array.from({ length: 40 }, (_, c) => c);
  const prefix = new Uint8Array(deckSeed.length + 6 + 8);
  prefix.set(deckSeed, 0);
  prefix.set(ascii('scopa1'), deckSeed.length);
  const view = new DataView(prefix.buffer);
  view.setUint32(deckSeed.length + 6, round);
  view.setUint32(deckSeed.length + 10, attempt);
  let block = 0;
  let bytes: Uint8Array = new Uint8Array(0);
  let offset = 0;
  for (let i = 39; i > 0; i--) {
    const bound = i + 1;
    const limit = 256 - (256 % bound);
    let b: number;
    do {
      if (offset === bytes.length) {
        const counter = new Uint8Array(4);
        new DataView(counter.buffer).setUint32(0, block++);
        bytes = await sha256(prefix, counter);
        offset = 0;
      }
      b = bytes[offset++];
    } while (b >= limit);
    const j = b % bound;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck.map(cardCode);
}

export interface Dealt {
  round: number;
  attempt: number;
  table: string[];
}

/** Each deal's table against the top of its deck re-shuffled here: the first that differs, or null when all follow. */
export async function firstDealNotFollowing(deckSeed: Uint8Array, deals: readonly Dealt[]): Promise<Dealt | null> {
  for (const d of deals) {
    const deck = await shuffledDeck(deckSeed, d.round, d.attempt);
    if (deck.slice(0, d.table.length).join(' ') !== d.table.join(' ')) return d;
  }
  return null;
}

export interface FairnessReport {
  /** sha256(revealed seed) equals the commitment of MatchCreated. */
  commitmentOk: boolean;
  /** The commitment (event 1) came before every client seed. */
  committedFirst: boolean;
  deckSeed: string;
  deals: number;
  /** The first deal whose table does not follow from the seeds, or null. */
  badDeal: Dealt | null;
  /** Seats that gave a seed (bots never do). */
  seeded: number[];
  /** The viewer's own seat and seed, and round 1's first table without that seed (null: no seat or no seed). */
  mine: { seat: number; seed: string; tableWithout: string[]; table: string[] } | null;
}

interface LoggedEvent {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
}

/** Everything the replay page says about the seeds of a finished match, re-derived here from the log and the revealed seed. */
export async function checkFairness(
  rulesVersion: string,
  commitment: string,
  serverSeedHex: string,
  clientSeeds: readonly (string | null)[],
  events: readonly LoggedEvent[],
  mySeat: number | null,
): Promise<FairnessReport> {
  const deals: Dealt[] = events
    .filter((e) => e.type === 'RoundDealt')
    .map((e) => ({ round: Number(e.payload.round), attempt: Number(e.payload.attempt), table: e.payload.table as string[] }));
  const seedEvents = events.filter((e) => e.type === 'ClientSeedGiven' || (e.type === 'SeatTaken' && typeof e.payload.clientSeed === 'string'));
  const deckSeed = await deckSeedOf(rulesVersion, serverSeedHex, clientSeeds);
  const badDeal = await firstDealNotFollowing(deckSeed, deals);
  let mine: FairnessReport['mine'] = null;
  const mySeed = mySeat === null ? null : (clientSeeds[mySeat] ?? null);
  if (mySeat !== null && mySeed !== null && deals.length > 0) {
    const without = clientSeeds.map((s, seat) => (seat === mySeat ? null : s));
    const first = deals[0];
    const tableWithout = (await shuffledDeck(await deckSeedOf(rulesVersion, serverSeedHex, without), first.round, first.attempt)).slice(0, first.table.length);
    mine = { seat: mySeat, seed: mySeed, tableWithout, table: first.table };
  }
  return {
    commitmentOk: (await commitmentOf(serverSeedHex)) === commitment,
    committedFirst: events[0]?.type === 'MatchCreated' && seedEvents.every((e) => e.seq > events[0].seq),
    deckSeed: toHex(deckSeed),
    deals: deals.length,
    badDeal,
    seeded: clientSeeds.flatMap((s, seat) => (s === null ? [] : [seat])),
    mine,
  };
}
