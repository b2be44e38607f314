import { Module } from '@nestjs/common';
import { StoreModule } from '../match-store/store.module';
import { BotMatchLimit } from './bot-match-limit';
import { BotSeatsService } from './bot-seats.service';
import { HintController } from './hint.controller';
import { HintResolver } from './hint.resolver';
import { HintService } from './hint.service';

/** Bots in seats (server-side play, the bots-only match limit) and hints. */
@Module({
  imports: [StoreModule],
  controllers: [HintController],
  providers: [BotSeatsService, BotMatchLimit, HintService, HintResolver],
  exports: [BotSeatsService, BotMatchLimit],
})
export class BotsModule {}
