import { Module } from '@nestjs/common';
import { StoreModule } from '../events/store.module';
import { BotSeatsService } from './bot-seats.service';
import { HintController } from './hint.controller';
import { HintResolver } from './hint.resolver';
import { HintService } from './hint.service';

/** Bots in seats (server-side play) and hints. */
@Module({
  imports: [StoreModule],
  controllers: [HintController],
  providers: [BotSeatsService, HintService, HintResolver],
  exports: [BotSeatsService],
})
export class SeatsModule {}
