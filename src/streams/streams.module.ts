import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { LobbyModule } from '../lobby/lobby.module';
import { MatchesModule } from '../matches/matches.module';
import { StreamsController } from './streams.controller';
import { StreamsService } from './streams.service';

/** Live streams over plain HTTP (NDJSON): the caller's events, a match's events, and the lobby's changes (docs/api.md, "Streams without WebSockets"). */
@Module({
  imports: [AuthModule, MatchesModule, LobbyModule],
  controllers: [StreamsController],
  providers: [StreamsService],
})
export class StreamsModule {}
