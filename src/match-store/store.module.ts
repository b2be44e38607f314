import { Module } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { PrismaService } from '../database/prisma.service';
import { ReadReplica } from '../database/read-replica';
import { ExportKeys, TrustedIssuers } from '../match-formats/export-keys';
import { MatchArchive } from './match-archive';
import { MatchStore } from './match-store';

/**
 * The match store and the match archive (plain classes) over the global DatabaseModule's PrismaService: one store
 * per process, so one snapshot cache. The store's appends and log reads (Database.statements, PostgreSQL only) and the
 * archive's bulk reads (Database.rows) go straight through the driver; its lag-tolerant reads (pages, exports of
 * finished matches, analysis inputs) go to the read replica when there is one (ReadReplica, DATABASE_READ_URL).
 * The archive signs exports with the service's key (ExportKeys, also published at /.well-known/scopa-keys.json)
 * and checks imports against it and the trusted issuers' keys.
 */
@Module({
  providers: [
    {
      provide: MatchStore,
      useFactory: (prisma: PrismaService, config: AppConfig) =>
        new MatchStore(prisma, { cacheSize: config.SNAPSHOT_CACHE_SIZE, appendsInFlight: config.APPEND_IN_FLIGHT, statements: prisma.database.statements }),
      inject: [PrismaService, AppConfig],
    },
    { provide: ExportKeys, useFactory: (config: AppConfig) => ExportKeys.fromConfig(config), inject: [AppConfig] },
    { provide: TrustedIssuers, useFactory: (config: AppConfig) => new TrustedIssuers(config.IMPORT_TRUSTED_ISSUERS), inject: [AppConfig] },
    {
      provide: MatchArchive,
      useFactory: (prisma: PrismaService, keys: ExportKeys, trusted: TrustedIssuers, reads: ReadReplica) =>
        new MatchArchive(prisma, { rows: prisma.database.rows, keys, trusted, reads }),
      inject: [PrismaService, ExportKeys, TrustedIssuers, ReadReplica],
    },
  ],
  exports: [MatchStore, MatchArchive, ExportKeys],
})
export class StoreModule {}
