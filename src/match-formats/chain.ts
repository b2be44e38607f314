/**
 * The hash chain over a match's log. For event n (seq n, from 1):
 *
 *   hash_n = hex(sha256(prev_hash_n || canonical_json({matchId, seq, type, payload, actor})))
 *
 * where prev_hash_n is hash_{n-1} (64 zeros for the first event) as its 64
 * ASCII hex characters, `||` is concatenation, and canonical_json is RFC 8785
 * (JSON Canonicalization Scheme, npm `canonicalize`) encoded as UTF-8.
 * `actor` is null when no player acted (a clock expiry). This is the chain the
 * store keeps (and verify() checks) and the chain of `scopa-match/1` exports:
 * the match stream's (MATCH_STREAM) of the generic stream chain, ../stream-store/stream-store.ts.
 *
 * Exports from `scopa-match/2` chain the times too (timedEventHash): the
 * canonical JSON also holds `time`, the event's append time as the export
 * writes it (ISO 8601, UTC, milliseconds), so a re-dated event breaks the
 * chain (and the signature over the last hash, export.ts).
 */
import type { MatchEvent } from '../engine';
import { chainStream, joinStreamEvent, splitStreamEvent, streamHash, verifyStream } from '../stream-store/stream-store';
import type { ChainVerdict, StreamEvent, StreamKind } from '../stream-store/stream-store';

export { GENESIS_HASH, canonicalJson, sha256Hex } from '../stream-store/stream-store';
export type { ChainVerdict } from '../stream-store/stream-store';

/** A match's log as a stream: `matchId` in the hash, untimed as stored, export lines without the id. */
export const MATCH_STREAM: StreamKind = { name: 'match', idKey: 'matchId', timed: false, linesCarryId: false };

/** What the chain covers of one event, plus its links. */
export interface ChainedEvent {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  actor: string | null;
  prevHash: string;
  hash: string;
}

/** One event as stored and as served: public by construction. */
export interface StoredEvent extends ChainedEvent {
  matchId: string;
  /** When it was appended. */
  time: Date;
}

export function eventHash(prevHash: string, matchId: string, event: { seq: number; type: string; payload: unknown; actor: string | null }): string {
  return streamHash(MATCH_STREAM, matchId, prevHash, event as StreamEvent);
}

/** `scopa-match/2`: as eventHash, with the event's time (ISO 8601 text) inside the hash. */
export function timedEventHash(
  prevHash: string,
  matchId: string,
  event: { seq: number; type: string; payload: unknown; actor: string | null; time: string },
): string {
  return streamHash(MATCH_STREAM, matchId, prevHash, event as StreamEvent, event.time);
}

/** Engine event -> stored (type, payload) split. */
export function splitEvent(event: MatchEvent): { type: string; payload: Record<string, unknown> } {
  return splitStreamEvent(event);
}

export function joinEvent(stored: { type: string; payload: Record<string, unknown> }): MatchEvent {
  return joinStreamEvent<MatchEvent>(stored);
}

/** Events that start a command's batch; the others only follow one (see engine/audit.ts commandOf). */
export const BATCH_START_TYPES: ReadonlySet<string> = new Set([
  'MatchCreated',
  'SeatTaken',
  'ClientSeedGiven',
  'MatchStarted',
  'HandDeclared',
  'CardPlayed',
  'SeatResigned',
  'SeatForfeited',
  'MatchAborted',
  'ClockPaused',
  'ClockResumed',
]);

/** Chains engine events after (lastSeq, lastHash). */
export function chainEvents(matchId: string, lastSeq: number, lastHash: string, events: readonly MatchEvent[], actor: string | null): ChainedEvent[] {
  return chainStream(MATCH_STREAM, matchId, { seq: lastSeq, hash: lastHash }, events, actor) as ChainedEvent[];
}

/**
 * Recomputes the chain of a log given in seq order (`timed`: the
 * `scopa-match/2` chain, each event with its `time` text). `expectedLast` is the seq
 * the match says it is at (to detect deleted events at the end).
 */
export function verifyChain(matchId: string, events: readonly ChainedEvent[], expectedLast?: number, timed = false): ChainVerdict {
  return verifyStream(MATCH_STREAM, matchId, events, expectedLast, timed);
}
