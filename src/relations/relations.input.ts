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

@InputType()
export class MessageSettingsInput {
  @Field(() => DirectMessagesEnum, { description: 'Who may send me direct messages: everyone (the default), followed or nobody.' })
  @ApiProperty({ enum: DirectMessagesEnum })
  @IsIn(Object.values(DirectMessagesEnum))
  directMessages!: `${DirectMessagesEnum}`;
}
