import { Module } from '@nestjs/common';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { MatchesModule } from './matches/matches.module';

@Module({
  imports: [DatabaseModule, MatchesModule, HealthModule],
})
export class AppModule {}
