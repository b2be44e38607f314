import { Module } from '@nestjs/common';
import { StoreModule } from '../match-store/store.module';
import { VacationsModule } from '../vacations/vacations.module';
import { InboxController } from './inbox.controller';
import { InboxResolver } from './inbox.resolver';
import { InboxService } from './inbox.service';
import { TurnNotifier } from '../realtime/turn-notifier';
import { LifecycleNotifier } from './lifecycle-notifier';

/** The inbox ("my turn" by deadline) and the live notices after each append. */
@Module({
  imports: [StoreModule, VacationsModule],
  controllers: [InboxController],
  providers: [InboxService, InboxResolver, TurnNotifier, LifecycleNotifier],
  exports: [InboxService, TurnNotifier, LifecycleNotifier],
})
export class InboxModule {}
