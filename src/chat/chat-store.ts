/**
 * The chat's table, `chat_messages`, read and written here only (docs/development.md
 * "Data access"). Raw SQL: the insert is one statement that also holds the
 * flood guard (the same text by the same author in the same room within the
 * window is not written), so two instances cannot both let a repeat in; the
 * history is a keyset page on (room, sent_at DESC, id DESC); the sweep deletes
 * what is older than the retention, a bounded batch at a time.
 */
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { prepared } from '../database/prepared-statements';

export interface ChatRow {
  id: string;
  room: string;
  author: string;
  author_id: string;
  text: string;
  sent_at: Date;
  removed_at: Date | null;
}

const COLUMNS = `id::text AS id, room, author, author_id::text AS author_id, text, sent_at, removed_at`;

/** $1 id, $2 room, $3 author, $4 author id, $5 text, $6 flood window (ms; 0: no guard). */
const INSERT_SQL = prepared(`INSERT INTO chat_messages (id, room, author, author_id, text)
  SELECT $1::uuid, $2, $3, $4::uuid, $5
  WHERE $6::int = 0 OR NOT EXISTS (
    SELECT 1 FROM chat_messages WHERE room = $2 AND author = $3 AND text = $5 AND removed_at IS NULL
      AND sent_at > now() - make_interval(secs => $6::int / 1000.0))
  RETURNING ${COLUMNS}`);

/** $1 room, $2 cursor time (null: from the newest), $3 cursor id, $4 limit, $5 authors not to show. */
const PAGE_SQL = prepared(`SELECT ${COLUMNS} FROM chat_messages
  WHERE room = $1 AND removed_at IS NULL
    AND ($2::timestamptz IS NULL OR (sent_at, id) < ($2::timestamptz, $3::uuid))
    AND NOT (author_id = ANY ($5::uuid[]))
  ORDER BY sent_at DESC, id DESC LIMIT $4`);

@Injectable()
export class ChatStore {
  constructor(private readonly prisma: PrismaService) {}

  /** The message as written, or undefined when the flood guard refused it (the same text again within the window). */
  async insert(m: { id: string; room: string; author: string; authorId: string; text: string }, floodWindowMs: number): Promise<ChatRow | undefined> {
    const rows = await this.prisma.$queryRawUnsafe<ChatRow[]>(INSERT_SQL, m.id, m.room, m.author, m.authorId, m.text, floodWindowMs);
    return rows[0];
  }

  /** Newest first, before the cursor, without removed messages and without the messages of `hidden` authors (blocks). */
  page(room: string, cursor: { sentAt: string; id: string } | null, limit: number, hidden: string[]): Promise<ChatRow[]> {
    return this.prisma.$queryRawUnsafe<ChatRow[]>(PAGE_SQL, room, cursor?.sentAt ?? null, cursor?.id ?? null, limit, hidden);
  }

  async find(id: string): Promise<ChatRow | undefined> {
    const rows = await this.prisma.$queryRawUnsafe<ChatRow[]>(`SELECT ${COLUMNS} FROM chat_messages WHERE id = $1::uuid`, id);
    return rows[0];
  }

  /** Marks a message removed by a moderator: whether it was there and not removed yet. */
  async remove(id: string, by: string): Promise<boolean> {
    const n = await this.prisma.$executeRawUnsafe(
      `UPDATE chat_messages SET removed_at = now(), removed_by = $2 WHERE id = $1::uuid AND removed_at IS NULL`,
      id,
      by,
    );
    return n === 1;
  }

  /** Deletes up to `batch` messages sent more than `days` ago; returns how many. */
  async sweep(days: number, batch: number): Promise<number> {
    return this.prisma.$executeRawUnsafe(
      `DELETE FROM chat_messages WHERE id IN (SELECT id FROM chat_messages WHERE sent_at < now() - make_interval(days => $1::int) LIMIT $2::int)`,
      days,
      batch,
    );
  }
}
