import { Module } from '@nestjs/common';
import { TournamentTables } from './tournament-tables';

/** Which tournament tables are hidden now (./tournament-tables.ts), for every match read path. */
@Module({ providers: [TournamentTables], exports: [TournamentTables] })
export class TournamentTablesModule {}
