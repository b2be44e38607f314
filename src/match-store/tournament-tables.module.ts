import { Module } from '@nestjs/common';
import { TournamentTables } from './tournament-tables';
import { TournamentTablesStore } from './tournament-tables-store';

/** Which tournament tables are hidden now (./tournament-tables.ts), for every match read path; their rows (./tournament-tables-store.ts), which src/tournaments writes. */
@Module({ providers: [TournamentTables, TournamentTablesStore], exports: [TournamentTables, TournamentTablesStore] })
export class TournamentTablesModule {}
