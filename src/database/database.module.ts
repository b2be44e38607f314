import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { databaseOptionsFromEnv } from './database';
import { PrismaService } from './prisma.service';

/** Provides PrismaService (the Prisma client, migrated on init) to the whole app (an embedded database's statistics: src/jobs/pglite-statistics.service.ts). */
@Global()
@Module({
  providers: [{ provide: PrismaService, useFactory: (config: AppConfig) => new PrismaService(databaseOptionsFromEnv(config)), inject: [AppConfig] }],
  exports: [PrismaService],
})
export class DatabaseModule {}
