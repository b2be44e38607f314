import { Args, ID, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { Caller, MATCH_PLAY, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { ChatService } from './chat.service';
import type { ChatMessageView, ChatRemovalView } from './chat.service';
import { ChatMessagesArgs, ChatRoomInput } from './chat.input';
import { ChatMessageModel, ChatMessageRemovedModel, ChatPageModel } from './chat.model';

@Resolver()
export class ChatResolver {
  constructor(private readonly chat: ChatService) {}

  @Query(() => ChatPageModel, { description: "A chat room's history, newest first, in cursor pages (without the messages of accounts blocked either way)." })
  async chatMessages(@Caller() caller: Principal, @Args() q: ChatMessagesArgs): Promise<ChatPageModel> {
    return this.chat.history(caller, await this.chat.room(caller, q.room), q.first, q.after);
  }

  @RequireScope(MATCH_PLAY)
  @Mutation(() => ChatMessageModel, {
    description:
      "Say something in a room: plain text, 1 to 500 characters, stored and returned as sent (never markup). A match's players' room goes to every seat and spectator at once.",
  })
  async sendChatMessage(
    @Caller() caller: Principal,
    @Args('room', { type: () => ChatRoomInput, description: 'The room.' }) room: ChatRoomInput,
    @Args('text', { type: () => String, description: 'Plain text, 1 to 500 characters after trimming, one line, no control characters.' }) text: string,
  ): Promise<ChatMessageModel> {
    return this.chat.send(caller, await this.chat.room(caller, room), text);
  }

  @Mutation(() => ChatMessageModel, { description: 'A moderator removes a chat message (no longer shown; recorded in the moderation log).' })
  removeChatMessage(
    @Caller() caller: Principal,
    @Args('id', { type: () => ID, description: 'The message.' }) id: string,
    @Args('reason', { type: () => String, nullable: true, description: 'Why (in the moderation log).' }) reason?: string | null,
  ): Promise<ChatMessageModel> {
    return this.chat.remove(caller, id, reason);
  }

  @Subscription(() => ChatMessageModel, {
    description: "A room's messages from now on, as I may see them (a match's spectators' room reaches its players only once it is over).",
    resolve: (value: ChatMessageView) => value,
  })
  async chatMessage(
    @Caller() caller: Principal,
    @Args('room', { type: () => ChatRoomInput, description: 'The room.' }) room: ChatRoomInput,
  ): Promise<AsyncIterableIterator<ChatMessageView>> {
    return this.chat.live(caller, await this.chat.room(caller, room));
  }

  @Subscription(() => ChatMessageRemovedModel, {
    description: "The room's messages a moderator removes from now on (removeChatMessage): drop each from what is shown (it has left the history too).",
    resolve: (value: ChatRemovalView) => value,
  })
  async chatMessageRemoved(
    @Caller() caller: Principal,
    @Args('room', { type: () => ChatRoomInput, description: 'The room.' }) room: ChatRoomInput,
  ): Promise<AsyncIterableIterator<ChatRemovalView>> {
    return this.chat.liveRemovals(caller, await this.chat.room(caller, room));
  }
}
