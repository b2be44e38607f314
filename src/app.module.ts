import { Module } from '@nestjs/common';
import { ApiModule } from './api/api.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { MatchesModule } from './matches/matches.module';
import { ObservabilityModule } from './observability/observability.module';

@Module({
  imports: [ObservabilityModule, DatabaseModule, MatchesModule, HealthModule, ApiModule],
})
export class AppModule {}
