/** "My turn" across all my matches, the most urgent first. */
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';

export interface InboxEntry {
  matchId: string;
  preset: string;
  /** The seq to send as expectedSeq (If-Match). */
  seq: number;
  seat: number;
  /** When the turn clock runs out (null: untimed). */
  deadline: Date | null;
  /** When the turn came (the last append). */
  since: Date;
}

@Injectable()
export class InboxService {
  constructor(private readonly prisma: PrismaService) {}

  /** Matches where it is `player`'s turn: by deadline (soonest first; untimed last, oldest turn first). `limit` (1..500) is checked by InboxQuery. */
  async myTurn(player: string, limit = 50): Promise<InboxEntry[]> {
    const rows = await this.prisma.$queryRawUnsafe<
      { match_id: string; preset: string; current_seq: number; turn_seat: number; deadline: Date | null; updated_at: Date }[]
    >(
      `SELECT m.id::text AS match_id, m.preset, m.current_seq, m.turn_seat, c.deadline, m.updated_at
       FROM match_players mp
       JOIN matches m ON m.id = mp.match_id
       LEFT JOIN match_clocks c ON c.match_id = m.id AND c.seq = m.current_seq
       WHERE mp.player_id = $1 AND m.status = 'playing' AND m.turn_player = $1
       ORDER BY c.deadline ASC NULLS LAST, m.updated_at ASC, m.id ASC
       LIMIT $2::int`,
      player,
      limit,
    );
    return rows.map((r) => ({ matchId: r.match_id, preset: r.preset, seq: r.current_seq, seat: r.turn_seat, deadline: r.deadline, since: r.updated_at }));
  }
}
