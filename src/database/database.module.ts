import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service';

/** Provides PrismaService (the Prisma client, migrated on init) to the whole app. */
@Global()
@Module({
  providers: [{ provide: PrismaService, useFactory: () => new PrismaService() }],
  exports: [PrismaService],
})
export class DatabaseModule {}
