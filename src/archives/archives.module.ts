import { Module, RequestMethod } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { TournamentTablesModule } from '../match-store/tournament-tables.module';
import type { MiddlewareConsumer, NestModule } from '@nestjs/common';
import { text } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { sendProblem } from '../common/problem.filter';
import { StoreModule } from '../match-store/store.module';
import { RatingsModule } from '../ratings/ratings.module';
import { ArchivesController } from './archives.controller';
import { ExportKeysController } from './export-keys.controller';
import { ArchivesResolver } from './archives.resolver';
import { ArchivesService } from './archives.service';
import { HttpConfig } from '../config/slices';

/** User archives (JSON pages, NDJSON streams), batch export and import of finished matches. */
@Module({
  imports: [StoreModule, RatingsModule, TournamentTablesModule, AuthModule],
  controllers: [ArchivesController, ExportKeysController],
  providers: [ArchivesService, ArchivesResolver],
})
export class ArchivesModule implements NestModule {
  constructor(private readonly http: HttpConfig) {}

  configure(consumer: MiddlewareConsumer): void {
    // IMPORT_BODY_LIMIT: the largest export accepted as a text/plain or application/x-ndjson import body (a JSON body keeps BODY_LIMIT).
    const importText = text({ type: ['text/plain', 'application/x-ndjson'], limit: this.http.IMPORT_BODY_LIMIT });
    // The import also takes the export as it is (text); a parser failure (too large) is a problem document like any other.
    consumer
      .apply((req: Request, res: Response, next: NextFunction) => importText(req, res, (err?: unknown) => (err ? sendProblem(res, err) : next())))
      .forRoutes({ path: 'v1/matches/import', method: RequestMethod.POST });
  }
}
