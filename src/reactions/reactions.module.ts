import { Module } from '@nestjs/common';
import { ClocksModule } from '../clocks/clocks.module';
import { StoreModule } from '../match-store/store.module';
import { InboxModule } from '../inbox/inbox.module';
import { LobbyModule } from '../lobby/lobby.module';
import { RatingsModule } from '../ratings/ratings.module';
import { BotsModule } from '../bots/bots.module';
import { TournamentsModule } from '../tournaments/tournaments.module';
import { VacationsModule } from '../vacations/vacations.module';
import { AfterAppend } from './after-append';

/** The one pipeline of reactions that follows every append (./after-append.ts). */
@Module({
  imports: [StoreModule, InboxModule, LobbyModule, RatingsModule, ClocksModule, BotsModule, TournamentsModule, VacationsModule],
  providers: [AfterAppend],
})
export class ReactionsModule {}
