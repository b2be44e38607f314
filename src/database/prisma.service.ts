/**
 * The Prisma client of the application, as a Nest provider. It is the client
 * itself (`prisma.account.findUnique(...)`); the database behind it is PGlite
 * in DATA_DIR (default ./data) when DATABASE_URL is unset, else PostgreSQL.
 * Pending migrations are applied in onModuleInit, before the app serves.
 *
 * The match seed is omitted from every query by default (global `omit`):
 * it is secret until the match is over.
 */
import { Injectable, Logger } from '@nestjs/common';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PrismaClient } from './generated/client';
import { assertWritable, pingDatabase, prepareDatabase } from './database';
import type { DatabaseOptions, PreparedDatabase, Prisma } from './database';

const OmittingPrismaClient = PrismaClient as unknown as new (options: ConstructorParameters<typeof PrismaClient>[0]) => Prisma;

@Injectable()
export class PrismaService extends OmittingPrismaClient implements OnModuleInit, OnModuleDestroy {
  readonly database: PreparedDatabase;

  /** `options`: databaseOptionsFromEnv of the application's configuration (DatabaseModule), or a test's own. */
  constructor(options: DatabaseOptions) {
    const prepared = prepareDatabase(options);
    super({ adapter: prepared.adapter, omit: { match: { seed: true } } });
    this.database = prepared;
  }

  async onModuleInit(): Promise<void> {
    const report = await this.database.ready();
    if (report.applied.length) Logger.log(`applied migrations: ${report.applied.join(', ')}`, 'Database');
    Logger.log(`database ready (${this.database.kind === 'pg' ? 'PostgreSQL' : 'PGlite'})`, 'Database');
  }

  /** Resolves when the database answers a query. */
  async ping(): Promise<void> {
    await pingDatabase(this);
  }

  /** Resolves when the database answers and is a writable primary, not a standby (readiness, src/health). */
  async writable(): Promise<void> {
    await assertWritable(this, this.database.kind);
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    await this.database.close();
  }
}
