import { Module } from '@nestjs/common';
import { ApiModule } from './api/api.module';
import { ClocksModule } from './clocks/clocks.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { MatchesModule } from './matches/matches.module';
import { ObservabilityModule } from './observability/observability.module';

@Module({
  imports: [ObservabilityModule, DatabaseModule, MatchesModule, HealthModule, ApiModule, ClocksModule, WebhooksModule],
})
export class AppModule {}
