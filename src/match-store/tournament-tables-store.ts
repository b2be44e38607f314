/**
 * The tournament_tables rows: which match plays which table of which round
 * (written by src/tournaments in its transitions' transactions, `db` being
 * that transaction), whether its result is recorded, whether its round has
 * ended, and whether it is a duplicate table (read by every match read
 * path, ./tournament-tables.ts). The one file that queries the table.
 */
import { Injectable } from '@nestjs/common';
import type { Prisma } from '../database/database';
import { PrismaService } from '../database/prisma.service';

/** The database or a transaction (a transition's, holding the tournament's row lock). */
export type Sql = Pick<Prisma, '$queryRawUnsafe' | '$executeRawUnsafe'>;

export interface PairedTable {
  table: number;
  players: string[];
  matchId: string | null;
}

export interface TableOfMatch {
  tournament_id: string;
  round: number;
  table_no: number;
  recorded: boolean;
}

const HIDDEN_SQL = `SELECT match_id::text AS match_id, players FROM tournament_tables WHERE match_id = ANY($1::uuid[]) AND duplicate AND NOT round_ended`;
const TABLE_SQL = `SELECT 1 AS one FROM tournament_tables WHERE match_id = $1::uuid`;
// An ended match appends nothing more: its current_seq is its end's.
const ENDED_UNRECORDED_SQL = `SELECT t.match_id::text AS "matchId", m.current_seq AS seq FROM tournament_tables t JOIN matches m ON m.id = t.match_id
WHERE t.tournament_id = $1::uuid AND NOT t.recorded AND m.status = 'over'`;

@Injectable()
export class TournamentTablesStore {
  constructor(private readonly prisma: PrismaService) {}

  /** The duplicate tables among `matchIds` whose round runs, with their players. */
  async runningDuplicates(matchIds: readonly string[]): Promise<{ match_id: string; players: string[] }[]> {
    return this.prisma.$queryRawUnsafe<{ match_id: string; players: string[] }[]>(HIDDEN_SQL, matchIds);
  }

  /** Whether the match is a table of a tournament (any round, any format). */
  async isTable(matchId: string): Promise<boolean> {
    return (await this.prisma.$queryRawUnsafe<{ one: number }[]>(TABLE_SQL, matchId)).length > 0;
  }

  /** The table a match plays, if any. */
  async tableOf(matchId: string): Promise<TableOfMatch | null> {
    const rows = await this.prisma.$queryRawUnsafe<TableOfMatch[]>(
      `SELECT tournament_id::text AS tournament_id, round, table_no, recorded FROM tournament_tables WHERE match_id = $1::uuid`,
      matchId,
    );
    return rows[0] ?? null;
  }

  /** The tables of a tournament whose match is over and whose result is not recorded yet, with the seq of the end (its result job's key). */
  async endedUnrecorded(tournamentId: string): Promise<{ matchId: string; seq: number }[]> {
    return this.prisma.$queryRawUnsafe<{ matchId: string; seq: number }[]>(ENDED_UNRECORDED_SQL, tournamentId);
  }

  /** The tables of a round just paired (a table without a match is recorded at once: a forfeit). */
  async pair(db: Sql, tournamentId: string, round: number, tables: readonly PairedTable[], duplicate: boolean): Promise<void> {
    await db.$executeRawUnsafe(
      `INSERT INTO tournament_tables (tournament_id, round, table_no, match_id, players, recorded, duplicate)
       SELECT $1::uuid, $2::int, t.table_no, t.match_id::uuid, t.players, t.match_id IS NULL, $4::boolean
       FROM jsonb_to_recordset($3::jsonb) AS t(table_no int, match_id text, players text[])`,
      tournamentId,
      round,
      JSON.stringify(tables.map((t) => ({ table_no: t.table, match_id: t.matchId, players: t.players }))),
      duplicate,
    );
  }

  /** Marks a table's result recorded (a withdrawal's forfeit). */
  async markRecorded(db: Sql, tournamentId: string, round: number, table: number): Promise<void> {
    await db.$executeRawUnsafe(
      `UPDATE tournament_tables SET recorded = true WHERE tournament_id = $1::uuid AND round = $2::int AND table_no = $3::int`,
      tournamentId,
      round,
      table,
    );
  }

  /** Claims the recording of a table's result: false when it was recorded meanwhile (another instance, a withdrawal). */
  async claimResult(db: Sql, tournamentId: string, round: number, table: number): Promise<boolean> {
    const claimed = await db.$executeRawUnsafe(
      `UPDATE tournament_tables SET recorded = true WHERE tournament_id = $1::uuid AND round = $2::int AND table_no = $3::int AND NOT recorded`,
      tournamentId,
      round,
      table,
    );
    return claimed > 0;
  }

  /** The round has ended: its duplicate tables are disclosed. */
  async endRound(db: Sql, tournamentId: string, round: number): Promise<void> {
    await db.$executeRawUnsafe(`UPDATE tournament_tables SET round_ended = true WHERE tournament_id = $1::uuid AND round = $2::int`, tournamentId, round);
  }
}
