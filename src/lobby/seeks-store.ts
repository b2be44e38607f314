/**
 * The lobby's table: `seeks` (docs/lobby.md "Seeks"), read and written here
 * only. Raw SQL throughout: the pairing reads under its bucket's lock and
 * FOR UPDATE, and a creation counts under its owner's lock, so the
 * statements that must run in the caller's transaction take it as `tx`
 * (the caller holds the lock: ./seeks.service.ts, ./seek-pairing.ts).
 */
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { StoreTransaction } from '../match-store/match-store';
import { blockedWith } from '../relations/blocked-pairs';

export interface SeekRow {
  id: string;
  player: string;
  bucket: string;
  preset: string;
  ruleset_id: string | null;
  overrides: Record<string, unknown>;
  options: Record<string, unknown>;
  players: number;
  turn_time_limit: string | null;
  on_expiry: string;
  rated: boolean;
  rating: number;
  rating_min: number | null;
  rating_max: number | null;
  correspondence: boolean;
  status: string;
  match_id: string | null;
  seat: number | null;
  created_at: Date;
  last_seen_at: Date;
  ended_at: Date | null;
}

/** A seek as the pairing reads it: with the players of its bucket's open seeks it must never meet (blocks either way). */
export interface PairingSeekRow extends SeekRow {
  blocked_players: string[];
}

/** A seek to record: the resolved request (./seeks.service.ts, resolve) with its owner. */
export interface NewSeek {
  id: string;
  player: string;
  accountId: string;
  bucket: string;
  preset: string;
  rulesetId: string | null;
  overrides: Record<string, unknown>;
  options: Record<string, unknown>;
  players: number;
  turnTimeLimit: string | null;
  onExpiry: string;
  rated: boolean;
  rating: number;
  ratingMin: number | null;
  ratingMax: number | null;
  correspondence: boolean;
}

export const SEEK_COLUMNS = `id::text AS id, player, bucket, preset, ruleset_id::text AS ruleset_id, overrides, options, players, turn_time_limit, on_expiry,
  rated, rating, rating_min, rating_max, correspondence, status, match_id::text AS match_id, seat, created_at, last_seen_at, ended_at`;

/** Seeks one pairing attempt reads (./seek-pairing.ts). */
const PAIRING_READ_LIMIT = 400;

const INSERT_SQL = `INSERT INTO seeks (id, player, account_id, bucket, preset, ruleset_id, overrides, options, players, turn_time_limit, on_expiry, rated, rating, rating_min, rating_max, correspondence)
  VALUES ($1::uuid, $2, $3::uuid, $4, $5, $6::uuid, $7::jsonb, $8::jsonb, $9::int, $10, $11, $12::boolean, $13::int, $14::int, $15::int, $16::boolean)
  RETURNING ${SEEK_COLUMNS}`;
// With each seek, the owners of the bucket's open seeks blocked either way with its owner (the relations' fragment):
// read in the statement that locks the seeks, under the bucket's lock, so no attempt on any instance seats them together.
// The bucket is looked through only for an owner with a block (two index probes otherwise).
const OPEN_SEEKS_SQL = `SELECT ${SEEK_COLUMNS},
  CASE WHEN EXISTS ${blockedWith('s.account_id')}
    THEN ARRAY(SELECT o.player FROM seeks o WHERE o.bucket = s.bucket AND o.status = 'open' AND o.account_id IN ${blockedWith('s.account_id')})
    ELSE '{}'::text[] END AS blocked_players
  FROM seeks s WHERE s.bucket = $1::text AND s.status = 'open' ORDER BY s.created_at, s.id LIMIT ${PAIRING_READ_LIMIT} FOR UPDATE OF s`;
const PAIR_SQL = `UPDATE seeks SET status = 'paired', match_id = $2::uuid, seat = x.seat, ended_at = now()
  FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, seat int)
  WHERE seeks.id = x.id AND seeks.status = 'open'`;

@Injectable()
export class SeeksStore {
  constructor(private readonly prisma: PrismaService) {}

  // ------------------------------------------------------------ creating (under the owner's lock, in its transaction)

  /** The owner's open seek in `bucket` with this rating range, if any. */
  async identicalOpen(tx: StoreTransaction, player: string, bucket: string, ratingMin: number | null, ratingMax: number | null): Promise<SeekRow | undefined> {
    const rows = await tx.$queryRawUnsafe<SeekRow[]>(
      `SELECT ${SEEK_COLUMNS} FROM seeks WHERE player = $1 AND status = 'open' AND bucket = $2
             AND rating_min IS NOT DISTINCT FROM $3::int AND rating_max IS NOT DISTINCT FROM $4::int LIMIT 1`,
      player,
      bucket,
      ratingMin,
      ratingMax,
    );
    return rows[0];
  }

  /** How many open seeks the owner has. */
  async openCount(tx: StoreTransaction, player: string): Promise<number> {
    const open = await tx.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM seeks WHERE player = $1 AND status = 'open'`, player);
    return open[0]?.n ?? 0;
  }

  async insert(tx: StoreTransaction, s: NewSeek): Promise<SeekRow> {
    const rows = await tx.$queryRawUnsafe<SeekRow[]>(
      INSERT_SQL,
      s.id,
      s.player,
      s.accountId,
      s.bucket,
      s.preset,
      s.rulesetId,
      JSON.stringify(s.overrides),
      JSON.stringify(s.options),
      s.players,
      s.turnTimeLimit,
      s.onExpiry,
      s.rated,
      s.rating,
      s.ratingMin,
      s.ratingMax,
      s.correspondence,
    );
    return rows[0];
  }

  // ------------------------------------------------------------ pairing (under the bucket's lock, in its transaction)

  /**
   * The bucket's open seeks, oldest first, locked until the transaction ends (a cancel or expiry waits for the outcome),
   * each with the players of the bucket it must not meet (blocked either way).
   */
  openForPairing(tx: StoreTransaction, bucket: string): Promise<PairingSeekRow[]> {
    return tx.$queryRawUnsafe<PairingSeekRow[]>(OPEN_SEEKS_SQL, bucket);
  }

  /** Marks seeks paired into `matchId` at their seats; returns how many were still open. */
  markPaired(tx: StoreTransaction, matchId: string, seats: { id: string; seat: number }[]): Promise<number> {
    return tx.$executeRawUnsafe(PAIR_SQL, JSON.stringify(seats), matchId);
  }

  // ------------------------------------------------------------ one seek, one owner

  async get(id: string, player: string): Promise<SeekRow | undefined> {
    const rows = await this.prisma.$queryRawUnsafe<SeekRow[]>(`SELECT ${SEEK_COLUMNS} FROM seeks WHERE id = $1::uuid AND player = $2`, id, player);
    return rows[0];
  }

  /** Cancels the owner's open seek; undefined when it is not open (waits for a pairing that holds the row). */
  async cancelOpen(id: string, player: string): Promise<SeekRow | undefined> {
    const rows = await this.prisma.$queryRawUnsafe<SeekRow[]>(
      `UPDATE seeks SET status = 'canceled', ended_at = now() WHERE id = $1::uuid AND player = $2 AND status = 'open' RETURNING ${SEEK_COLUMNS}`,
      id,
      player,
    );
    return rows[0];
  }

  /** The owner's open seeks, then those ended in the last `endedShownHours`, newest first. */
  mine(player: string, endedShownHours: number): Promise<SeekRow[]> {
    return this.prisma.$queryRawUnsafe<SeekRow[]>(
      `SELECT ${SEEK_COLUMNS} FROM seeks WHERE player = $1 AND (status = 'open' OR ended_at > now() - interval '${endedShownHours} hours')
       ORDER BY (status = 'open') DESC, created_at DESC, id DESC LIMIT 200`,
      player,
    );
  }

  // ------------------------------------------------------------ the sweeper's work

  /** Owners of open live (not correspondence) seeks. */
  async liveOwners(): Promise<string[]> {
    const owners = await this.prisma.$queryRawUnsafe<{ player: string }[]>(
      `SELECT DISTINCT player FROM seeks WHERE status = 'open' AND correspondence = false`,
    );
    return owners.map((o) => o.player);
  }

  /** The open live seeks of these owners were seen now. */
  async seen(players: string[]): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `UPDATE seeks SET last_seen_at = now() WHERE status = 'open' AND correspondence = false AND player = ANY ($1::text[])`,
      players,
    );
  }

  /** Open live seeks not seen for `idleSeconds` expire. */
  async expireIdle(idleSeconds: number): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `UPDATE seeks SET status = 'expired', ended_at = now()
       WHERE status = 'open' AND correspondence = false AND last_seen_at < now() - make_interval(secs => $1::double precision)`,
      idleSeconds,
    );
  }

  /** Buckets holding enough open seeks of distinct players for a match, oldest waiting first. */
  async pairableBuckets(): Promise<string[]> {
    const buckets = await this.prisma.$queryRawUnsafe<{ bucket: string }[]>(
      `SELECT bucket FROM seeks WHERE status = 'open' GROUP BY bucket, players HAVING count(DISTINCT player) >= players ORDER BY min(created_at)`,
    );
    return buckets.map((b) => b.bucket);
  }

  /** Cancels the open live seeks of these owners (idempotent). */
  async cancelLiveOf(players: string[]): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `UPDATE seeks SET status = 'canceled', ended_at = now()
       WHERE status = 'open' AND correspondence = false AND player = ANY ($1::text[])`,
      players,
    );
  }
}
