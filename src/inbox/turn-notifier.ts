/**
 * Live notices after an append, whoever made it (a person through the API, a
 * bot seat, the clock): "the match moved" on the match's channel, and "your
 * turn" (with the deadline) to the human to move.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { PUB_SUB } from '../graphql/pubsub';
import type { PubSubEngine } from '../graphql/pubsub';
import type { CommandResult } from '../matches/match-store';
import { matchChannel, turnChannel } from './channels';
import type { MatchNotice, TurnNotice } from './channels';

@Injectable()
export class TurnNotifier {
  private readonly logger = new Logger('TurnNotifier');

  constructor(
    private readonly prisma: PrismaService,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
  ) {}

  async published(result: Pick<CommandResult, 'matchId' | 'seq'>): Promise<void> {
    const notice: MatchNotice = { matchId: result.matchId, seq: result.seq };
    await this.pubsub.publish(matchChannel(result.matchId), notice);
    const rows = await this.prisma.$queryRawUnsafe<{ current_seq: number; turn_seat: number | null; turn_player: string | null; deadline: Date | null }[]>(
      `SELECT m.current_seq, m.turn_seat, m.turn_player, c.deadline
       FROM matches m LEFT JOIN match_clocks c ON c.match_id = m.id AND c.seq = m.current_seq
       WHERE m.id = $1::uuid AND m.status = 'playing'`,
      result.matchId,
    );
    const m = rows[0];
    if (!m || m.turn_player === null || m.turn_seat === null || m.turn_player.startsWith('bot:')) return;
    const turn: TurnNotice = { matchId: result.matchId, seq: m.current_seq, seat: m.turn_seat, player: m.turn_player, deadline: m.deadline };
    await this.pubsub.publish(turnChannel(m.turn_player), turn);
  }

  /** published(), never throwing (for background workers). */
  async publishQuietly(result: Pick<CommandResult, 'matchId' | 'seq'>): Promise<void> {
    try {
      await this.published(result);
    } catch (err) {
      this.logger.warn(`notice for ${result.matchId}@${result.seq} not published: ${(err as Error).message}`);
    }
  }
}
