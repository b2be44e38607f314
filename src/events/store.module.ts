import { Module } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { MatchStore } from './match-store';

/** The match store (a plain class) over the global DatabaseModule's PrismaService: one per process, so one snapshot cache. */
@Module({
  providers: [{ provide: MatchStore, useFactory: (prisma: PrismaService) => new MatchStore(prisma, { rows: prisma.database.rows }), inject: [PrismaService] }],
  exports: [MatchStore],
})
export class StoreModule {}
