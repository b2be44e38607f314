import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MatchesModule } from '../matches/matches.module';
import { StreamsController } from './streams.controller';
import { StreamsService } from './streams.service';

/** Live streams over plain HTTP (NDJSON): the caller's events, and a match's events (README, "Streams without WebSockets"). */
@Module({
  imports: [AuthModule, MatchesModule],
  controllers: [StreamsController],
  providers: [StreamsService],
})
export class StreamsModule {}
