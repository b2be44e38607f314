/** User archives (finished matches, newest first), batch export and import, over the match archive. */
import { Injectable } from '@nestjs/common';
import { PAGE_DEFAULT, PAGE_MAX } from '../common/archive-limits';
import { REVEAL_WAITS, TournamentTables } from '../match-store/tournament-tables';
import { DomainError } from '../common/domain-error';
import { AccountsService } from '../auth/accounts.service';
import { MatchArchive } from '../match-store/match-archive';
import { ExportKeys } from '../match-formats/export-keys';
import type { ExportKeySet } from '../match-formats/export';
import { RatingsService } from '../ratings/ratings.service';
import { decodeCursor, encodeCursor } from '../match-store/archive-query';
import type { ArchiveCursor, ArchiveFilter, ArchivedMatch, ResultFilter } from '../match-store/archive-query';
import type { ImportResult } from '../match-store/match-archive';

export type { ArchivedMatch } from '../match-store/archive-query';

/** NDJSON: the largest `max` accepted (no limit when not given). */
export const STREAM_MAX = 1_000_000;
/** Matches read per statement while streaming (the memory a stream holds). */
export const STREAM_PAGE = 200;
/** Matches whose events a stream with events reads per statement. */
export const EXPORT_CHUNK = 50;
/** Ids in one POST /v1/matches/export. */
export const BATCH_EXPORT_MAX = 100;

export interface ArchiveQuery {
  ruleset?: string | null;
  rated?: boolean | null;
  vs?: string | null;
  since?: string | null;
  until?: string | null;
  result?: ResultFilter | null;
  max?: number | null;
  after?: string | null;
}

export interface UserMatchesPage {
  matches: ArchivedMatch[];
  next: string | null;
}

/** One NDJSON line of a stream with events. */
export interface ArchiveExportLine {
  match: ArchivedMatch;
  export: string;
}

/** One NDJSON line of a batch export. */
export type BatchExportLine = { id: string; export: string } | { id: string; error: { code: string; message: string } };

@Injectable()
export class ArchivesService {
  constructor(
    private readonly archive: MatchArchive,
    private readonly ratings: RatingsService,
    private readonly keys: ExportKeys,
    private readonly tables: TournamentTables,
    private readonly accounts: AccountsService,
  ) {}

  /** GET /.well-known/scopa-keys.json: the public keys that verify this service's exports (the current one first, then the retired ones kept). */
  publicKeys(): ExportKeySet {
    return this.keys.keySet;
  }

  /** One JSON page: max 1..100 (default 20), `next` null at the end. `viewer`: the caller's username (null: anonymous), who sees private matches they played and their own unverified imports. */
  async page(username: string, q: ArchiveQuery, viewer: string | null = null): Promise<UserMatchesPage> {
    const max = q.max ?? PAGE_DEFAULT;
    if (!Number.isSafeInteger(max) || max < 1 || max > PAGE_MAX) throw new DomainError('VALIDATION_FAILED', `max: an integer in 1..${PAGE_MAX}`);
    const { filter, after } = await this.resolve(username, q, viewer);
    // One more than asked tells whether there is a next page.
    const rows = await this.archive.page(filter, after, max + 1);
    const listed = rows.slice(0, max);
    const last = listed[listed.length - 1];
    // A table of a running duplicate tournament round has no archive entry but for its players (src/match-store/tournament-tables.ts).
    const hidden = await this.tables.hiddenFrom(
      viewer,
      listed.map((m) => m.id),
    );
    const matches = listed.filter((m) => !hidden.has(m.id));
    return { matches, next: rows.length > max && last ? encodeCursor({ endedAt: last.endedAt, id: last.id }) : null };
  }

  /**
   * The whole archive (or `max` matches) as NDJSON lines, read STREAM_PAGE at
   * a time. Validation and the user lookup happen here, before the first line
   * (so they are ordinary 4xx answers); the reads happen as the consumer pulls
   * (stop pulling, and no further page is read).
   */
  async stream(
    username: string,
    q: ArchiveQuery,
    withEvents: boolean,
    viewer: string | null = null,
  ): Promise<AsyncIterable<ArchivedMatch | ArchiveExportLine>> {
    const { filter, after } = await this.resolve(username, q, viewer);
    const limit = q.max ?? Infinity;
    return this.lines(filter, after, limit, withEvents, viewer);
  }

  private async *lines(
    filter: ArchiveFilter,
    after: ArchiveCursor | null,
    limit: number,
    withEvents: boolean,
    viewer: string | null,
  ): AsyncGenerator<ArchivedMatch | ArchiveExportLine> {
    let sent = 0;
    let cursor = after;
    while (sent < limit) {
      const page = await this.archive.page(filter, cursor, Math.min(STREAM_PAGE, limit - sent));
      if (page.length === 0) return;
      const hidden = await this.tables.hiddenFrom(
        viewer,
        page.map((m) => m.id),
      );
      const shown = page.filter((m) => !hidden.has(m.id));
      if (withEvents) yield* this.withExports(shown);
      else yield* shown;
      sent += page.length;
      const last = page[page.length - 1];
      cursor = { endedAt: last.endedAt, id: last.id };
      if (page.length < STREAM_PAGE) return;
    }
  }

  /**
   * Each match with its export. The events of EXPORT_CHUNK matches are read at a time and each export is
   * written as it is sent: what one read holds is alive until its last export is sent, and the longer that is,
   * the more of it the young generation's collections promote to the old one, as garbage a full collection
   * frees much later.
   */
  private async *withExports(matches: readonly ArchivedMatch[]): AsyncGenerator<ArchiveExportLine> {
    for (let i = 0; i < matches.length; i += EXPORT_CHUNK) {
      // A table whose duplicate round runs has no export yet, for its players too (src/match-store/tournament-tables.ts): its entry comes once the round ends.
      const waits = await this.tables.undisclosed(matches.slice(i, i + EXPORT_CHUNK).map((m) => m.id));
      const chunk = matches.slice(i, i + EXPORT_CHUNK).filter((m) => !waits.has(m.id));
      const writers = await this.exportWriters(
        chunk.map((m) => m.id),
        new Set(chunk.filter((m) => m.rated).map((m) => m.id)),
      );
      for (const match of chunk) {
        const write = writers.get(match.id);
        if (write) yield { match, export: write() };
      }
    }
  }

  /** Exports of several matches, each written when its function is called; the rated ones carry their rating changes. */
  private async exportWriters(ids: string[], rated: ReadonlySet<string>): Promise<Map<string, (() => string) | null>> {
    const changes = rated.size ? await this.ratings.changesForMany([...rated]) : new Map();
    return this.archive.exportWriters(ids, changes);
  }

  /** POST /v1/matches/export: one line per id, in the order given (an id given twice once), an error line for an unknown or unfinished match. */
  async exportBatch(ids: string[], viewer: string | null = null): Promise<BatchExportLine[]> {
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    if (unique.length > BATCH_EXPORT_MAX) throw new DomainError('VALIDATION_FAILED', `ids: at most ${BATCH_EXPORT_MAX}`);
    const rated = await this.archive.ratedAmong(unique);
    const writers = await this.exportWriters(unique, rated);
    const exists = await this.archive.existing(unique);
    const hidden = await this.tables.hiddenFrom(
      viewer,
      unique.filter((id) => /^[0-9a-f-]{36}$/.test(id)),
    );
    const waits = await this.tables.undisclosed(unique);
    return unique.map((id): BatchExportLine => {
      if (hidden.has(id))
        return { id, error: { code: 'TOURNAMENT_TABLE_HIDDEN', message: 'this table of a duplicate tournament round is hidden until the round ends' } };
      if (waits.has(id)) return { id, error: { code: 'TOURNAMENT_TABLE_HIDDEN', message: REVEAL_WAITS } };
      const text = writers.get(id)?.();
      if (text) return { id, export: text };
      return exists.has(id)
        ? { id, error: { code: 'FORBIDDEN', message: 'a match can be exported once it is over (its seed is secret until then)' } }
        : { id, error: { code: 'NOT_FOUND', message: `no match ${id}` } };
    });
  }

  /** POST /v1/matches/import by `importer` (a username): see MatchArchive.importJsonl. */
  importExport(text: string, importer: string): Promise<ImportResult> {
    if (typeof text !== 'string' || text.trim() === '')
      throw new DomainError('VALIDATION_FAILED', 'the body must be the JSON Lines export of a finished match');
    return this.archive.importJsonl(text, importer);
  }

  /**
   * The filters as the query reads them; NOT_FOUND for an unknown user, VALIDATION_FAILED for a bad filter.
   * A name with `@` is a trusted issuer's player (username@host): listed from the imports, no local account.
   */
  private async resolve(username: string, q: ArchiveQuery, viewer: string | null): Promise<{ filter: ArchiveFilter; after: ArchiveCursor | null }> {
    const player = String(username ?? '').toLowerCase();
    const foreign = player.includes('@') && player.length <= 300;
    const account = !foreign && player.length > 0 && player.length <= 64 ? await this.accounts.byUsername(player) : null;
    if (!account && !foreign) throw new DomainError('NOT_FOUND', `no user ${JSON.stringify(username)}`);
    const since = q.since ? timestamp('since', q.since) : undefined;
    const until = q.until ? timestamp('until', q.until) : undefined;
    const after = q.after ? decodeCursor(q.after) : null;
    if (q.after && !after) throw new DomainError('VALIDATION_FAILED', 'after: a `next` cursor of this list');
    if (q.result && !['win', 'loss', 'draw'].includes(q.result)) throw new DomainError('VALIDATION_FAILED', 'result: win, loss or draw');
    return {
      filter: {
        player,
        viewer,
        ruleset: q.ruleset ?? undefined,
        rated: q.rated ?? undefined,
        vs: q.vs ? q.vs.toLowerCase() : undefined,
        since,
        until,
        result: q.result ?? undefined,
      },
      after,
    };
  }
}

function timestamp(name: string, text: string): Date {
  const t = new Date(text);
  if (Number.isNaN(t.getTime())) throw new DomainError('VALIDATION_FAILED', `${name}: an ISO 8601 timestamp`);
  return t;
}
