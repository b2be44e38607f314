/**
 * The tournaments' rows besides their log (./tournament-store.ts appends
 * the log and its projection on the tournaments row): the row a creation
 * inserts, the players' rows (tournament_players, which the listing's
 * visibility reads), the start time the scheduler polls, and the counts
 * the bounds check under a lock. `db` is the caller's transaction when the
 * statement is part of a transition (the tournament's row locked).
 */
import type { Prisma } from '../database/database';
import { prepared } from '../database/prepared-statements';
import type { TournamentSettings } from './tournament-log';

export type Sql = Pick<Prisma, '$queryRawUnsafe' | '$executeRawUnsafe'>;

/** Tournaments started per scheduler tick, at most (the rest on the next). */
export const DUE_STARTS_BATCH = 20;
// Polled every tick: prepared, with no parameters, so a connection plans it once.
const DUE_STARTS_SQL = prepared(
  `SELECT id::text AS id FROM tournaments WHERE status = 'created' AND starts_at <= now() ORDER BY starts_at LIMIT ${DUE_STARTS_BATCH}`,
);

const OPEN_CREATED_SQL = `SELECT count(*)::int AS n FROM tournaments WHERE created_by = $1 AND status IN ('created', 'started')`;
const JOINS_OF_PLAYER_SQL = `SELECT count(*)::int AS n FROM tournament_events WHERE tournament_id = $1::uuid AND type = 'PlayerJoined' AND payload->>'player' = $2`;

export interface ListFilter {
  status: string | null;
  format: string | null;
  /** Who lists (private tournaments they created or play in are listed too); '' for anonymous. */
  caller: string;
  cursor: { t: string; id: string } | null;
  limit: number;
}

export class TournamentRecords {
  /** Open (created or started) tournaments created by `username`. */
  async openCreatedBy(db: Sql, username: string): Promise<number> {
    const open = await db.$queryRawUnsafe<{ n: number }[]>(OPEN_CREATED_SQL, username);
    return open[0]?.n ?? 0;
  }

  /** A new tournament's row, before its first event (the chain starts at the genesis hash). */
  async insert(db: Sql, row: { id: string; settings: TournamentSettings; createdBy: string; masterSeed: string | null }): Promise<void> {
    const { id, settings } = row;
    await db.$executeRawUnsafe(
      `INSERT INTO tournaments (id, name, format, created_by, visibility, settings, starts_at, last_hash, master_seed)
         VALUES ($1::uuid, $2, $3, $4, $5, $6::jsonb, $7::timestamptz, $8, $9)`,
      id,
      settings.name,
      settings.format,
      row.createdBy,
      settings.visibility,
      JSON.stringify(settings),
      settings.startsAt,
      '0'.repeat(64),
      row.masterSeed,
    );
  }

  /** The joins `player` has made to the tournament (its log's PlayerJoined events). */
  async joinsOf(db: Sql, id: string, player: string): Promise<number> {
    const joined = await db.$queryRawUnsafe<{ n: number }[]>(JOINS_OF_PLAYER_SQL, id, player);
    return joined[0]?.n ?? 0;
  }

  async addPlayer(db: Sql, id: string, player: string): Promise<void> {
    await db.$executeRawUnsafe(`INSERT INTO tournament_players (tournament_id, player) VALUES ($1::uuid, $2)`, id, player);
  }

  /** A withdrawal before the start: the player is no longer one. */
  async removePlayer(db: Sql, id: string, player: string): Promise<void> {
    await db.$executeRawUnsafe(`DELETE FROM tournament_players WHERE tournament_id = $1::uuid AND player = $2`, id, player);
  }

  /** A withdrawal after the start: the player stays, withdrawn. */
  async markWithdrawn(db: Sql, id: string, player: string): Promise<void> {
    await db.$executeRawUnsafe(`UPDATE tournament_players SET withdrawn = true WHERE tournament_id = $1::uuid AND player = $2`, id, player);
  }

  /** The tournament no longer starts by itself (started, or cancelled). */
  async clearStartsAt(db: Sql, id: string): Promise<void> {
    await db.$executeRawUnsafe(`UPDATE tournaments SET starts_at = NULL WHERE id = $1::uuid`, id);
  }

  /** Tournaments whose startsAt has come (at most DUE_STARTS_BATCH). */
  async dueStarts(db: Sql): Promise<string[]> {
    const rows = await db.$queryRawUnsafe<{ id: string }[]>(DUE_STARTS_SQL);
    return rows.map((r) => r.id);
  }

  /** A page of the tournaments `caller` may see, newest first: at most limit + 1 rows (one more tells that a next page exists). */
  async page(db: Sql, f: ListFilter): Promise<{ id: string; created_at: Date }[]> {
    return db.$queryRawUnsafe<{ id: string; created_at: Date }[]>(
      `SELECT id::text AS id, created_at FROM tournaments
       WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR format = $2)
         AND (visibility = 'public' OR created_by = $3 OR EXISTS (SELECT 1 FROM tournament_players p WHERE p.tournament_id = tournaments.id AND p.player = $3))
         AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::uuid))
       ORDER BY created_at DESC, id DESC LIMIT $6::int`,
      f.status,
      f.format,
      f.caller,
      f.cursor?.t ?? null,
      f.cursor?.id ?? null,
      f.limit + 1,
    );
  }
}
