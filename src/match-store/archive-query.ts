/**
 * One keyset page of a user's finished matches, newest first (end time, then
 * id), filters applied in the database: the JSON pages and the NDJSON stream
 * read the same statement, so a stream holds one page in memory however many
 * matches the user has.
 */
import { sideOf } from '../engine';
import type { MatchEvent, RulesetOptions, Seat } from '../engine';
import type { RowReader } from '../database/database';
import { foreignPlayer } from '../match-formats/export-keys';

export type ResultFilter = 'win' | 'loss' | 'draw';

export interface ArchiveFilter {
  /** The player id in match_players (a lowercased username, or username@host for a trusted issuer's player). */
  player: string;
  /**
   * Who reads (a username; null: anonymous). A private match is listed only to its players; an unverified
   * import only to its importer (in their own archive).
   */
  viewer?: string | null;
  ruleset?: string;
  rated?: boolean;
  vs?: string;
  since?: Date;
  until?: Date;
  result?: ResultFilter;
}

/** Where the previous page ended. */
export interface ArchiveCursor {
  endedAt: Date;
  id: string;
}

export interface ArchivedPlayer {
  seat: number;
  side: number;
  player: string | null;
}

export interface ArchivedMatch {
  id: string;
  preset: string;
  rulesetId: string | null;
  rated: boolean;
  imported: boolean;
  sourceId: string | null;
  /** For an import: the trusted issuer that signed it (its seats are username@host); null otherwise. */
  issuer: string | null;
  /** False for an unverified import. */
  verified: boolean;
  players: ArchivedPlayer[];
  result: { winner: number | null; reason: string; totals: number[] } | null;
  createdAt: Date;
  endedAt: Date;
}

interface Row {
  id: string;
  preset: string;
  ruleset_id: string | null;
  options: RulesetOptions;
  seats: Seat[];
  imported: boolean;
  source_id: string | null;
  import_issuer: string | null;
  created_at: Date;
  ended_at: Date;
  settings: { rated?: boolean } | null;
  last_type: string;
  last_payload: Record<string, unknown>;
}

// The side of a seat, as the engine's sideOf says: teams of two by seat parity, else one seat per side.
const SIDE = (seat: string) => `(CASE WHEN (m.options ->> 'teams')::boolean THEN ${seat} % 2 ELSE ${seat} END)`;

// The page is chosen on matches and match_players alone (the rated filter looks at the first event only when
// asked), and only its rows then read their first and last events: joining the events before the sort cost two
// index lookups for every match of the user on every page. It walks the index on match_players (player_id,
// ended_at DESC, match_id DESC) from the cursor, which is always given (the first page's is FIRST_PAGE), so a page
// costs the same however many matches the player has.
// Who sees what ($11, the viewer): a row at a negative seat lists an unverified import for its importer, and only to
// them; a private match is listed only to a player seated in it.
const PAGE_SQL = `
WITH page AS (
  SELECT m.id, m.preset, m.ruleset_id, m.options, m.seats, m.imported, m.source_id, m.import_issuer, m.created_at, m.ended_at, m.current_seq
  FROM match_players p
  JOIN matches m ON m.id = p.match_id
  WHERE p.player_id = $1::text AND p.ended_at IS NOT NULL AND m.status = 'over'
    AND (p.seat >= 0 OR p.player_id = $11::text)
    AND (m.visibility = 'public' OR EXISTS (
      SELECT 1 FROM match_players v WHERE v.match_id = m.id AND v.player_id = $11::text AND v.seat >= 0))
    AND ($2::text IS NULL OR COALESCE(m.ruleset_id::text, m.preset) = $2::text)
    AND ($3::boolean IS NULL OR (SELECT COALESCE(c.payload -> 'settings' ->> 'rated', 'false') = 'true'
      FROM match_events c WHERE c.match_id = m.id AND c.seq = 1) = $3::boolean)
    AND ($4::text IS NULL OR EXISTS (
      SELECT 1 FROM match_players o WHERE o.match_id = m.id AND o.player_id = $4::text AND ${SIDE('o.seat')} <> ${SIDE('p.seat')}))
    AND ($5::timestamptz IS NULL OR m.ended_at >= $5::timestamptz)
    AND ($6::timestamptz IS NULL OR m.ended_at <= $6::timestamptz)
    AND ($7::text IS NULL OR p.seat >= 0 AND (
      ($7::text = 'win' AND m.winner = ${SIDE('p.seat')})
      OR ($7::text = 'loss' AND m.winner IS NOT NULL AND m.winner <> ${SIDE('p.seat')})
      OR ($7::text = 'draw' AND m.winner IS NULL)))
    AND (p.ended_at, p.match_id) < ($8::timestamptz, $9::uuid)
  ORDER BY p.ended_at DESC, p.match_id DESC
  LIMIT $10::int
)
SELECT m.id::text AS id, m.preset, m.ruleset_id::text AS ruleset_id, m.options, m.seats, m.imported, m.source_id, m.import_issuer,
  m.created_at, m.ended_at, c.payload -> 'settings' AS settings, e.type AS last_type, e.payload AS last_payload
FROM page m
JOIN match_events c ON c.match_id = m.id AND c.seq = 1
JOIN match_events e ON e.match_id = m.id AND e.seq = m.current_seq
ORDER BY m.ended_at DESC, m.id DESC`;

/** A cursor before every match: the first page's. */
const FIRST_PAGE = { endedAt: 'infinity', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' } as const;

export async function archivePage(rows: RowReader, filter: ArchiveFilter, after: ArchiveCursor | null, limit: number): Promise<ArchivedMatch[]> {
  // Where one read holds the event loop (PGlite), the page is read in chunks, each from the last one's end.
  const chunk = rows.chunkRows ?? limit;
  const page: ArchivedMatch[] = [];
  let cursor = after;
  while (page.length < limit) {
    const want = Math.min(chunk, limit - page.length);
    if (!(want > 0)) break;
    const read = await rows<Row>(PAGE_SQL, [
      filter.player,
      filter.ruleset ?? null,
      filter.rated ?? null,
      filter.vs ?? null,
      filter.since ?? null,
      filter.until ?? null,
      filter.result ?? null,
      cursor?.endedAt ?? FIRST_PAGE.endedAt,
      cursor?.id ?? FIRST_PAGE.id,
      want,
      filter.viewer ?? null,
    ]);
    for (const r of read) page.push(archivedMatch(r));
    if (read.length < want) break;
    const last = page[page.length - 1];
    cursor = { endedAt: last.endedAt, id: last.id };
  }
  return page;
}

function archivedMatch(r: Row): ArchivedMatch {
  const ended = r.last_type === 'MatchEnded' ? ({ type: r.last_type, ...r.last_payload } as Extract<MatchEvent, { type: 'MatchEnded' }>) : null;
  return {
    id: r.id,
    preset: r.preset,
    rulesetId: r.ruleset_id,
    rated: r.settings?.rated === true,
    imported: r.imported,
    sourceId: r.source_id,
    issuer: r.import_issuer,
    verified: !r.imported || r.import_issuer !== null,
    players: r.seats.map((s, seat) => {
      const name = s.player ?? s.reservedFor;
      return { seat, side: sideOf(r.options, seat), player: s.bot ? `bot:${s.bot}` : name && r.import_issuer ? foreignPlayer(name, r.import_issuer) : name };
    }),
    result: ended ? { winner: ended.winner, reason: ended.reason, totals: ended.totals } : null,
    createdAt: r.created_at,
    endedAt: r.ended_at,
  };
}

/** The opaque `after` cursor: base64url of [end time, id]. */
export function encodeCursor(c: ArchiveCursor): string {
  return Buffer.from(JSON.stringify([c.endedAt.toISOString(), c.id])).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Null for anything that is not a cursor this service wrote. */
export function decodeCursor(text: string): ArchiveCursor | null {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'string' || typeof value[1] !== 'string' || !UUID.test(value[1])) return null;
    const endedAt = new Date(value[0]);
    return Number.isNaN(endedAt.getTime()) ? null : { endedAt, id: value[1] };
  } catch {
    return null;
  }
}
