import { ArgsType, Field, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DirectMessagesEnum } from './relations.model';

/** A page of a list: REST query string and GraphQL arguments, validated once, here. */
@ArgsType()
export class RelationPageQuery {
  @Field(() => Int, { nullable: true, description: 'Page size, 1 to 100 (default 20).' })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  first?: number;

  @Field({ nullable: true, description: 'The nextCursor of the page before.' })
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  after?: string;
}

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
