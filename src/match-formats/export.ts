/**
 * JSON Lines export of a finished match, and its offline audit (no database):
 * line 1 is the header, then one event per line. See docs/fairness.md, "Match
 * export (JSON Lines)", and docs/fairness.md, "Signed exports".
 *
 * Formats: `scopa-match/2` (written today) chains each event's time inside
 * its hash (chain.ts timedEventHash) and is signed: the header carries
 * `issuer` (the service's public URL), `keyId` (the JWK thumbprint, RFC 7638,
 * of its Ed25519 key) and `signature`, the base64url Ed25519 signature of
 * the canonical JSON (RFC 8785) of the header without `signature` (so over
 * every header field, the issuer, key id and last hash included).
 * `scopa-match/1` (written before) is still audited exactly as it was: its
 * hashes leave the times out and it carries no signature.
 */
import { createPublicKey, sign as edSign, verify as edVerify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { auditEvents, isSeedHex, seedCommitment, seedFromHex } from '../engine';
import type { EndReason, MatchSettings, RulesetOptions, Seat } from '../engine';
import { GENESIS_HASH, MATCH_STREAM, canonicalJson, joinEvent, sha256Hex, timedEventHash, verifyChain } from './chain';
import type { ChainedEvent, StoredEvent } from './chain';
import { streamLine } from '../stream-store/stream-store';
import type { StreamLine } from '../stream-store/stream-store';

/** The format written today: times inside the hashes, signed. */
export const EXPORT_FORMAT = 'scopa-match/2';
/** The first format: times outside the hashes, unsigned; still audited as it was. */
export const EXPORT_FORMAT_V1 = 'scopa-match/1';
export type ExportFormat = typeof EXPORT_FORMAT | typeof EXPORT_FORMAT_V1;

export interface ExportHeader {
  format: ExportFormat;
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
  /** `scopa-match/2`, signed: the public URL of the service that signed (its keys: `<issuer>/.well-known/scopa-keys.json`). */
  issuer?: string;
  /** The `kid` of the signing key in the issuer's key set. */
  keyId?: string;
  /** base64url Ed25519 signature of signingInput(header). */
  signature?: string;
}

/** What signs exports: the service's current key. */
export interface ExportSigner {
  issuer: string;
  keyId: string;
  privateKey: KeyObject;
}

/** One public key as `/.well-known/scopa-keys.json` publishes it (RFC 8037 OKP JWK). */
export interface ExportPublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  use: 'sig';
  alg: 'EdDSA';
}

export interface ExportKeySet {
  keys: ExportPublicJwk[];
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

/** One event line: every stream's export line (../stream-store/stream-store.ts). */
export type ExportLine = StreamLine;

/** The header fields a writer gives; format, events, lastHash and the signature follow from the log and the key. */
export type ExportFields = Omit<ExportHeader, 'format' | 'events' | 'lastHash' | 'issuer' | 'keyId' | 'signature'>;

/**
 * The `scopa-match/2` export of a finished match: every line's hash chains
 * its time (its append time, ISO 8601 with milliseconds), the header's
 * lastHash is the last such hash, and the header is signed when a signer is
 * given.
 */
export function writeExport(fields: ExportFields, events: readonly StoredEvent[], signer?: ExportSigner | null): string {
  const lines: ExportLine[] = [];
  let prev = GENESIS_HASH;
  for (const e of events) {
    const line = streamLine(MATCH_STREAM, fields.matchId, { ...e, prevHash: prev, hash: '' });
    line.hash = timedEventHash(prev, fields.matchId, line);
    prev = line.hash;
    lines.push(line);
  }
  const header: ExportHeader = { format: EXPORT_FORMAT, ...fields, events: lines.length, lastHash: prev };
  if (signer) signHeader(header, signer);
  return [header, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

/** The bytes a signature covers: the canonical JSON of the header without `signature`. */
export function signingInput(header: ExportHeader): Buffer {
  const { signature: _signature, ...signed } = header;
  return Buffer.from(canonicalJson(signed), 'utf8');
}

/** Sets issuer, keyId and signature on a header. */
export function signHeader(header: ExportHeader, signer: ExportSigner): void {
  delete header.signature;
  header.issuer = signer.issuer;
  header.keyId = signer.keyId;
  header.signature = edSign(null, signingInput(header), signer.privateKey).toString('base64url');
}

/** RFC 7638 thumbprint of an Ed25519 public key (its `x`): the key id. */
export function keyIdOf(x: string): string {
  return Buffer.from(sha256Hex(canonicalJson({ crv: 'Ed25519', kty: 'OKP', x })), 'hex').toString('base64url');
}

/** The public JWK of an Ed25519 key (private or public), with its key id. */
export function publicJwkOf(key: KeyObject): ExportPublicJwk {
  const jwk = (key.type === 'private' ? createPublicKey(key) : key).export({ format: 'jwk' });
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new TypeError('not an Ed25519 key');
  return { kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid: keyIdOf(jwk.x), use: 'sig', alg: 'EdDSA' };
}

export type SignatureVerdict = { status: 'unsigned' } | { status: 'valid' | 'invalid' | 'unknown-key'; issuer: string; keyId: string };

/**
 * Checks a header's signature against a key set (the issuer's published
 * keys): `unsigned` without a signature, `unknown-key` when no key of the set
 * has its keyId, `invalid` when the signature does not verify (an edited
 * header, event or time: lastHash chains them all). `format`: the signed
 * format the header must say (a tournament export's: src/tournaments/tournament-export.ts).
 */
export function verifyHeaderSignature(header: ExportHeader, keys: ExportKeySet, format: string = EXPORT_FORMAT): SignatureVerdict {
  if (header.signature === undefined && header.issuer === undefined && header.keyId === undefined) return { status: 'unsigned' };
  const issuer = String(header.issuer ?? '');
  const keyId = String(header.keyId ?? '');
  if (typeof header.signature !== 'string' || header.format !== format) return { status: 'invalid', issuer, keyId };
  const jwk = (Array.isArray(keys?.keys) ? keys.keys : []).find((k) => k && k.kid === keyId && k.kty === 'OKP' && k.crv === 'Ed25519');
  if (!jwk) return { status: 'unknown-key', issuer, keyId };
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    const ok = edVerify(null, signingInput(header), key, Buffer.from(header.signature, 'base64url'));
    return { status: ok ? 'valid' : 'invalid', issuer, keyId };
  } catch {
    return { status: 'invalid', issuer, keyId };
  }
}

/** The `scopa-match/1` writer (lines with the stored hashes, times outside them): kept for the old format's tests. */
export function toJsonl(header: ExportHeader, events: readonly StoredEvent[]): string {
  const lines = [JSON.stringify(header)];
  for (const e of events) {
    lines.push(JSON.stringify(streamLine(MATCH_STREAM, header.matchId, e)));
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
  if (!header || typeof header !== 'object' || (header.format !== EXPORT_FORMAT && header.format !== EXPORT_FORMAT_V1)) {
    throw new Error(`line 1 is not a ${EXPORT_FORMAT} (or ${EXPORT_FORMAT_V1}) header`);
  }
  return { header, events: lines.slice(1).map((l, i) => parse(l, i + 2) as ExportLine) };
}

export type ExportAudit =
  | { sound: true; matchId: string; format: ExportFormat; events: number; lastHash: string; result: ExportHeader['result'] }
  | { sound: false; matchId: string | null; seq: number | null; reason: string };

/**
 * Checks an export: the chain (with the times from scopa-match/2), the
 * commitment, the header against the log, and every command re-decided from
 * the seed. It does not check the signature (that needs the issuer's keys:
 * verifyHeaderSignature).
 */
export function auditJsonl(text: string): ExportAudit {
  let parsed: { header: ExportHeader; events: ExportLine[] };
  try {
    parsed = parseJsonl(text);
  } catch (err) {
    return { sound: false, matchId: null, seq: null, reason: (err as Error).message };
  }
  const { header, events } = parsed;
  const bad = (seq: number | null, reason: string): ExportAudit => ({ sound: false, matchId: header.matchId, seq, reason });
  if (events.some((e) => !e || typeof e !== 'object')) return bad(null, 'an event line is not an object');
  const timed = header.format === EXPORT_FORMAT;
  if (timed && events.some((e) => typeof e.time !== 'string' || Number.isNaN(Date.parse(e.time)) || new Date(e.time).toISOString() !== e.time)) {
    return bad(null, 'an event has no time in ISO 8601 UTC with milliseconds (as the export writes it)');
  }
  const chain = verifyChain(header.matchId, events as ChainedEvent[], header.events, timed);
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
  return { sound: true, matchId: header.matchId, format: header.format, events: events.length, lastHash: chain.lastHash, result: header.result };
}
