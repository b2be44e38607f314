import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { StoreModule } from '../match-store/store.module';
import { MatchesModule } from '../matches/matches.module';
import { TournamentsModule } from '../tournaments/tournaments.module';
import { ChatController } from './chat.controller';
import { ChatResolver } from './chat.resolver';
import { ChatService } from './chat.service';
import { ChatStore } from './chat-store';
import { CHAT_MODERATION, CHAT_RELATIONS, CHAT_TEAMS } from './chat-hooks';
import type { ChatModeration, ChatRelations, ChatTeams } from './chat-hooks';
import { ModerationModule } from '../moderation/moderation.module';
import { ModerationService } from '../moderation/moderation.service';
import { RelationsModule } from '../relations/relations.module';
import { RelationsService } from '../relations/relations.service';
import { TeamsModule } from '../teams/teams.module';
import { TeamsService } from '../teams/teams.service';

/** The services given for the hooks answer what chat asks of them: the compiler checks it here. */
type Fits<Service, Hook> = Service extends Hook ? true : never;
export const HOOKS_FIT: [Fits<RelationsService, ChatRelations>, Fits<TeamsService, ChatTeams>, Fits<ModerationService, ChatModeration>] = [true, true, true];

/** Chat rooms (docs/social.md "Chat"): the messages' store, the rooms' rules, REST and GraphQL, the retention sweep. */
@Module({
  imports: [AuthModule, StoreModule, MatchesModule, TournamentsModule, RelationsModule, TeamsModule, ModerationModule],
  controllers: [ChatController],
  providers: [
    ChatService,
    ChatStore,
    ChatResolver,
    // blocks, follows and the recipient's direct-message setting (src/relations); team membership (src/teams)
    { provide: CHAT_RELATIONS, useExisting: RelationsService },
    { provide: CHAT_TEAMS, useExisting: TeamsService },
    // mutes, the moderator role and the moderation log (src/moderation)
    { provide: CHAT_MODERATION, useExisting: ModerationService },
  ],
  exports: [ChatService],
})
export class ChatModule {}
