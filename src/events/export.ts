/**
 * JSON Lines export of a finished match, and its offline audit (no database):
 * line 1 is the header, then one event per line. See README, "Match export".
 */
import { auditEvents, isSeedHex, seedCommitment, seedFromHex } from '../engine';
import type { EndReason, MatchSettings, RulesetOptions, Seat } from '../engine';
import { canonicalJson, joinEvent, verifyChain } from './chain';
import type { ChainedEvent, StoredEvent } from './chain';

export const EXPORT_FORMAT = 'scopa-match/1';

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  matchId: string;
  preset: string;
  options: RulesetOptions;
  rulesVersion: string;
  /** Seats as they ended up (after every join). */
  seats: Seat[];
  settings: MatchSettings;
  createdBy: string;
  seedCommitment: string;
  /** The revealed seed (exports exist only once the match is over). */
  seed: string;
  result: { reason: EndReason; winner: number | null; totals: number[] } | null;
  /** Number of events that follow. */
  events: number;
  /** Hash of the last event: the whole log in one value. */
  lastHash: string;
  createdAt: string;
  endedAt: string | null;
  /** A rated match's rating changes, once its end was taken into the ratings (not covered by the chain or the audit). */
  ratingChanges?: ExportRatingChange[];
  /** Set when this service imported the match: its id here (matchId stays the id the chain is rooted on). */
  importedAs?: string;
}

/** One player's rating change in a rated match (as the ratings record it). */
export interface ExportRatingChange {
  player: string;
  side: number;
  result: string;
  ratingBefore: number;
  ratingAfter: number;
  rdBefore: number;
  rdAfter: number;
  volatilityBefore: number;
  volatilityAfter: number;
}

export interface ExportLine {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  actor: string | null;
  time: string;
  prevHash: string;
  hash: string;
}

export function toJsonl(header: ExportHeader, events: readonly StoredEvent[]): string {
  const lines = [JSON.stringify(header)];
  for (const e of events) {
    const line: ExportLine = { seq: e.seq, type: e.type, payload: e.payload, actor: e.actor, time: e.time.toISOString(), prevHash: e.prevHash, hash: e.hash };
    lines.push(JSON.stringify(line));
  }
  return lines.join('\n') + '\n';
}

export function parseJsonl(text: string): { header: ExportHeader; events: ExportLine[] } {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) throw new Error('empty export');
  const parse = (line: string, n: number) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new Error(`line ${n} is not JSON`);
    }
  };
  const header = parse(lines[0], 1) as ExportHeader;
  if (!header || header.format !== EXPORT_FORMAT) throw new Error(`line 1 is not a ${EXPORT_FORMAT} header`);
  return { header, events: lines.slice(1).map((l, i) => parse(l, i + 2) as ExportLine) };
}

export type ExportAudit =
  | { sound: true; matchId: string; events: number; lastHash: string; result: ExportHeader['result'] }
  | { sound: false; matchId: string | null; seq: number | null; reason: string };

/** Checks an export: the chain, the commitment, the header against the log, and every command re-decided from the seed. */
export function auditJsonl(text: string): ExportAudit {
  let parsed: { header: ExportHeader; events: ExportLine[] };
  try {
    parsed = parseJsonl(text);
  } catch (err) {
    return { sound: false, matchId: null, seq: null, reason: (err as Error).message };
  }
  const { header, events } = parsed;
  const bad = (seq: number | null, reason: string): ExportAudit => ({ sound: false, matchId: header.matchId, seq, reason });
  const chain = verifyChain(header.matchId, events as ChainedEvent[], header.events);
  if (!chain.ok) return bad(chain.seq, chain.reason);
  if (chain.lastHash !== header.lastHash) return bad(null, 'the header lastHash is not the hash of the last event');
  if (!isSeedHex(header.seed)) return bad(null, 'the header has no revealed seed');
  if (seedCommitment(seedFromHex(header.seed)) !== header.seedCommitment) return bad(null, 'the seed does not match the commitment (sha256)');
  const log = events.map((e) => joinEvent(e));
  const created = log[0];
  if (!created || created.type !== 'MatchCreated') return bad(1, 'the log does not start with MatchCreated');
  if (created.seedCommitment !== header.seedCommitment) return bad(1, 'MatchCreated commits to another seed than the header');
  if (created.rulesVersion !== header.rulesVersion) return bad(1, 'MatchCreated records another rules version than the header');
  if (created.preset !== header.preset || canonicalJson(created.options) !== canonicalJson(header.options)) {
    return bad(1, 'MatchCreated records another ruleset than the header');
  }
  const audit = auditEvents(log, seedFromHex(header.seed));
  if (!audit.sound) return bad(audit.index + 1, audit.reason);
  const ended = log[log.length - 1];
  if (ended.type !== 'MatchEnded') return bad(log.length, 'the log does not end with MatchEnded');
  if (ended.seed !== header.seed) return bad(log.length, 'MatchEnded reveals another seed than the header');
  if (canonicalJson({ reason: ended.reason, winner: ended.winner, totals: ended.totals }) !== canonicalJson(header.result)) {
    return bad(log.length, 'the header result differs from MatchEnded');
  }
  if (canonicalJson(audit.state.seats) !== canonicalJson(header.seats)) return bad(null, 'the header seats differ from the log');
  return { sound: true, matchId: header.matchId, events: events.length, lastHash: chain.lastHash, result: header.result };
}
