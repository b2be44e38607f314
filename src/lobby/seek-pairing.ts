/**
 * Seek pairing (docs/lobby.md "Pairing"). The database is the queue: an
 * attempt is ONE transaction that
 * 1. takes the bucket's advisory lock (pg_advisory_xact_lock): attempts on a
 *    bucket run one after the other on every instance, and each one, having
 *    waited, reads every seek committed before it (so a seek is never left
 *    out while a compatible one waits, whichever instance took it);
 * 2. reads the bucket's open seeks, oldest first, FOR UPDATE (a concurrent
 *    cancel or expiry waits for the outcome and then finds the seek taken);
 * 3. groups them, oldest compatible first (distinct players, no two blocked
 *    either way, read in the statement of step 2 through the relations'
 *    fragment, each inside the others' rating range when rated);
 * 4. for each group has the one match maker (src/matches/match-maker.ts)
 *    make the match with every seat taken, seats drawn from the match seed's
 *    entropy, and start it: in the create statement when CLIENT_SEED_WINDOW
 *    is 0, else as a pending start (dealt when the players' seeds are in, or
 *    at the window's end: a durable row any instance's clock scheduler
 *    issues); marks the seeks paired and writes the `match_started` webhook
 *    outbox rows;
 * and commits, or (a crash, an error) leaves nothing: no half-made match,
 * no seek taken without its match. After the commit: `seekPaired` on each
 * player's channel, then the store's reactions (notices, lobby, metrics).
 */
import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { SeatSpec } from '../engine';
import { PrismaService } from '../database/prisma.service';
import { MatchMaker } from '../matches/match-maker';
import type { MadeInTransaction } from '../matches/match-maker';
import { lockForTransaction } from '../database/advisory-lock';
import { SeeksStore } from './seeks-store';
import type { PairingSeekRow, SeekRow } from './seeks-store';

/** Matches made per transaction (an attempt reads up to 400 seeks: ./seeks-store.ts; a longer queue takes another attempt at once). */
const MATCHES_PER_TRANSACTION = 25;

type Pairable = Pick<SeekRow, 'player' | 'rated' | 'rating' | 'rating_min' | 'rating_max'> & Partial<Pick<PairingSeekRow, 'blocked_players'>>;

/**
 * Two seeks may meet: other players, not blocked either way (the players each seek's row was read with must not
 * meet: ./seeks-store.ts, src/relations/blocked-pairs.ts), and when rated each inside the other's rating range.
 */
export function compatible(a: Pairable, b: Pairable): boolean {
  if (a.player === b.player) return false;
  if (a.blocked_players?.includes(b.player) || b.blocked_players?.includes(a.player)) return false;
  if (!a.rated) return true;
  const inside = (s: typeof a, rating: number) => (s.rating_min === null || rating >= s.rating_min) && (s.rating_max === null || rating <= s.rating_max);
  return inside(a, b.rating) && inside(b, a.rating);
}

/**
 * Groups of `size` mutually compatible seeks, oldest first: the oldest seek
 * not yet grouped takes the oldest compatible ones after it; a seek that can
 * complete no group waits.
 */
export function groupSeeks<T extends Pairable & Pick<SeekRow, 'players'>>(seeks: T[], maxGroups = Infinity): T[][] {
  const used = new Set<number>();
  const groups: T[][] = [];
  for (let i = 0; i < seeks.length && groups.length < maxGroups; i++) {
    if (used.has(i)) continue;
    const size = seeks[i].players;
    const group = [i];
    for (let j = i + 1; j < seeks.length && group.length < size; j++) {
      if (used.has(j)) continue;
      if (group.every((k) => compatible(seeks[k], seeks[j]))) group.push(j);
    }
    if (group.length === size) {
      for (const k of group) used.add(k);
      groups.push(group.map((k) => seeks[k]));
    }
  }
  return groups;
}

/**
 * A uniformly random order of `n` seats from 32 bytes of entropy:
 * Fisher-Yates from the last position down, one byte per draw with rejection
 * sampling (no modulo bias), as the deck's shuffle. 32 bytes are far more
 * than six seats need; should they run out, the bytes are hashed again.
 */
export function seatOrder(n: number, entropy: Uint8Array): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  let bytes = entropy;
  let at = 0;
  const next = (): number => {
    if (at >= bytes.length) {
      bytes = new Uint8Array(createHash('sha256').update(bytes).digest());
      at = 0;
    }
    return bytes[at++];
  };
  for (let i = n - 1; i >= 1; i--) {
    const bound = 256 - (256 % (i + 1));
    let b = next();
    while (b >= bound) b = next();
    const j = b % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

@Injectable()
export class Pairing {
  /** Attempts under way in this process, per bucket, and whether another must follow (a seek came meanwhile). */
  private readonly running = new Map<string, { promise: Promise<void>; again: boolean }>();

  constructor(
    private readonly prisma: PrismaService,
    private readonly seeks: SeeksStore,
    private readonly maker: MatchMaker,
  ) {}

  /**
   * Pairs what can be paired in `bucket`. In this process one attempt per
   * bucket runs at a time; a call while one runs makes one more follow it
   * (and resolves after that one), so every seek committed before the call is
   * looked at by an attempt that starts after it.
   */
  attempt(bucket: string): Promise<void> {
    const current = this.running.get(bucket);
    if (current) {
      current.again = true;
      return current.promise;
    }
    const entry = { promise: Promise.resolve(), again: false };
    entry.promise = (async () => {
      try {
        do {
          entry.again = false;
          while ((await this.attemptOnce(bucket)) === MATCHES_PER_TRANSACTION) {
            // a full transaction: there may be more to pair
          }
        } while (entry.again);
      } finally {
        this.running.delete(bucket);
      }
    })();
    this.running.set(bucket, entry);
    return entry.promise;
  }

  /** One transaction; returns the matches it made. */
  private async attemptOnce(bucket: string): Promise<number> {
    const made = await this.prisma.$transaction(
      async (tx) => {
        await lockForTransaction(tx, `seeks:${bucket}`);
        const seeks = await this.seeks.openForPairing(tx, bucket);
        const out: MadeInTransaction[] = [];
        for (const group of groupSeeks(seeks, MATCHES_PER_TRANSACTION)) {
          const first = group[0];
          const order: string[] = [];
          const seatOf = (s: SeekRow) => order.indexOf(s.player);
          out.push(
            await this.maker.makeInTransaction(tx, {
              rules: first.ruleset_id
                ? { ruleset: { id: first.ruleset_id, preset: first.preset, overrides: first.overrides } }
                : { preset: first.preset, overrides: first.overrides },
              createdBy: first.player,
              settings: { turnTimeLimit: first.turn_time_limit, onExpiry: first.on_expiry as 'autoPlay' | 'forfeit', ...(first.rated ? { rated: true } : {}) },
              visibility: 'public',
              arrangeSeats: (entropy): SeatSpec[] => {
                for (const k of seatOrder(group.length, entropy)) order.push(group[k].player);
                return order.map((player) => ({ player }));
              },
              // The start, in the first seek's player's name.
              startBy: first.player,
              after: async (t, matchId) => {
                const paired = await this.seeks.markPaired(
                  t,
                  matchId,
                  group.map((s) => ({ id: s.id, seat: seatOf(s) })),
                );
                if (paired !== group.length) throw new Error(`pairing: ${paired} of ${group.length} seeks were still open`);
              },
              // seekPaired to each player (and its match_started webhook).
              announce: (matchId) =>
                group.map((s) => ({
                  player: s.player,
                  event: { type: 'seekPaired', seekId: s.id, matchId, seat: seatOf(s), preset: first.preset, rulesetId: first.ruleset_id, players: [...order] },
                })),
            }),
          );
        }
        return out;
      },
      { maxWait: 60_000, timeout: 60_000 },
    );
    for (const m of made) await m.publish();
    return made.length;
  }
}
