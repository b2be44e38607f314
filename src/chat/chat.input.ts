import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ChatRoomKindEnum, MatchRoomEnum } from './chat.model';
import { CursorPageArgs } from '../common/cursor-page';

@InputType('ChatRoomInput', {
  description:
    'A chat room: kind, and for a match its id and matchRoom (players, the default, or spectators), for a tournament or team its id, for a direct conversation the other player. No field names a seat: a match room is heard by all its audience.',
})
export class ChatRoomInput {
  @Field(() => ChatRoomKindEnum, { description: 'Which kind of room.' })
  @IsIn(Object.values(ChatRoomKindEnum))
  kind!: `${ChatRoomKindEnum}`;

  @Field(() => ID, { nullable: true, description: "The match's, tournament's or team's id." })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  id?: string | null;

  @Field(() => MatchRoomEnum, { nullable: true, description: "A match's room: players (default) or spectators." })
  @IsOptional()
  @IsIn(Object.values(MatchRoomEnum))
  matchRoom?: `${MatchRoomEnum}` | null;

  @Field(() => String, { nullable: true, description: 'A direct conversation: the other player.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  username?: string | null;
}

/** The body of every chat POST. */
export class SendChatInput {
  @ApiProperty({
    description: 'Plain text, 1 to 500 characters after trimming, one line, no control characters; never interpreted as markup.',
    maxLength: 2000,
  })
  @IsString()
  @MaxLength(2000)
  text!: string;
}

/** `?first=&after=` of every chat history. */
@ArgsType()
export class ChatPageQuery extends CursorPageArgs({ defaultSize: 50, cursorMaxLength: 200, sizeLabel: 'Messages per page' }) {}

/** GraphQL `chatMessages(room, first, after)`. */
@ArgsType()
export class ChatMessagesArgs extends ChatPageQuery {
  @Field(() => ChatRoomInput, { description: 'The room.' })
  @ValidateNested()
  @Type(() => ChatRoomInput)
  room!: ChatRoomInput;
}

/** `GET /v1/matches/{id}/chat?room=`: which of the match's rooms. */
export class MatchChatQuery extends ChatPageQuery {
  @ApiPropertyOptional({ enum: MatchRoomEnum, default: 'players', description: "players (default) or spectators (a match's players: once it is over)." })
  @IsOptional()
  @IsIn(Object.values(MatchRoomEnum))
  room?: `${MatchRoomEnum}`;
}

/** `POST /v1/matches/{id}/chat?room=`. */
export class MatchRoomQuery {
  @ApiPropertyOptional({ enum: MatchRoomEnum, default: 'players', description: 'players (default: the match’s players write) or spectators.' })
  @IsOptional()
  @IsIn(Object.values(MatchRoomEnum))
  room?: `${MatchRoomEnum}`;
}

/** `DELETE /v1/chat/messages/{id}`: why (for the moderation log). */
export class RemoveChatMessageQuery {
  @ApiPropertyOptional({ description: 'Why the message is removed (in the moderation log).', maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
