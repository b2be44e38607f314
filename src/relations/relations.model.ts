import { Field, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { BlockEntry, DirectMessages, FollowEntry, MessageSettings, Page, Relation } from './relations.service';

/** Who may send me direct messages; the values are the wire values of REST and GraphQL. */
export enum DirectMessagesEnum {
  everyone = 'everyone',
  followed = 'followed',
  nobody = 'nobody',
}
registerEnumType(DirectMessagesEnum, {
  name: 'DirectMessages',
  description:
    'Who may send me direct messages: everyone (the default: any player the chat admits, one I follow and who follows me, or who shares a match or a team with me); followed (only players I follow, among those); nobody.',
});

@ObjectType('FollowEntry', { description: 'A player in a following or followers list.' })
export class FollowEntryModel implements FollowEntry {
  @Field({ description: 'The username.' }) @ApiProperty() username!: string;
  @Field({ description: 'Whether they are online now (a live connection on any instance).' }) @ApiProperty() online!: boolean;
  @Field(() => Date, { description: 'When the follow was made.' }) @ApiProperty({ type: String, format: 'date-time' }) since!: Date;
}

@ObjectType('FollowPage', { description: 'A page of a following or followers list, newest follow first.' })
export class FollowPageModel implements Page<FollowEntry> {
  @Field(() => [FollowEntryModel], { description: 'This page.' }) @ApiProperty({ type: [FollowEntryModel] }) items!: FollowEntryModel[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null at the end.' })
  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

@ObjectType('BlockEntry', { description: 'A player I block.' })
export class BlockEntryModel implements BlockEntry {
  @Field({ description: 'The username.' }) @ApiProperty() username!: string;
  @Field(() => Date, { description: 'When I blocked them.' }) @ApiProperty({ type: String, format: 'date-time' }) since!: Date;
}

@ObjectType('BlockPage', { description: 'A page of the players I block, newest first.' })
export class BlockPageModel implements Page<BlockEntry> {
  @Field(() => [BlockEntryModel], { description: 'This page.' }) @ApiProperty({ type: [BlockEntryModel] }) items!: BlockEntryModel[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null at the end.' })
  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

@ObjectType('Relation', { description: 'Where I stand with a player after a follow, unfollow, block or unblock.' })
export class RelationModel implements Relation {
  @Field({ description: 'The other player.' }) @ApiProperty() username!: string;
  @Field({ description: 'I follow them.' }) @ApiProperty() following!: boolean;
  @Field({ description: 'I block them.' }) @ApiProperty() blocking!: boolean;
}

@ObjectType('MessageSettings', { description: 'Who may send me direct messages.' })
export class MessageSettingsModel implements MessageSettings {
  @Field(() => DirectMessagesEnum, { description: 'everyone (default), followed or nobody.' })
  @ApiProperty({ enum: DirectMessagesEnum })
  directMessages!: DirectMessages;
}
