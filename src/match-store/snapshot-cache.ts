/**
 * Per-process snapshots of folded matches (the match stream's fold cache), least recently used evicted. Each is checked against the log's seq by the
 * append's guard, so an evicted or stale one costs a read, never a wrong decision.
 *
 * Bounded by count (SNAPSHOT_CACHE_SIZE, default 10,000): a snapshot is one match's state, 4 to 6 KB on the heap for a
 * two-player match of a few rounds (a finished match of `scopa` to 1 point about 3.8 KB, to 11 points about 5.7 KB),
 * so the default holds at most some 40 to 60 MB. Finished matches stay until newer ones push them out.
 */
import type { MatchState } from '../engine';
import { FoldCache } from '../stream-store/stream-store';

export interface Snapshot {
  seq: number;
  /** Hash of the event at seq. */
  hash: string;
  /** SECRET: holds the seed and the deck. */
  state: MatchState;
  /** The saved ruleset the match was created from (it never changes). */
  rulesetId: string | null;
  /** Whether the lobby lists the match while a seat is open (it never changes): what lets the reactions to an append skip a private or a public match without a read. */
  visibility: 'public' | 'private';
  /**
   * What its first event (MatchCreated) says, which never changes: when it was created (matches.created_at) and
   * whether every seat was seated then (a player or a bot). A match made to start (a rematch, a tournament table, a
   * challenge, a seek's pairing) always is; a person's create with an open or reserved seat never is, so its reads
   * skip the rematch and tournament-table lookups. Absent (a snapshot made otherwise): unknown, the lookups run.
   */
  createdAt?: Date;
  createdFull?: boolean;
}

/** The match stream's fold cache (../stream-store/stream-store.ts FoldCache) of snapshots. */
export class SnapshotCache extends FoldCache<Snapshot> {
  /** `capacity` 0 keeps nothing (every command folds the log). */
  constructor(capacity = 10_000) {
    super(capacity, 'snapshot cache');
  }
}
