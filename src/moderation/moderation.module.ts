import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DatabaseModule } from '../database/database.module';
import { PrismaService } from '../database/prisma.service';
import { StoreModule } from '../match-store/store.module';
import { ModerationController } from './moderation.controller';
import { ModerationResolver } from './moderation.resolver';
import { ModerationService } from './moderation.service';
import { ModerationStore } from './moderation-store';
import { OperatorController } from './operator.controller';
import { OperatorService } from './operator.service';

/**
 * Reports and moderation (docs/social.md "Reports and moderation"): reports,
 * the moderator role, mutes, bans (auth's mark, src/auth/account-bans.ts) and
 * the hash-chained moderation log; the operator endpoint of `npm run admin`
 * on the embedded database. Exports ModerationService for chat (activeMute,
 * isModerator, recordAction): this module imports no chat.
 */
@Module({
  imports: [DatabaseModule, AuthModule, StoreModule],
  controllers: [ModerationController, OperatorController],
  providers: [
    { provide: ModerationStore, useFactory: (prisma: PrismaService) => new ModerationStore(prisma), inject: [PrismaService] },
    ModerationService,
    ModerationResolver,
    OperatorService,
  ],
  exports: [ModerationService],
})
export class ModerationModule {}
