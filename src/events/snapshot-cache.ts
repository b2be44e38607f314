/** Per-process snapshots of folded matches, least recently used evicted. Each is checked against the log's seq by the append's guard. */
import type { MatchState } from '../engine';

export interface Snapshot {
  seq: number;
  /** Hash of the event at seq. */
  hash: string;
  /** SECRET: holds the seed and the deck. */
  state: MatchState;
  /** The saved ruleset the match was created from (it never changes). */
  rulesetId: string | null;
}

export class SnapshotCache {
  private readonly map = new Map<string, Snapshot>();

  constructor(private readonly capacity = 10_000) {}

  get(matchId: string): Snapshot | undefined {
    const snap = this.map.get(matchId);
    if (snap) {
      this.map.delete(matchId);
      this.map.set(matchId, snap);
    }
    return snap;
  }

  /** Keeps the newer of the cached and the given snapshot. */
  put(matchId: string, snap: Snapshot): void {
    const old = this.map.get(matchId);
    if (old && old.seq > snap.seq) return;
    this.map.delete(matchId);
    this.map.set(matchId, snap);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
  }

  delete(matchId: string): void {
    this.map.delete(matchId);
  }
}
