import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { StoreModule } from '../match-store/store.module';
import { MatchesModule } from '../matches/matches.module';
import { ModerationModule } from '../moderation/moderation.module';
import { ModerationService } from '../moderation/moderation.service';
import { RelationsModule } from '../relations/relations.module';
import { RelationsService } from '../relations/relations.service';
import { TeamsModule } from '../teams/teams.module';
import { TeamsService } from '../teams/teams.service';
import { TournamentsModule } from '../tournaments/tournaments.module';
import { ChatController } from './chat.controller';
import { ChatResolver } from './chat.resolver';
import { ChatService } from './chat.service';
import { ChatStore } from './chat-store';
import { CHAT_MODERATION, CHAT_RELATIONS, CHAT_TEAMS } from './chat-hooks';

/** Chat rooms (docs/social.md "Chat"): the messages' store, the rooms' rules, REST and GraphQL, the retention sweep. */
@Module({
  imports: [AuthModule, StoreModule, MatchesModule, TournamentsModule, RelationsModule, TeamsModule, ModerationModule],
  controllers: [ChatController],
  providers: [
    ChatService,
    ChatStore,
    ChatResolver,
    // the social features beside chat, through the small interfaces of chat-hooks.ts
    { provide: CHAT_RELATIONS, useExisting: RelationsService },
    { provide: CHAT_TEAMS, useExisting: TeamsService },
    { provide: CHAT_MODERATION, useExisting: ModerationService },
  ],
  exports: [ChatService],
})
export class ChatModule {}
