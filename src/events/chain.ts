/**
 * The hash chain over a match's log. For event n (seq n, from 1):
 *
 *   hash_n = hex(sha256(prev_hash_n || canonical_json({matchId, seq, type, payload, actor})))
 *
 * where prev_hash_n is hash_{n-1} (64 zeros for the first event) as its 64
 * ASCII hex characters, `||` is concatenation, and canonical_json is RFC 8785
 * (JSON Canonicalization Scheme, npm `canonicalize`) encoded as UTF-8.
 * `actor` is null when no player acted (a clock expiry). This is the chain the
 * store keeps (and verify() checks) and the chain of `scopa-match/1` exports.
 *
 * Exports from `scopa-match/2` chain the times too (timedEventHash): the
 * canonical JSON also holds `time`, the event's append time as the export
 * writes it (ISO 8601, UTC, milliseconds), so a re-dated event breaks the
 * chain (and the signature over the last hash, export.ts).
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { MatchEvent } from '../engine';

export const GENESIS_HASH = '0'.repeat(64);

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

export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value cannot be canonicalized');
  return text;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function eventHash(prevHash: string, matchId: string, event: { seq: number; type: string; payload: unknown; actor: string | null }): string {
  return sha256Hex(prevHash + canonicalJson({ matchId, seq: event.seq, type: event.type, payload: event.payload, actor: event.actor }));
}

/** `scopa-match/2`: as eventHash, with the event's time (ISO 8601 text) inside the hash. */
export function timedEventHash(prevHash: string, matchId: string, event: { seq: number; type: string; payload: unknown; actor: string | null; time: string }): string {
  return sha256Hex(
    prevHash + canonicalJson({ matchId, seq: event.seq, type: event.type, payload: event.payload, actor: event.actor, time: event.time }),
  );
}

/** Engine event -> stored (type, payload) split. */
export function splitEvent(event: MatchEvent): { type: string; payload: Record<string, unknown> } {
  const { type, ...payload } = event as MatchEvent & Record<string, unknown>;
  return { type, payload };
}

export function joinEvent(stored: { type: string; payload: Record<string, unknown> }): MatchEvent {
  return { type: stored.type, ...stored.payload } as MatchEvent;
}

/** Events that start a command's batch; the others only follow one (see engine/audit.ts commandOf). */
export const BATCH_START_TYPES: ReadonlySet<string> = new Set(['MatchCreated', 'SeatTaken', 'ClientSeedGiven', 'MatchStarted', 'HandDeclared', 'CardPlayed', 'SeatResigned', 'SeatForfeited', 'MatchAborted']);

/** Chains engine events after (lastSeq, lastHash). */
export function chainEvents(matchId: string, lastSeq: number, lastHash: string, events: readonly MatchEvent[], actor: string | null): ChainedEvent[] {
  const out: ChainedEvent[] = [];
  let prev = lastHash;
  let seq = lastSeq;
  for (const event of events) {
    const { type, payload } = splitEvent(event);
    seq++;
    const hash = eventHash(prev, matchId, { seq, type, payload, actor });
    out.push({ seq, type, payload, actor, prevHash: prev, hash });
    prev = hash;
  }
  return out;
}

export type ChainVerdict = { ok: true; events: number; lastHash: string } | { ok: false; seq: number; reason: string };

/**
 * Recomputes the chain of a log given in seq order (`timed`: the
 * `scopa-match/2` chain, each event with its `time` text). `expectedLast` is the seq
 * the match says it is at (to detect deleted events at the end).
 */
export function verifyChain(matchId: string, events: readonly ChainedEvent[], expectedLast?: number, timed = false): ChainVerdict {
  let prev = GENESIS_HASH;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const seq = i + 1;
    if (e.seq !== seq) {
      return { ok: false, seq, reason: e.seq > seq ? `event ${seq} is missing (the next one stored is ${e.seq})` : `event ${e.seq} is out of place at position ${seq}` };
    }
    if (e.prevHash !== prev) return { ok: false, seq, reason: `prev_hash does not link to event ${seq - 1} (reordered, replaced or removed event)` };
    const hash = timed ? timedEventHash(prev, matchId, e as ChainedEvent & { time: string }) : eventHash(prev, matchId, e);
    if (hash !== e.hash) return { ok: false, seq, reason: `hash does not match the event content${timed ? ' or time' : ''} (altered event)` };
    prev = hash;
  }
  if (expectedLast !== undefined && expectedLast !== events.length) {
    return expectedLast > events.length
      ? { ok: false, seq: events.length + 1, reason: `event ${events.length + 1} is missing (the match is at seq ${expectedLast})` }
      : { ok: false, seq: expectedLast + 1, reason: `event ${expectedLast + 1} is beyond the match's recorded seq ${expectedLast}` };
  }
  return { ok: true, events: events.length, lastHash: prev };
}
