import { Field, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { ChatMessageView, ChatPage, ChatRemovalView, ChatRoomView } from './chat.service';

/** The kinds of chat room; the values are the wire values of REST and GraphQL. */
export enum ChatRoomKindEnum {
  match = 'match',
  lobby = 'lobby',
  tournament = 'tournament',
  team = 'team',
  direct = 'direct',
}
registerEnumType(ChatRoomKindEnum, {
  name: 'ChatRoomKind',
  description:
    "match: one of a match's two rooms (matchRoom); lobby: everyone's; tournament: a tournament's (closed while a duplicate round runs); team: a team's members'; direct: two players.",
});

/** A match's two rooms. */
export enum MatchRoomEnum {
  players = 'players',
  spectators = 'spectators',
}
registerEnumType(MatchRoomEnum, {
  name: 'MatchRoom',
  description:
    "players: every message to every seat at once, read by spectators too; spectators: the spectators' room, which the match's players receive only once it is over.",
});

@ObjectType('ChatRoom', { description: 'Where a chat message was said.' })
export class ChatRoomModel implements ChatRoomView {
  @Field(() => ChatRoomKindEnum, { description: 'Which kind of room.' }) @ApiProperty({ enum: ChatRoomKindEnum }) kind!: `${ChatRoomKindEnum}`;
  @Field(() => ID, { nullable: true, description: "The match's, tournament's or team's id; null for the lobby and a direct conversation." })
  @ApiProperty({ type: String, nullable: true })
  id!: string | null;
  @Field(() => MatchRoomEnum, { nullable: true, description: "A match's room: players or spectators; null otherwise." })
  @ApiProperty({ enum: MatchRoomEnum, nullable: true })
  matchRoom!: `${MatchRoomEnum}` | null;
  @Field(() => [String], { nullable: true, description: 'A direct conversation: its two players (in order); null otherwise.' })
  @ApiProperty({ type: [String], nullable: true })
  participants!: string[] | null;
}

@ObjectType('ChatMessage', { description: 'A chat message: plain text as its author sent it (trimmed), never markup; clients show it as text.' })
export class ChatMessageModel implements ChatMessageView {
  @Field(() => ID, { description: "The message's id (what a report or a moderator's removal names)." }) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field(() => ChatRoomModel, { description: 'Where it was said.' }) @ApiProperty({ type: ChatRoomModel }) room!: ChatRoomModel;
  @Field({ description: "The author's username." }) @ApiProperty() author!: string;
  @Field({ description: 'Plain text, 1 to 500 characters, one line: shown as text, never interpreted as markup.' })
  @ApiProperty({ maxLength: 500 })
  text!: string;
  @Field(() => Date, { description: 'When it was sent.' }) @ApiProperty({ type: String, format: 'date-time' }) sentAt!: Date;
}

@ObjectType('ChatPage', { description: "A page of a room's history, newest first." })
export class ChatPageModel implements ChatPage {
  @Field(() => [ChatMessageModel], { description: 'The messages, newest first.' }) @ApiProperty({ type: [ChatMessageModel] }) items!: ChatMessageModel[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next (older) page; null at the end.' })
  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

@ObjectType('ChatMessageRemoved', { description: "A chat message a moderator removed: its room's clients drop it (it has left the history too)." })
export class ChatMessageRemovedModel implements ChatRemovalView {
  @Field(() => ID, { description: 'The removed message.' }) id!: string;
  @Field(() => ChatRoomModel, { description: 'Its room.' }) room!: ChatRoomModel;
  @Field(() => Date, { description: 'When it was removed.' }) removedAt!: Date;
}
