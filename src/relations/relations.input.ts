import { ArgsType, Field, InputType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { DirectMessagesEnum } from './relations.model';
import { CursorPageArgs } from '../common/cursor-page';

/** A page of a list: REST query string and GraphQL arguments, validated once, here. */
@ArgsType()
export class RelationPageQuery extends CursorPageArgs({ defaultSize: 20, cursorMaxLength: 200 }) {}

/** GraphQL's arguments of `following` and `followers`: whose list, and the page. */
@ArgsType()
export class UserListArgs extends RelationPageQuery {
  @Field({ description: 'The player whose list it is.' })
  @IsString()
  @MaxLength(64)
  username!: string;
}

@InputType({ description: 'Who may send me direct messages.' })
export class MessageSettingsInput {
  @Field(() => DirectMessagesEnum, { description: 'Who may send me direct messages: everyone (the default), followed or nobody.' })
  @ApiProperty({ enum: DirectMessagesEnum })
  @IsIn(Object.values(DirectMessagesEnum))
  directMessages!: `${DirectMessagesEnum}`;
}
