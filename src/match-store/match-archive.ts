/**
 * The match archive: what is read of a match once it is written, beside the
 * match store (./match-store.ts), which decides and appends. Audit (verify),
 * export (JSON Lines, notation, many at once for streams), import of an
 * export, the keyset pages of a user's finished matches, and the logs the
 * ratings are computed from. It appends nothing, so no onAppended reaction
 * follows anything done here (an import is never rated).
 *
 * The bulk reads (archive pages, exportWriters) go straight through the driver
 * when `rows` is given (Database.rows: memory, see docs/archives.md "A user's matches").
 *
 * The lag-tolerant reads (archive pages, the exports of finished matches, the
 * log an analysis reads) go through `reads`, the read replica when there is
 * one (src/database/read-replica.ts): each is repeated on the primary when
 * the replica does not have the match over yet, so a read right after the
 * end never answers a stale "not over" or a 404. Audit, import and the
 * ratings' reads (which write after) stay on the primary.
 *
 * Secrecy: exports and the full audit wait for the end of the match (the
 * seed is revealed then); before it, verify checks the hash chain only.
 */
import { randomUUID } from 'node:crypto';
import { auditEvents, seedFromHex } from '../engine';
import type { MatchEvent } from '../engine';
import { DomainError } from '../common/domain-error';
import { prismaRowReader } from '../database/database';
import type { Prisma, RowReader } from '../database/database';
import { primaryReads } from '../database/read-replica';
import type { ReadRouter, ReadSource } from '../database/read-replica';
import { GENESIS_HASH, eventHash, joinEvent, verifyChain } from '../match-formats/chain';
import type { ChainedEvent, StoredEvent } from '../match-formats/chain';
import { EventStore } from './event-store';
import type { FinishedMatchRow, ImportedMatch } from './event-store';
import { EXPORT_FORMAT, auditJsonl, parseJsonl, verifyHeaderSignature, writeExport } from '../match-formats/export';
import type { ExportFields, ExportHeader, ExportLine, ExportRatingChange, SignatureVerdict } from '../match-formats/export';
import { ExportKeys, TrustedIssuers, foreignPlayer } from '../match-formats/export-keys';
import { toNotation } from '../match-formats/notation';
import { archivePage } from './archive-query';
import type { ArchiveCursor, ArchiveFilter, ArchivedMatch } from './archive-query';
import { matchSummary } from './match-store';
import type { MatchSummary } from './match-store';

export type VerifyReport =
  | { matchId: string; sound: true; checked: 'chain' | 'chain+rules'; events: number; lastHash: string }
  | { matchId: string; sound: false; checked: 'chain' | 'chain+rules'; seq: number; reason: string };

export interface MatchArchiveOptions {
  /** The bulk reads (archive pages, exportWriters) straight through the driver (Database.rows); through Prisma when not given. */
  rows?: RowReader;
  /** The service's export keys (exports are unsigned without them). */
  keys?: ExportKeys;
  /** IMPORT_TRUSTED_ISSUERS: whose signed exports an import attributes. */
  trusted?: TrustedIssuers;
  /** Where the lag-tolerant reads run (ReadReplica); on this archive's own database when not given. */
  reads?: ReadRouter;
}

/** What an import answers: the match here (an import, or for this service's own export the match itself). */
export interface ImportResult {
  id: string;
  sourceId: string;
  created: boolean;
  /** Who signed it, when its signature verified against this service's keys or a trusted issuer's; null otherwise. */
  issuer: string | null;
  /** false: unsigned or signed by an issuer not trusted here; listed only in the importer's own archive. */
  verified: boolean;
}

/** A match's row and the events of it the ratings read (src/ratings/rating-store.ts). */
export interface RatingLog {
  match: { id: string; preset: string; rulesetId: string | null; status: string; imported: boolean };
  /** Only the events of the types asked for, in seq order, with their append time. */
  events: { type: string; payload: unknown; createdAt: Date }[];
}

// Every finished, rated, not imported match, in the order they ended (the end event's time, then the id).
const RATED_FINISHED_SQL = `
SELECT m.id::text AS id
FROM matches m
JOIN match_events c ON c.match_id = m.id AND c.seq = 1
JOIN match_events e ON e.match_id = m.id AND e.seq = m.current_seq
WHERE m.status = 'over' AND NOT m.imported AND c.payload -> 'settings' ->> 'rated' = 'true'
ORDER BY e.created_at, m.id`;

// Those of the ids ($1, a JSON array) whose match was created rated.
const RATED_AMONG_SQL = `
SELECT m.id::text AS id FROM matches m JOIN match_events c ON c.match_id = m.id AND c.seq = 1
WHERE m.id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid) AND c.payload -> 'settings' ->> 'rated' = 'true'`;

export class MatchArchive {
  private readonly events: EventStore;
  private readonly rows: RowReader;
  private readonly reads: ReadRouter;
  /** The event store of each read source other than the primary (the replica's), made on first use. */
  private readonly otherEvents = new WeakMap<Prisma, EventStore>();
  private readonly keys: ExportKeys | null;
  private readonly trusted: TrustedIssuers;

  constructor(
    private readonly prisma: Prisma,
    options: MatchArchiveOptions = {},
  ) {
    this.rows = options.rows ?? prismaRowReader(prisma);
    this.events = new EventStore(prisma, { rows: this.rows });
    this.keys = options.keys ?? null;
    this.trusted = options.trusted ?? new TrustedIssuers([]);
    this.reads = options.reads ?? primaryReads({ prisma, rows: this.rows });
  }

  /** The event store over `db`: this archive's own for the primary. */
  private eventsOn(db: ReadSource): EventStore {
    if (db.prisma === this.prisma) return this.events;
    let events = this.otherEvents.get(db.prisma);
    if (!events) this.otherEvents.set(db.prisma, (events = new EventStore(db.prisma, { rows: db.rows })));
    return events;
  }

  private get(matchId: string): Promise<MatchSummary> {
    return matchSummary(this.prisma, matchId);
  }

  // ------------------------------------------------------------ reading

  /** One keyset page of a user's finished matches, newest first (./archive-query.ts). */
  page(filter: ArchiveFilter, after: ArchiveCursor | null, limit: number): Promise<ArchivedMatch[]> {
    // Lag-tolerant: a match that ended a moment ago may be missing from the replica's page (docs/operations.md "Read replicas").
    return this.reads.read((db) => archivePage(db.rows, filter, after, limit));
  }

  /**
   * The whole log of a finished match (at most `limit` events), for the analyzer: from the replica when it has the match
   * over with its whole log, else from the primary (null when the primary does not have it over either: the caller reads
   * the live match its own way).
   */
  async finishedLog(matchId: string, limit: number): Promise<StoredEvent[] | null> {
    return this.reads.read(
      async (db) => {
        const match = await matchSummary(db.prisma, matchId);
        if (match.status !== 'over') return null;
        const events = await this.eventsOn(db).events(matchId, 1, limit);
        return events.length === Math.min(limit, match.currentSeq) ? events : null;
      },
      (log) => log !== null,
    );
  }

  /** Those of `matchIds` that exist. */
  async existing(matchIds: readonly string[]): Promise<Set<string>> {
    const known = await this.prisma.match.findMany({ where: { id: { in: [...matchIds] } }, select: { id: true } });
    return new Set(known.map((k) => k.id));
  }

  /** Those of `matchIds` whose match was created rated (over or not). */
  async ratedAmong(matchIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.prisma.$queryRawUnsafe<{ id: string }[]>(RATED_AMONG_SQL, JSON.stringify(matchIds));
    return new Set(rows.map((r) => r.id));
  }

  /** The ratings' read of a match: its row and, once it is over (and not imported: never rated), its events of `types`; null for an unknown match. */
  async ratingLog(matchId: string, types: readonly string[]): Promise<RatingLog | null> {
    const match = await this.prisma.match.findUnique({
      where: { id: matchId },
      select: { id: true, preset: true, rulesetId: true, status: true, imported: true },
    });
    if (!match) return null;
    if (match.status !== 'over' || match.imported) return { match, events: [] };
    const events = await this.prisma.matchEvent.findMany({
      where: { matchId, type: { in: [...types] } },
      orderBy: { seq: 'asc' },
      select: { type: true, payload: true, createdAt: true },
    });
    return { match, events };
  }

  /** The ids of every finished rated match (imports never count), in the order they ended: the end event's time, then the id. */
  async ratedFinished(): Promise<string[]> {
    const rows = await this.prisma.$queryRawUnsafe<{ id: string }[]>(RATED_FINISHED_SQL);
    return rows.map((r) => r.id);
  }

  // ------------------------------------------------------------ audit

  /**
   * Recomputes the hash chain; once the match is over, also re-decides every
   * command from the revealed seed under the rules version the match recorded.
   * Before the end only the chain is checked (the seed stays secret).
   */
  async verify(matchId: string): Promise<VerifyReport> {
    const match = await this.get(matchId);
    const events = await this.events.events(matchId);
    const over = match.status === 'over';
    const checked = over ? 'chain+rules' : 'chain';
    const chain = verifyChain(await this.chainIdOf(matchId), events, match.currentSeq);
    if (!chain.ok) return { matchId, sound: false, checked, seq: chain.seq, reason: chain.reason };
    const first = events[0];
    if (first.type !== 'MatchCreated') return { matchId, sound: false, checked, seq: 1, reason: 'the log does not start with MatchCreated' };
    if (first.payload.rulesVersion !== match.rulesVersion) {
      return {
        matchId,
        sound: false,
        checked,
        seq: 1,
        reason: `MatchCreated says rules ${String(first.payload.rulesVersion)}, the match records ${match.rulesVersion}`,
      };
    }
    if (first.payload.seedCommitment !== match.seedCommitment) {
      return { matchId, sound: false, checked, seq: 1, reason: 'MatchCreated and the match record different seed commitments' };
    }
    if (!over) return { matchId, sound: true, checked, events: chain.events, lastHash: chain.lastHash };
    if (!match.revealedSeed) return { matchId, sound: false, checked, seq: events.length, reason: 'the match is over but its seed was not revealed' };
    const last = events[events.length - 1];
    if (last.type !== 'MatchEnded' || last.payload.seed !== match.revealedSeed) {
      return { matchId, sound: false, checked, seq: last.seq, reason: 'the last event is not a MatchEnded revealing the recorded seed' };
    }
    const audit = auditEvents(events.map(joinEvent), seedFromHex(match.revealedSeed));
    if (!audit.sound) return { matchId, sound: false, checked, seq: audit.index + 1, reason: audit.reason };
    return { matchId, sound: true, checked, events: chain.events, lastHash: chain.lastHash };
  }

  /**
   * The id a match's hash chain is rooted on: its own, or for an imported
   * match the id of the match it was exported from (imports keep the chain
   * as it was, so their exports audit the same everywhere).
   */
  private async chainIdOf(matchId: string): Promise<string> {
    const row = await this.prisma.match.findUnique({ where: { id: matchId }, select: { sourceId: true } });
    return row?.sourceId ?? matchId;
  }

  /**
   * An export's header fields and events, read on the replica; a match the replica does not have, or not over yet
   * (FORBIDDEN there), is read again on the primary, whose answer stands.
   */
  private exportParts(matchId: string, ratingChanges?: ExportRatingChange[] | null): Promise<{ header: ExportFields; events: StoredEvent[] }> {
    return this.reads.read((db) => this.exportPartsOn(db, matchId, ratingChanges));
  }

  private async exportPartsOn(
    db: ReadSource,
    matchId: string,
    ratingChanges?: ExportRatingChange[] | null,
  ): Promise<{ header: ExportFields; events: StoredEvent[] }> {
    const match = await matchSummary(db.prisma, matchId);
    if (match.status !== 'over' || !match.revealedSeed) {
      throw new DomainError('FORBIDDEN', 'a match can be exported once it is over (its seed is secret until then)');
    }
    // Written with the end in one statement: a source that has the match over has its whole log.
    const events = await this.eventsOn(db).events(matchId);
    const source = await db.prisma.match.findUnique({ where: { id: matchId }, select: { sourceId: true } });
    return { header: exportFields({ ...match, sourceId: source?.sourceId ?? null }, events, ratingChanges), events };
  }

  /**
   * JSON Lines export (docs/fairness.md, "Match export (JSON Lines)"); FORBIDDEN before the match is over. Rating changes,
   * when given, go into the header. Signed with the service's key, except the export of an imported match
   * (this service did not see it played: it does not vouch for it).
   */
  async exportJsonl(matchId: string, ratingChanges?: ExportRatingChange[] | null): Promise<string> {
    const { header, events } = await this.exportParts(matchId, ratingChanges);
    return this.write(header, events);
  }

  private write(fields: ExportFields, events: readonly StoredEvent[]): string {
    return writeExport(fields, events, fields.importedAs === undefined ? this.keys?.signer : null);
  }

  /**
   * The exports of several matches, read in two statements (rows, then every
   * event of them in order), each written (hashed, signed, serialized) only
   * when its function is called; a match that is unknown or not over maps to
   * null. A stream calls it just before it sends that line, so one export at
   * a time is alive: built all at once, a page's exports outlived the young
   * generation's collections while the page was sent, and were promoted to
   * the old generation as garbage to come.
   */
  async exportWriters(
    matchIds: readonly string[],
    ratingChanges: ReadonlyMap<string, ExportRatingChange[]> = new Map(),
  ): Promise<Map<string, (() => string) | null>> {
    if (matchIds.length === 0) return new Map();
    // All of them over on the replica, or the whole read again on the primary (one of them may have just ended).
    return this.reads.read(
      (db) => this.exportWritersOn(db, matchIds, ratingChanges),
      (out) => [...out.values()].every((w) => w !== null),
    );
  }

  private async exportWritersOn(
    db: ReadSource,
    matchIds: readonly string[],
    ratingChanges: ReadonlyMap<string, ExportRatingChange[]>,
  ): Promise<Map<string, (() => string) | null>> {
    const out = new Map<string, (() => string) | null>(matchIds.map((id) => [id, null]));
    const events = this.eventsOn(db);
    const over = await events.finishedMatchesOf(matchIds);
    if (over.length === 0) return out;
    const logs = await events.eventsOfMatches(over.map((r) => r.id));
    for (const row of over) {
      const log = logs.get(row.id);
      if (!log || log.length === 0) continue;
      out.set(row.id, () => this.write(exportFields(row, log, ratingChanges.get(row.id)), log));
    }
    return out;
  }

  /** The compact notation (docs/rules.md, "Match notation"); FORBIDDEN before the match is over. */
  async exportNotation(matchId: string): Promise<string> {
    const { header, events } = await this.exportParts(matchId);
    return toNotation({ format: EXPORT_FORMAT, ...header, events: events.length, lastHash: events[events.length - 1].hash }, events.map(joinEvent));
  }

  // ------------------------------------------------------------ import

  /**
   * Stores the JSON Lines export of a finished match as a read-only imported
   * match, once the offline audit (export.ts auditJsonl) finds it sound
   * (VALIDATION_FAILED naming the seq and reason otherwise), attributing only
   * what its signature proves (docs/archives.md, "Import"):
   * - signed by this service's own key: it is the match here, answered as
   *   it is (no duplicate);
   * - signed by an issuer of IMPORT_TRUSTED_ISSUERS: stored with its seats
   *   as `username@host` (never the local accounts of the same name);
   * - a signature that does not verify (this service's, a trusted
   *   issuer's): refused;
   * - unsigned, or signed by an issuer not trusted here: stored unverified,
   *   listed only in the importer's own archive;
   * - naming a match played here without being its copy: refused.
   * The events keep their content; the store keeps them on the chain of
   * `scopa-match/1` (times outside the hashes, as every stored log) rooted
   * on the source match id (source_id), which verify() and exports use.
   * Idempotent on (source id, last hash): a second import returns the first
   * (an unverified one then also lists it for the new importer). Never
   * rated: nothing is appended through the store, so no after-append
   * reaction (ratings, notices, bots) sees it.
   */
  async importJsonl(text: string, importer: string): Promise<ImportResult> {
    const audit = auditJsonl(text);
    if (!audit.sound) {
      throw new DomainError('VALIDATION_FAILED', `the export is not sound${audit.seq !== null ? ` at seq ${audit.seq}` : ''}: ${audit.reason}`, {
        audit: 'unsound',
        seq: audit.seq,
        reason: audit.reason,
      });
    }
    const { header, events } = parseJsonl(text);
    if (typeof header.matchId !== 'string' || header.matchId.length === 0 || header.matchId.length > 100) {
      throw new DomainError('VALIDATION_FAILED', 'the export header has no usable matchId');
    }
    const times = events.map((e) => new Date(e.time));
    if (times.some((t) => Number.isNaN(t.getTime()))) throw new DomainError('VALIDATION_FAILED', 'an event of the export has no valid time');
    // The log as the store keeps it: the scopa-match/1 chain (a scopa-match/2 export's hashes also hold the times).
    const stored = storedChain(header.matchId, events);
    const storedLast = stored[stored.length - 1].hash;

    const signature = await this.signatureOf(header);
    if (signature.status === 'invalid' || signature.status === 'unknown-key') {
      throw new DomainError(
        'VALIDATION_FAILED',
        `the export's signature (issuer ${signature.issuer}, key ${signature.keyId}) does not verify: it was edited after signing, or not signed by that key`,
        {
          signature: signature.status,
        },
      );
    }
    const own = signature.status === 'valid' && signature.issuer === this.keys?.issuer;
    const local = await this.prisma.match.findUnique({
      where: { id: isUuid(header.matchId) ? header.matchId : '00000000-0000-0000-0000-000000000000' },
      select: { id: true, imported: true, currentSeq: true, status: true },
    });
    if (own || (local && !local.imported)) {
      // A match of this service: answer with it, if the export is its copy.
      const last =
        local && !local.imported && local.status === 'over'
          ? await this.prisma.matchEvent.findUnique({ where: { matchId_seq: { matchId: local.id, seq: local.currentSeq } }, select: { hash: true } })
          : null;
      if (!last || last.hash !== storedLast || local!.currentSeq !== stored.length) {
        throw new DomainError(
          'VALIDATION_FAILED',
          own
            ? 'the export is signed by this service, but this service holds no such match'
            : `the export names match ${header.matchId} of this service but differs from it`,
        );
      }
      return { id: local!.id, sourceId: local!.id, created: false, issuer: this.keys?.issuer ?? null, verified: true };
    }
    const issuer = signature.status === 'valid' ? signature.issuer : null;
    const existing = await this.importedAs(header.matchId, header.lastHash);
    if (existing) return this.importedAgain(existing, header, issuer, importer);
    const id = randomUUID();
    try {
      await this.events.importLog(id, importedRow(header, events, times, issuer, importer), stored, times);
    } catch (err) {
      // A concurrent import of the same log won the unique (source_id, source_hash).
      const again = await this.importedAs(header.matchId, header.lastHash);
      if (again) return this.importedAgain(again, header, issuer, importer);
      throw err;
    }
    return { id, sourceId: header.matchId, created: true, issuer, verified: issuer !== null };
  }

  /** The signature's verdict against this service's keys or a trusted issuer's; `unsigned` for an unsigned export or an untrusted issuer. */
  private async signatureOf(header: ExportHeader): Promise<SignatureVerdict> {
    if (header.format !== EXPORT_FORMAT) return { status: 'unsigned' };
    const issuer = typeof header.issuer === 'string' ? header.issuer.replace(/\/+$/, '') : null;
    if (issuer !== null && this.keys && issuer === this.keys.issuer) return verifyHeaderSignature(header, this.keys.keySet);
    if (issuer === null || !this.trusted.trusts(issuer)) return { status: 'unsigned' };
    const verdict = verifyHeaderSignature(header, await this.trusted.keysOf(issuer));
    // A key id not seen yet: the issuer may have rotated its key since the set was read.
    return verdict.status === 'unknown-key' ? verifyHeaderSignature(header, await this.trusted.keysOf(issuer, true)) : verdict;
  }

  /** The answer to a second import of the same log: a trusted signature now attributes an unverified import; an unverified one lists it for this importer too. */
  private async importedAgain(
    existing: { id: string; importIssuer: string | null },
    header: ExportHeader,
    issuer: string | null,
    importer: string,
  ): Promise<ImportResult> {
    const base = { id: existing.id, sourceId: header.matchId, created: false };
    if (existing.importIssuer !== null) return { ...base, issuer: existing.importIssuer, verified: true };
    if (issuer !== null) {
      // proven now: the seats are attributed, the importers' rows go
      await this.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`UPDATE matches SET import_issuer = $2::text WHERE id = $1::uuid AND import_issuer IS NULL`, existing.id, issuer);
        await tx.$executeRawUnsafe(`DELETE FROM match_players WHERE match_id = $1::uuid AND seat < 0`, existing.id);
        for (const p of attributedPlayers(header.seats, issuer)) {
          await tx.$executeRawUnsafe(
            `INSERT INTO match_players (match_id, player_id, seat) VALUES ($1::uuid, $2::text, $3::int) ON CONFLICT DO NOTHING`,
            existing.id,
            p.playerId,
            p.seat,
          );
        }
      });
      return { ...base, issuer, verified: true };
    }
    // One row per importer, at seats -1, -2, ... (a lost race on the seat: the other importer's row; try again once).
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.prisma.$executeRawUnsafe(
          `INSERT INTO match_players (match_id, player_id, seat)
           SELECT $1::uuid, $2::text, LEAST(COALESCE(MIN(seat), 0), 0) - 1 FROM match_players WHERE match_id = $1::uuid
           HAVING NOT bool_or(player_id = $2::text AND seat < 0) OR COUNT(*) = 0`,
          existing.id,
          importer,
        );
        break;
      } catch (err) {
        if (attempt === 1) throw err;
      }
    }
    return { ...base, issuer: null, verified: false };
  }

  private async importedAs(sourceId: string, lastHash: string): Promise<{ id: string; importIssuer: string | null } | null> {
    return this.prisma.match.findFirst({ where: { sourceId, sourceHash: lastHash, imported: true }, select: { id: true, importIssuer: true } });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (text: string): boolean => UUID.test(text);

/** The chain the store keeps of an export's events (scopa-match/1's: times outside), rooted on its match id. */
function storedChain(matchId: string, lines: readonly ExportLine[]): ChainedEvent[] {
  let prev = GENESIS_HASH;
  return lines.map((l) => {
    const hash = eventHash(prev, matchId, l);
    const e: ChainedEvent = { seq: l.seq, type: l.type, payload: l.payload, actor: l.actor, prevHash: prev, hash };
    prev = hash;
    return e;
  });
}

/** The match_players rows of a trusted import: every seated player as `username@host` of the issuer. */
function attributedPlayers(seats: ExportHeader['seats'], issuer: string): { seat: number; playerId: string }[] {
  return seats.flatMap((seat, i) => {
    const player = seat.player ?? seat.reservedFor;
    return player ? [{ seat: i, playerId: foreignPlayer(player, issuer) }] : [];
  });
}

/** The export header's fields of a finished match: its row (seed revealed) and its whole log. */
function exportFields(
  match: FinishedMatchRow | (MatchSummary & { sourceId: string | null }),
  events: StoredEvent[],
  ratingChanges?: ExportRatingChange[] | null,
): ExportFields {
  const created = joinEvent(events[0]) as Extract<MatchEvent, { type: 'MatchCreated' }>;
  const ended = joinEvent(events[events.length - 1]);
  const header: ExportFields = {
    matchId: match.sourceId ?? match.id,
    preset: match.preset,
    options: match.options as ExportHeader['options'],
    rulesVersion: match.rulesVersion,
    seats: match.seats as ExportHeader['seats'],
    settings: created.settings,
    createdBy: match.createdBy,
    seedCommitment: match.seedCommitment,
    seed: match.revealedSeed ?? '',
    result: ended.type === 'MatchEnded' ? { reason: ended.reason, winner: ended.winner, totals: ended.totals } : null,
    createdAt: match.createdAt.toISOString(),
    endedAt: match.endedAt?.toISOString() ?? null,
  };
  if (ratingChanges) header.ratingChanges = ratingChanges;
  if (match.sourceId) header.importedAs = match.id;
  return header;
}

/** The matches row of an imported log (sound: audited before), attributed to `issuer` or (null) unverified, listed for `importer` alone. */
function importedRow(header: ExportHeader, events: ExportLine[], times: Date[], issuer: string | null, importer: string): ImportedMatch {
  const created = joinEvent(events[0]) as Extract<MatchEvent, { type: 'MatchCreated' }>;
  const ended = joinEvent(events[events.length - 1]) as Extract<MatchEvent, { type: 'MatchEnded' }>;
  return {
    preset: created.preset,
    options: created.options,
    rulesVersion: created.rulesVersion,
    seats: header.seats,
    seedCommitment: created.seedCommitment,
    seed: ended.seed,
    createdBy: created.createdBy,
    winner: ended.winner,
    createdAt: times[0],
    endedAt: times[times.length - 1],
    sourceId: header.matchId,
    sourceHash: header.lastHash,
    turnTimeLimit: created.settings.turnTimeLimit ?? null,
    onExpiry: created.settings.onExpiry ?? null,
    importIssuer: issuer,
    players: issuer !== null ? attributedPlayers(header.seats, issuer) : [{ seat: -1, playerId: importer }],
  };
}
