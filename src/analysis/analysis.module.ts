import { Module } from '@nestjs/common';
import { StoreModule } from '../match-store/store.module';
import { TournamentTablesModule } from '../match-store/tournament-tables.module';
import { AnalysisController } from './analysis.controller';
import { AnalysisResolver } from './analysis.resolver';
import { AnalysisService } from './analysis.service';

/** Post-game analysis: the requests and reads, the job queue, and this instance's workers (docs/analysis.md). */
@Module({
  imports: [StoreModule, TournamentTablesModule],
  controllers: [AnalysisController],
  providers: [AnalysisService, AnalysisResolver],
})
export class AnalysisModule {}
