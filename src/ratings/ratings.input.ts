import { ArgsType, Field, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsOptional } from 'class-validator';
import { LEADERBOARD_DEFAULT, LEADERBOARD_MAX } from './ratings.service';

export class RatingHistoryQuery {
  @ApiProperty({ description: 'The pool: a preset id, or a saved ruleset id.', example: 'scopa' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  ruleset!: string;
}

export class LeaderboardQuery {
  @ApiPropertyOptional({ default: LEADERBOARD_DEFAULT, minimum: 1, maximum: LEADERBOARD_MAX })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(LEADERBOARD_MAX)
  limit?: number;
}

/*
 * The GraphQL arguments of the ratings queries (the types are checked by GraphQL; the service checks the limit's range,
 * as for REST).
 */

@ArgsType()
export class UserArgs {
  @Field()
  @IsString()
  username!: string;
}

@ArgsType()
export class RatingHistoryArgs extends UserArgs {
  @Field()
  @IsString()
  ruleset!: string;
}

@ArgsType()
export class LeaderboardArgs {
  @Field()
  @IsString()
  ruleset!: string;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  limit?: number | null;
}

@ArgsType()
export class CrosstableArgs {
  @Field()
  @IsString()
  a!: string;

  @Field()
  @IsString()
  b!: string;
}
