import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { databaseOptionsFromEnv } from './database';
import { PrismaService } from './prisma.service';
import { ReadReplica } from './read-replica';

/**
 * Provides PrismaService (the Prisma client, migrated on init) to the whole app (an embedded database's statistics:
 * src/jobs/pglite-statistics.service.ts), and ReadReplica, the lag-tolerant reads on DATABASE_READ_URL (the primary
 * itself when unset: ./read-replica.ts).
 */
@Global()
@Module({
  providers: [
    { provide: PrismaService, useFactory: (config: AppConfig) => new PrismaService(databaseOptionsFromEnv(config)), inject: [AppConfig] },
    {
      provide: ReadReplica,
      useFactory: (primary: PrismaService, config: AppConfig) =>
        new ReadReplica(primary, { readUrl: config.DATABASE_READ_URL, primaryUrl: config.DATABASE_URL, poolSize: config.PG_POOL_SIZE }),
      inject: [PrismaService, AppConfig],
    },
  ],
  exports: [PrismaService, ReadReplica],
})
export class DatabaseModule {}
