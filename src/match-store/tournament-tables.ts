/**
 * Who may read a tournament's match while its round runs (docs/tournaments.md
 * "Duplicate"): every table of a duplicate round is dealt the same cards, so
 * until the round ends a table is hidden from everyone but its two players
 * (no view, no events, no live feed, no export, no archive entry): a player
 * who could watch another table would see their own cards played. Read by
 * every match read path (matches, archives, streams), which is why it lives
 * beside the match store, which imports none of them: one indexed lookup
 * (tournament_tables.match_id is unique) per read of one match, which the
 * matches service skips for a match its snapshot shows to be no table
 * (public, or created with a seat open or reserved).
 *
 * Its own players are not told more before the round ends either: a table
 * that is over while its round runs keeps its reveal (the seed, every hand,
 * the deck: the view's `reveal`, MatchEnded's `seed` in the events and live
 * feeds, the export, the notation, the analysis, the summaries'
 * `revealedSeed`) until the round's end (`undisclosed`), since every other
 * table of the round holds those same cards.
 */
import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { TournamentTablesStore } from './tournament-tables-store';
import type { Snapshot } from './snapshot-cache';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a match may be a tournament table, by its snapshot (no read): every table is made private with both its
 * players seated, so a public match, or one created with a seat open or reserved, is none. Without a snapshot: maybe
 * (the lookup decides).
 */
export function mayBeTable(snap: Snapshot | undefined): boolean {
  return !snap || (snap.visibility === 'private' && snap.createdFull !== false);
}

/** The message of a reveal that waits for its round's end. */
export const REVEAL_WAITS = 'this table of a duplicate tournament round keeps its reveal (seed, hands, export, analysis) until the round ends';

@Injectable()
export class TournamentTables {
  constructor(private readonly store: TournamentTablesStore) {}

  /** The matches among `matchIds` that `viewer` (null: anonymous) may not read now. */
  async hiddenFrom(viewer: string | null, matchIds: readonly string[]): Promise<Set<string>> {
    if (matchIds.length === 0) return new Set();
    const rows = await this.store.runningDuplicates(matchIds);
    return new Set(rows.filter((r) => viewer === null || !r.players.includes(viewer)).map((r) => r.match_id));
  }

  /** Whether the match is a table of a tournament (any round, any format). */
  async isTable(matchId: string): Promise<boolean> {
    if (!UUID.test(matchId)) return false;
    return this.store.isTable(matchId);
  }

  /** The matches among `matchIds` whose reveal waits, for everyone (their players too): tables of a duplicate round that runs. */
  async undisclosed(matchIds: readonly string[]): Promise<Set<string>> {
    const ids = matchIds.filter((id) => UUID.test(id));
    if (ids.length === 0) return new Set();
    const rows = await this.store.runningDuplicates(ids);
    return new Set(rows.map((r) => r.match_id));
  }

  /** TOURNAMENT_TABLE_HIDDEN, for anyone, when the match's reveal waits for its round's end (an export, an analysis). */
  async assertDisclosed(matchId: string): Promise<void> {
    if ((await this.undisclosed([matchId])).size > 0) throw new DomainError('TOURNAMENT_TABLE_HIDDEN', REVEAL_WAITS, { matchId });
  }

  /** TOURNAMENT_TABLE_HIDDEN when `viewer` may not read this match now. */
  async assertMayRead(viewer: string | null, matchId: string): Promise<void> {
    if (!/^[0-9a-f-]{36}$/i.test(matchId)) return;
    if ((await this.hiddenFrom(viewer, [matchId])).size > 0) {
      throw new DomainError('TOURNAMENT_TABLE_HIDDEN', 'this table of a duplicate tournament round is hidden until the round ends', { matchId });
    }
  }
}
