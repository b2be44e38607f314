/** User archives (finished matches, newest first), batch export and import, over the match store. */
import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import { MatchStore } from '../events/match-store';
import { RatingsService } from '../ratings/ratings.service';
import { archivePage, decodeCursor, encodeCursor } from './archive-query';
import type { ArchiveCursor, ArchiveFilter, ArchivedMatch, ResultFilter } from './archive-query';

export type { ArchivedMatch } from './archive-query';

/** JSON pages: default and largest size. */
export const PAGE_DEFAULT = 20;
export const PAGE_MAX = 100;
/** NDJSON: the largest `max` accepted (no limit when not given). */
export const STREAM_MAX = 1_000_000;
/** Matches read per statement while streaming (the memory a stream holds). */
export const STREAM_PAGE = 200;
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
    private readonly prisma: PrismaService,
    private readonly store: MatchStore,
    private readonly ratings: RatingsService,
  ) {}

  /** One JSON page: max 1..100 (default 20), `next` null at the end. */
  async page(username: string, q: ArchiveQuery): Promise<UserMatchesPage> {
    const max = q.max ?? PAGE_DEFAULT;
    if (!Number.isSafeInteger(max) || max < 1 || max > PAGE_MAX) throw new DomainError('VALIDATION_FAILED', `max: an integer in 1..${PAGE_MAX}`);
    const { filter, after } = await this.resolve(username, q);
    // One more than asked tells whether there is a next page.
    const rows = await archivePage(this.prisma.database.rows, filter, after, max + 1);
    const matches = rows.slice(0, max);
    const last = matches[matches.length - 1];
    return { matches, next: rows.length > max && last ? encodeCursor({ endedAt: last.endedAt, id: last.id }) : null };
  }

  /**
   * The whole archive (or `max` matches) as NDJSON lines, read STREAM_PAGE at
   * a time. Validation and the user lookup happen here, before the first line
   * (so they are ordinary 4xx answers); the reads happen as the consumer pulls
   * (stop pulling, and no further page is read).
   */
  async stream(username: string, q: ArchiveQuery, withEvents: boolean): Promise<AsyncIterable<ArchivedMatch | ArchiveExportLine>> {
    const { filter, after } = await this.resolve(username, q);
    const limit = q.max ?? Infinity;
    return this.lines(filter, after, limit, withEvents);
  }

  private async *lines(filter: ArchiveFilter, after: ArchiveCursor | null, limit: number, withEvents: boolean): AsyncGenerator<ArchivedMatch | ArchiveExportLine> {
    let sent = 0;
    let cursor = after;
    while (sent < limit) {
      const page = await archivePage(this.prisma.database.rows, filter, cursor, Math.min(STREAM_PAGE, limit - sent));
      if (page.length === 0) return;
      // (not named `exports`: compiled to CommonJS, this module's own exports are read through that name)
      const texts = withEvents ? await this.exports(page.map((m) => m.id), new Set(page.filter((m) => m.rated).map((m) => m.id))) : null;
      for (const match of page) {
        if (texts) {
          const text = texts.get(match.id);
          if (text) yield { match, export: text };
        } else {
          yield match;
        }
      }
      sent += page.length;
      const last = page[page.length - 1];
      cursor = { endedAt: last.endedAt, id: last.id };
      if (page.length < STREAM_PAGE) return;
    }
  }

  /** Exports of several matches; the rated ones carry their rating changes. */
  private async exports(ids: string[], rated: ReadonlySet<string>): Promise<Map<string, string | null>> {
    const changes = rated.size ? await this.ratings.changesForMany([...rated]) : new Map();
    return this.store.exportMany(ids, changes);
  }

  /** POST /v1/matches/export: one line per id, in the order given (an id given twice once), an error line for an unknown or unfinished match. */
  async exportBatch(ids: string[]): Promise<BatchExportLine[]> {
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    if (unique.length > BATCH_EXPORT_MAX) throw new DomainError('VALIDATION_FAILED', `ids: at most ${BATCH_EXPORT_MAX}`);
    const rated = await this.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT m.id::text AS id FROM matches m JOIN match_events c ON c.match_id = m.id AND c.seq = 1
       WHERE m.id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid) AND c.payload -> 'settings' ->> 'rated' = 'true'`,
      JSON.stringify(unique),
    );
    const texts = await this.exports(unique, new Set(rated.map((r) => r.id)));
    const known = await this.prisma.match.findMany({ where: { id: { in: unique } }, select: { id: true } });
    const exists = new Set(known.map((k) => k.id));
    return unique.map((id): BatchExportLine => {
      const text = texts.get(id);
      if (text) return { id, export: text };
      return exists.has(id)
        ? { id, error: { code: 'FORBIDDEN', message: 'a match can be exported once it is over (its seed is secret until then)' } }
        : { id, error: { code: 'NOT_FOUND', message: `no match ${id}` } };
    });
  }

  /** POST /v1/matches/import: see MatchStore.importJsonl. */
  importExport(text: string): Promise<{ id: string; sourceId: string; created: boolean }> {
    if (typeof text !== 'string' || text.trim() === '') throw new DomainError('VALIDATION_FAILED', 'the body must be the JSON Lines export of a finished match');
    return this.store.importJsonl(text);
  }

  /** The filters as the query reads them; NOT_FOUND for an unknown user, VALIDATION_FAILED for a bad filter. */
  private async resolve(username: string, q: ArchiveQuery): Promise<{ filter: ArchiveFilter; after: ArchiveCursor | null }> {
    const player = String(username ?? '').toLowerCase();
    const account = player.length > 0 && player.length <= 64 ? await this.prisma.account.findUnique({ where: { username: player }, select: { id: true } }) : null;
    if (!account) throw new DomainError('NOT_FOUND', `no user ${JSON.stringify(username)}`);
    const since = q.since ? timestamp('since', q.since) : undefined;
    const until = q.until ? timestamp('until', q.until) : undefined;
    const after = q.after ? decodeCursor(q.after) : null;
    if (q.after && !after) throw new DomainError('VALIDATION_FAILED', 'after: a `next` cursor of this list');
    if (q.result && !['win', 'loss', 'draw'].includes(q.result)) throw new DomainError('VALIDATION_FAILED', 'result: win, loss or draw');
    return {
      filter: {
        player,
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
