/**
 * The moderation log: every moderation action (a role granted or revoked by
 * an operator, a mute and its lifting, a ban, a report resolved, a chat
 * message removed) appended to ONE hash-chained stream of the stream store
 * (src/stream-store/stream-store.ts, MODERATION_STREAM), timed as stored:
 *
 *   hash_n = hex(sha256(hash_{n-1} || canonical_json({logId, seq, type, payload, actor, time})))
 *
 * (64 zeros before the first event; canonical JSON is RFC 8785; `time` the
 * append time, ISO 8601 UTC with milliseconds). Each event says who
 * (`actor`: the moderator's username, or `operator:<name>` for the admin
 * command), what (`type`, the action, and `payload.target`), why
 * (`payload.reason`, null when none was given) and when (`time`).
 *
 * The export (`GET /v1/admin/moderation-log`, JSON Lines): a header
 * `{format: "scopa-moderation-log/1", logId, events, lastHash}`, then one
 * line per event `{logId, seq, type, payload, actor, time, prevHash, hash}`;
 * the header signed as a match export's (issuer, keyId, signature: the
 * service's Ed25519 key at `/.well-known/scopa-keys.json`), so a log
 * rewritten and re-chained whole does not verify (`npm run audit -- --keys`).
 * auditModerationLog (`npm run audit -- moderation.jsonl`) recomputes the
 * chain and checks the header's count and last hash (a line removed at the
 * end) and every event's shape. Pure: no database.
 */
import { signHeader, verifyHeaderSignature } from '../match-formats/export';
import type { ExportHeader, ExportKeySet, ExportSigner, SignatureVerdict } from '../match-formats/export';
import { GENESIS_HASH, streamHash } from '../stream-store/stream-store';
import type { KeyedStreamLine, StreamKind } from '../stream-store/stream-store';

/** The one log's id (its head row is made by the migration 20261211030000_moderation). */
export const MODERATION_LOG_ID = '00000000-0000-4000-8000-000000000046';

/** The moderation log as a stream: `logId` in the hash, timed as stored, lines that start with the id. */
export const MODERATION_STREAM: StreamKind = { name: 'moderation log', idKey: 'logId', timed: true, linesCarryId: true };

export const MODERATION_EXPORT_FORMAT = 'scopa-moderation-log/1';

/** Every action the log records; the event's type. */
export const MODERATION_ACTIONS = [
  'moderatorGranted',
  'moderatorRevoked',
  'userMuted',
  'userUnmuted',
  'userBanned',
  'userUnbanned',
  'reportResolved',
  'messageRemoved',
] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/**
 * One event: the action, its target (a username; a report's id; a chat
 * message's id), why, and what else the action names (a mute's end, a
 * report's target).
 */
export interface ModerationEvent {
  type: ModerationAction;
  target: string;
  reason: string | null;
  /** userMuted: the end of the mute (ISO 8601). */
  until?: string;
  /** reportResolved: what the report was about ({kind, username | messageId | matchId}). */
  report?: Record<string, unknown>;
  /** Anything else the recorder adds (chat's message removal: the room, the author). */
  details?: Record<string, unknown>;
}

export type ModerationLine = KeyedStreamLine<'logId'>;

export interface ModerationExportHeader {
  format: typeof MODERATION_EXPORT_FORMAT;
  logId: string;
  events: number;
  lastHash: string;
  issuer?: string;
  keyId?: string;
  signature?: string;
}

/** The JSON Lines export of the log: its header (signed when a signer is given), then its events as stored. */
export function writeModerationExport(lines: readonly ModerationLine[], signer?: ExportSigner | null): string {
  const header: ModerationExportHeader = {
    format: MODERATION_EXPORT_FORMAT,
    logId: MODERATION_LOG_ID,
    events: lines.length,
    lastHash: lines[lines.length - 1]?.hash ?? GENESIS_HASH,
  };
  if (signer) signHeader(header as unknown as ExportHeader, signer);
  return [header, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

/** Whether a parsed first line is a moderation log export's header. */
export function isModerationHeader(line: unknown): line is ModerationExportHeader {
  return (
    typeof line === 'object' &&
    line !== null &&
    typeof (line as { format?: unknown }).format === 'string' &&
    (line as { format: string }).format.startsWith('scopa-moderation-log/')
  );
}

/** The header's signature against a key set (the issuer's published keys), as for a match export. */
export function verifyModerationSignature(header: ModerationExportHeader, keys: ExportKeySet): SignatureVerdict {
  return verifyHeaderSignature(header as unknown as ExportHeader, keys, MODERATION_EXPORT_FORMAT);
}

export interface ModerationAudit {
  events: number;
  lastHash: string;
  problems: string[];
  header: ModerationExportHeader | null;
}

/** Why an event line is not a well-formed action (null: it is). */
function shapeProblem(line: ModerationLine): string | null {
  if (!(MODERATION_ACTIONS as readonly string[]).includes(line.type)) return `unknown action ${JSON.stringify(line.type)}`;
  const p = line.payload as Partial<ModerationEvent> | null;
  if (!p || typeof p !== 'object') return 'no payload';
  if (typeof p.target !== 'string' || !p.target) return 'no target';
  if (p.reason !== null && typeof p.reason !== 'string') return 'a reason that is not text';
  if (typeof line.actor !== 'string' || !line.actor) return 'no actor (who)';
  if (typeof line.time !== 'string' || Number.isNaN(Date.parse(line.time))) return 'no time (when)';
  if (line.type === 'userMuted' && (typeof p.until !== 'string' || Number.isNaN(Date.parse(p.until)))) return 'a mute without its end';
  return null;
}

/** Audits an export (pure): the header, the chain, every event's shape. Problems empty: sound. */
export function auditModerationLog(text: string): ModerationAudit {
  const problems: string[] = [];
  const parsed: unknown[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    if (!raw.trim()) continue;
    try {
      parsed.push(JSON.parse(raw));
    } catch {
      problems.push(`line ${i + 1}: not JSON`);
    }
  }
  const header = isModerationHeader(parsed[0]) ? parsed[0] : null;
  if (!header) problems.push('no header line (format scopa-moderation-log/1)');
  else if (header.format !== MODERATION_EXPORT_FORMAT) problems.push(`header: unknown format ${JSON.stringify(header.format)}`);
  const lines = (header ? parsed.slice(1) : parsed) as ModerationLine[];
  const logId = header?.logId ?? MODERATION_LOG_ID;
  let prev = GENESIS_HASH;
  for (const [i, line] of lines.entries()) {
    const at = `seq ${String(line?.seq)} (${String(line?.type)})`;
    if (!line || typeof line !== 'object') {
      problems.push(`event ${i + 1}: not an object`);
      break;
    }
    if (line.seq !== i + 1) problems.push(`${at}: expected seq ${i + 1} (an event removed, added or reordered)`);
    if (line.logId !== logId) problems.push(`${at}: logId ${JSON.stringify(line.logId)} is not the log's`);
    if (line.prevHash !== prev) problems.push(`${at}: prevHash does not link to the event before (reordered, replaced or removed event)`);
    let hash: string | null = null;
    try {
      hash = streamHash(MODERATION_STREAM, logId, line.prevHash, line, line.time);
    } catch {
      // uncanonicalizable content: reported as altered
    }
    if (hash !== line.hash) problems.push(`${at}: hash does not match the event's content or time (altered event)`);
    const shape = shapeProblem(line);
    if (shape) problems.push(`${at}: ${shape}`);
    prev = line.hash;
  }
  if (header) {
    if (header.events !== lines.length) problems.push(`header: ${header.events} events, the export holds ${lines.length}`);
    if (header.lastHash !== prev) problems.push('header: lastHash is not the hash of the last event');
  }
  return { events: lines.length, lastHash: prev, problems, header };
}
