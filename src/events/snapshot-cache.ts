/**
 * Per-process snapshots of folded matches, least recently used evicted. Each is checked against the log's seq by the
 * append's guard, so an evicted or stale one costs a read, never a wrong decision.
 *
 * Bounded by count (SNAPSHOT_CACHE_SIZE, default 10,000): a snapshot is one match's state, 4 to 6 KB on the heap for a
 * two-player match of a few rounds (a finished match of `scopa` to 1 point about 3.8 KB, to 11 points about 5.7 KB),
 * so the default holds at most some 40 to 60 MB. Finished matches stay until newer ones push them out.
 */
import { LRUCache } from 'lru-cache';
import type { MatchState } from '../engine';

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
}

export class SnapshotCache {
  private readonly lru: LRUCache<string, Snapshot> | null;

  /** `capacity` 0 keeps nothing (every command folds the log). */
  constructor(readonly capacity = 10_000) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`snapshot cache capacity: a whole number >= 0, not ${capacity}`);
    this.lru = capacity > 0 ? new LRUCache<string, Snapshot>({ max: capacity }) : null;
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }

  get(matchId: string): Snapshot | undefined {
    return this.lru?.get(matchId);
  }

  /** Keeps the newer of the cached and the given snapshot. */
  put(matchId: string, snap: Snapshot): void {
    if (!this.lru) return;
    const old = this.lru.peek(matchId);
    if (old && old.seq > snap.seq) return;
    this.lru.set(matchId, snap);
  }

  delete(matchId: string): void {
    this.lru?.delete(matchId);
  }
}
