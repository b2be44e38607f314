import { Module } from '@nestjs/common';
import { MatchesService } from './matches.service';

/** MatchesService over the global DatabaseModule's PrismaService. */
@Module({
  providers: [MatchesService],
  exports: [MatchesService],
})
export class MatchesModule {}
