import { Global, Module } from '@nestjs/common';
import { PgliteStatisticsService } from './pglite-statistics.service';
import { AppConfig } from '../config/config';
import { databaseOptionsFromEnv } from './database';
import { PrismaService } from './prisma.service';

/** Provides PrismaService (the Prisma client, migrated on init) to the whole app, and keeps an embedded database's statistics. */
@Global()
@Module({
  providers: [
    { provide: PrismaService, useFactory: (config: AppConfig) => new PrismaService(databaseOptionsFromEnv(config)), inject: [AppConfig] },
    PgliteStatisticsService,
  ],
  exports: [PrismaService],
})
export class DatabaseModule {}
