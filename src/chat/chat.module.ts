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

/*
 * Until the social features are wired in (src/relations, src/teams, src/moderation): no blocks and no follows
 * (everyone takes direct messages, from the players they share a match with), no team has members, nobody is
 * muted or a moderator.
 */
const NO_RELATIONS: ChatRelations = {
  isBlockedEitherWay: () => Promise.resolve(false),
  blockedIds: () => Promise.resolve([]),
  followsEachOther: () => Promise.resolve(false),
  isFollowing: () => Promise.resolve(false),
  directMessageSetting: () => Promise.resolve('everyone'),
};
const NO_TEAMS: ChatTeams = { isMember: () => Promise.resolve(false), sharesATeam: () => Promise.resolve(false) };
const NO_MODERATION: ChatModeration = {
  activeMute: () => Promise.resolve(null),
  isModerator: () => Promise.resolve(false),
  recordAction: () => Promise.resolve(undefined),
};

/** Chat rooms (docs/social.md "Chat"): the messages' store, the rooms' rules, REST and GraphQL, the retention sweep. */
@Module({
  imports: [AuthModule, StoreModule, MatchesModule, TournamentsModule],
  controllers: [ChatController],
  providers: [
    ChatService,
    ChatStore,
    ChatResolver,
    { provide: CHAT_RELATIONS, useValue: NO_RELATIONS },
    { provide: CHAT_TEAMS, useValue: NO_TEAMS },
    { provide: CHAT_MODERATION, useValue: NO_MODERATION },
  ],
  exports: [ChatService],
})
export class ChatModule {}
