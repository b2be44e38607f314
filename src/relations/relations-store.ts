/**
 * The relations' tables (docs/social.md): `follows`, `blocks` and
 * `message_settings`, read and written here only (src/table-ownership.spec.ts).
 * Other folders' statements exclude blocked pairs through ./blocked-pairs.ts.
 *
 * A follow between two players blocked either way is hidden from everyone but
 * its follower (a block is silent: the blocked player who follows the
 * blocker again sees their follow as any other, nobody else does); blocking
 * deletes the follows both ways, in the transaction that records the block.
 */
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { blockedEitherWay, blockedWith } from './blocked-pairs';

/** One side of a relation: the account and its username. */
export interface Party {
  id: string;
  username: string;
}

export interface RelationRow {
  username: string;
  created_at: Date;
}

/** Where a page starts: after the row (created_at, username) of the page before (newest first). */
export interface PageCursor {
  t: Date;
  username: string;
}

// Newest first, then by username; one more row than the page tells whether another follows.
const PAGE_TAIL = `AND ($3::timestamptz IS NULL OR (f.created_at, f.u) < ($3::timestamptz, $4::text))
  ORDER BY f.created_at DESC, f.u DESC LIMIT $5::int`;

// The follow is shown unless its pair is blocked either way; then only to its follower ($2, the viewer).
const VISIBLE = `(f.follower_id = $2::uuid OR NOT ${blockedEitherWay('f.follower_id', 'f.followee_id')})`;

const FOLLOWING_SQL = `SELECT f.u AS username, f.created_at FROM (SELECT *, followee AS u FROM follows WHERE follower_id = $1::uuid) f
  WHERE ${VISIBLE} ${PAGE_TAIL}`;
const FOLLOWERS_SQL = `SELECT f.u AS username, f.created_at FROM (SELECT *, follower AS u FROM follows WHERE followee_id = $1::uuid) f
  WHERE ${VISIBLE} ${PAGE_TAIL}`;
const BLOCKS_SQL = `SELECT f.u AS username, f.created_at FROM (SELECT *, blocked AS u FROM blocks WHERE blocker_id = $1::uuid) f
  WHERE $2::uuid IS NOT NULL ${PAGE_TAIL}`;

@Injectable()
export class RelationsStore {
  constructor(private readonly prisma: PrismaService) {}

  // ------------------------------------------------------------ follows

  /** `from` follows `to` (idempotent: a second follow keeps the first's time). */
  async follow(from: Party, to: Party): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `INSERT INTO follows (follower_id, follower, followee_id, followee) VALUES ($1::uuid, $2, $3::uuid, $4) ON CONFLICT DO NOTHING`,
      from.id,
      from.username,
      to.id,
      to.username,
    );
  }

  async unfollow(fromId: string, toId: string): Promise<void> {
    await this.prisma.follow.deleteMany({ where: { followerId: fromId, followeeId: toId } });
  }

  /** Whether `fromId` follows `toId` (the row, visible or not). */
  async follows(fromId: string, toId: string): Promise<boolean> {
    return (await this.prisma.follow.count({ where: { followerId: fromId, followeeId: toId } })) > 0;
  }

  /** Each follows the other, and no block stands between them. */
  async followEachOther(a: string, b: string): Promise<boolean> {
    const rows = await this.prisma.$queryRawUnsafe<{ ok: boolean }[]>(
      `SELECT (EXISTS (SELECT 1 FROM follows WHERE follower_id = $1::uuid AND followee_id = $2::uuid)
           AND EXISTS (SELECT 1 FROM follows WHERE follower_id = $2::uuid AND followee_id = $1::uuid)
           AND NOT ${blockedEitherWay('$1::uuid', '$2::uuid')}) AS ok`,
      a,
      b,
    );
    return rows[0]?.ok === true;
  }

  /** Whom `accountId` follows, as `viewerId` may see it, newest first. */
  following(accountId: string, viewerId: string, cursor: PageCursor | null, limit: number): Promise<RelationRow[]> {
    return this.page(FOLLOWING_SQL, accountId, viewerId, cursor, limit);
  }

  /** Who follows `accountId`, as `viewerId` may see it, newest first. */
  followers(accountId: string, viewerId: string, cursor: PageCursor | null, limit: number): Promise<RelationRow[]> {
    return this.page(FOLLOWERS_SQL, accountId, viewerId, cursor, limit);
  }

  // ------------------------------------------------------------ blocks

  /** `from` blocks `to`: the follows both ways are deleted in the same transaction (idempotent). */
  async block(from: Party, to: Party): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(
        `DELETE FROM follows WHERE (follower_id = $1::uuid AND followee_id = $2::uuid) OR (follower_id = $2::uuid AND followee_id = $1::uuid)`,
        from.id,
        to.id,
      );
      await tx.$executeRawUnsafe(
        `INSERT INTO blocks (blocker_id, blocker, blocked_id, blocked) VALUES ($1::uuid, $2, $3::uuid, $4) ON CONFLICT DO NOTHING`,
        from.id,
        from.username,
        to.id,
        to.username,
      );
    });
  }

  async unblock(fromId: string, toId: string): Promise<void> {
    await this.prisma.block.deleteMany({ where: { blockerId: fromId, blockedId: toId } });
  }

  /** Whether `fromId` blocks `toId` (one way). */
  async blocks(fromId: string, toId: string): Promise<boolean> {
    return (await this.prisma.block.count({ where: { blockerId: fromId, blockedId: toId } })) > 0;
  }

  async blockedEitherWay(a: string, b: string): Promise<boolean> {
    const rows = await this.prisma.$queryRawUnsafe<{ blocked: boolean }[]>(`SELECT ${blockedEitherWay('$1::uuid', '$2::uuid')} AS blocked`, a, b);
    return rows[0]?.blocked === true;
  }

  /** Whether any two of these usernames are blocked either way. */
  async anyBlockedAmong(usernames: string[]): Promise<boolean> {
    const rows = await this.prisma.$queryRawUnsafe<{ blocked: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker = ANY ($1::text[]) AND blocked = ANY ($1::text[]) AND blocker <> blocked) AS blocked`,
      usernames,
    );
    return rows[0]?.blocked === true;
  }

  /** Whether `player` and any of `others` (usernames) are blocked either way. */
  async blockedWithAny(player: string, others: string[]): Promise<boolean> {
    const rows = await this.prisma.$queryRawUnsafe<{ blocked: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM blocks WHERE (blocker = $1 AND blocked = ANY ($2::text[])) OR (blocked = $1 AND blocker = ANY ($2::text[]))) AS blocked`,
      player,
      others,
    );
    return rows[0]?.blocked === true;
  }

  /** The accounts blocked either way with `accountId`. */
  async blockedIds(accountId: string): Promise<string[]> {
    const rows = await this.prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT b::text AS id FROM ${blockedWith('$1::uuid')} AS x(b)`, accountId);
    return rows.map((r) => r.id);
  }

  /** Whom `accountId` blocks, newest first. */
  blockList(accountId: string, cursor: PageCursor | null, limit: number): Promise<RelationRow[]> {
    return this.page(BLOCKS_SQL, accountId, accountId, cursor, limit);
  }

  // ------------------------------------------------------------ message settings

  async directMessages(accountId: string): Promise<string | null> {
    const row = await this.prisma.messageSetting.findUnique({ where: { accountId }, select: { directMessages: true } });
    return row?.directMessages ?? null;
  }

  async setDirectMessages(accountId: string, value: string): Promise<void> {
    await this.prisma.messageSetting.upsert({
      where: { accountId },
      create: { accountId, directMessages: value },
      update: { directMessages: value, updatedAt: new Date() },
    });
  }

  private page(sql: string, accountId: string, viewerId: string, cursor: PageCursor | null, limit: number): Promise<RelationRow[]> {
    return this.prisma.$queryRawUnsafe<RelationRow[]>(sql, accountId, viewerId, cursor?.t ?? null, cursor?.username ?? null, limit + 1);
  }
}
