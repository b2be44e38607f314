/** "My turn" across all my matches, the most urgent first. */
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { clockLowFraction } from '../common/durations';

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
  /** Less than CLOCK_LOW_FRACTION of the turn time limit is left (src/clocks/clock-low.ts). */
  clockLow: boolean;
}

@Injectable()
export class InboxService {
  private readonly lowFraction = clockLowFraction();

  constructor(private readonly prisma: PrismaService) {}

  /** Matches where it is `player`'s turn: by deadline (soonest first; untimed last, oldest turn first). `limit` (1..500) is checked by InboxQuery. */
  async myTurn(player: string, limit = 50): Promise<InboxEntry[]> {
    const rows = await this.prisma.$queryRawUnsafe<
      { match_id: string; preset: string; current_seq: number; turn_seat: number; deadline: Date | null; updated_at: Date; clock_low: boolean | null }[]
    >(
      `SELECT m.id::text AS match_id, m.preset, m.current_seq, m.turn_seat, c.deadline, m.updated_at,
         c.deadline - now() <= m.turn_time_limit::interval * $3::double precision AS clock_low
       FROM match_players mp
       JOIN matches m ON m.id = mp.match_id
       LEFT JOIN match_clocks c ON c.match_id = m.id AND c.seq = m.current_seq
       WHERE mp.player_id = $1 AND m.status = 'playing' AND m.turn_player = $1
       ORDER BY c.deadline ASC NULLS LAST, m.updated_at ASC, m.id ASC
       LIMIT $2::int`,
      player,
      limit,
      this.lowFraction,
    );
    return rows.map((r) => ({ matchId: r.match_id, preset: r.preset, seq: r.current_seq, seat: r.turn_seat, deadline: r.deadline, since: r.updated_at, clockLow: r.clock_low === true }));
  }
}
