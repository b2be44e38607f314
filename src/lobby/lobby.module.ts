import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { SocketRegistry } from '../connections/socket-registry';
import { ClocksModule } from '../clocks/clocks.module';
import { MatchMakerModule } from '../matches/match-maker.module';
import { StoreModule } from '../match-store/store.module';
import { RulesetsModule } from '../rulesets/rulesets.module';
import { LobbyController } from './lobby.controller';
import { LobbyResolver } from './lobby.resolver';
import { LobbyService } from './lobby.service';
import { Pairing } from './seek-pairing';
import { SEEK_PRESENCE, socketPresence } from '../presence/seek-presence';
import { SeeksService } from './seeks.service';
import { SeeksStore } from './seeks-store';

/** The lobby (public matches with open seats, and their changes) and seeks with their pairing and sweeper. */
@Module({
  imports: [StoreModule, AuthModule, ClocksModule, RulesetsModule, MatchMakerModule],
  controllers: [LobbyController],
  providers: [LobbyService, SeeksService, SeeksStore, Pairing, LobbyResolver, { provide: SEEK_PRESENCE, useFactory: socketPresence, inject: [SocketRegistry] }],
  exports: [LobbyService, SeeksService],
})
export class LobbyModule {}
