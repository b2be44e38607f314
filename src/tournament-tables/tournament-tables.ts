/**
 * Who may read a tournament's match while its round runs (docs/tournaments.md
 * "Duplicate"): every table of a duplicate round is dealt the same cards, so
 * until the round ends a table is hidden from everyone but its two players
 * (no view, no events, no live feed, no export, no archive entry): a player
 * who could watch another table would see their own cards played. Read by
 * every match read path (matches, archives, streams), which is why it lives
 * in a folder of its own that imports none of them: one indexed lookup
 * (tournament_tables.match_id is unique) per read of one match.
 */
import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';

const HIDDEN_SQL = `SELECT match_id::text AS match_id, players FROM tournament_tables WHERE match_id = ANY($1::uuid[]) AND duplicate AND NOT round_ended`;

@Injectable()
export class TournamentTables {
  constructor(private readonly prisma: PrismaService) {}

  /** The matches among `matchIds` that `viewer` (null: anonymous) may not read now. */
  async hiddenFrom(viewer: string | null, matchIds: readonly string[]): Promise<Set<string>> {
    if (matchIds.length === 0) return new Set();
    const rows = await this.prisma.$queryRawUnsafe<{ match_id: string; players: string[] }[]>(HIDDEN_SQL, matchIds);
    return new Set(rows.filter((r) => viewer === null || !r.players.includes(viewer)).map((r) => r.match_id));
  }

  /** TOURNAMENT_TABLE_HIDDEN when `viewer` may not read this match now. */
  async assertMayRead(viewer: string | null, matchId: string): Promise<void> {
    if (!/^[0-9a-f-]{36}$/i.test(matchId)) return;
    if ((await this.hiddenFrom(viewer, [matchId])).size > 0) {
      throw new DomainError('TOURNAMENT_TABLE_HIDDEN', 'this table of a duplicate tournament round is hidden until the round ends', { matchId });
    }
  }
}
