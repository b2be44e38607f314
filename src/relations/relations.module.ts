import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { PresenceModule } from '../presence/presence.module';
import { RelationsController } from './relations.controller';
import { RelationsResolver } from './relations.resolver';
import { RelationsService } from './relations.service';
import { RelationsStore } from './relations-store';

/**
 * Follows, blocks and the direct-message setting (docs/social.md). Exports RelationsService: the challenges, the
 * rematches and the chat ask it; seek pairing embeds ./blocked-pairs.ts in its statement instead.
 */
@Module({
  imports: [AuthModule, PresenceModule],
  controllers: [RelationsController],
  providers: [RelationsService, RelationsStore, RelationsResolver],
  exports: [RelationsService],
})
export class RelationsModule {}
