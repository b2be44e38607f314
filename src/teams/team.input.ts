import { ArgsType, Field, ID, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { TEAM_DESCRIPTION_MAX, TEAM_NAME_MAX, TEAM_NAME_MIN, TEAM_PAGE_DEFAULT, TEAM_PAGE_MAX, TEAM_SEARCH_MAX } from './teams.service';

@InputType({ description: 'A new team (docs/social.md "Teams"): I become its first leader.' })
export class CreateTeamInput {
  @Field({ description: `Its name, ${TEAM_NAME_MIN} to ${TEAM_NAME_MAX} characters of plain text; unique without regard to case (CONFLICT).` })
  @ApiProperty({ example: 'Circolo Scopa Napoli', minLength: TEAM_NAME_MIN, maxLength: TEAM_NAME_MAX })
  @IsString()
  @MinLength(TEAM_NAME_MIN)
  @MaxLength(TEAM_NAME_MAX * 4)
  name!: string;

  @Field({ nullable: true, description: `What the team is about, at most ${TEAM_DESCRIPTION_MAX} characters of plain text (default empty).` })
  @ApiPropertyOptional({ maxLength: TEAM_DESCRIPTION_MAX, default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(TEAM_DESCRIPTION_MAX * 2)
  description?: string;

  @Field({ nullable: true, description: 'true (default): anyone joins at once; false: by request, which a leader accepts or declines.' })
  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  open?: boolean;
}

/** A cursor page's arguments (GraphQL) and query (REST). */
@ArgsType()
export class TeamPageQuery {
  @Field(() => Int, { nullable: true, description: `Page size, 1 to ${TEAM_PAGE_MAX} (default ${TEAM_PAGE_DEFAULT}).` })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: TEAM_PAGE_MAX, default: TEAM_PAGE_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(TEAM_PAGE_MAX)
  first?: number;

  @Field({ nullable: true, description: 'The nextCursor of the page before.' })
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(400)
  after?: string;
}

@ArgsType()
export class TeamSearchQuery extends TeamPageQuery {
  @Field({ nullable: true, description: `Only teams whose name contains this (without regard to case), at most ${TEAM_SEARCH_MAX} characters.` })
  @ApiPropertyOptional({ maxLength: TEAM_SEARCH_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(TEAM_SEARCH_MAX * 4)
  q?: string;
}

/** A page of one team's members or requests (GraphQL: the team and the page in one set of arguments). */
@ArgsType()
export class TeamItemsArgs extends TeamPageQuery {
  @Field(() => ID, { description: 'The team.' })
  @IsString()
  @MaxLength(64)
  id!: string;
}
