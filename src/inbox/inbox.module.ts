import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module';
import { InboxController } from './inbox.controller';
import { InboxResolver } from './inbox.resolver';
import { InboxService } from './inbox.service';
import { TurnNotifier } from './turn-notifier';

/** The inbox ("my turn" by deadline) and the live notices after each append. */
@Module({
  imports: [MatchesModule],
  controllers: [InboxController],
  providers: [InboxService, InboxResolver, TurnNotifier],
  exports: [InboxService, TurnNotifier],
})
export class InboxModule {}
