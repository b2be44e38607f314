import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { StoreModule } from '../match-store/store.module';
import { PresenceService } from './presence.service';

/** Presence (online / last seen) from the live connections of every instance, and opponentGone / opponentBack. */
@Module({
  imports: [AuthModule, StoreModule],
  providers: [PresenceService],
  exports: [PresenceService],
})
export class PresenceModule {}
