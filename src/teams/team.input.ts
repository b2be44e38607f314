import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { TEAM_DESCRIPTION_MAX, TEAM_NAME_MAX, TEAM_NAME_MIN, TEAM_PAGE_DEFAULT, TEAM_PAGE_MAX, TEAM_SEARCH_MAX } from './teams.service';
import { CursorPageArgs } from '../common/cursor-page';

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
export class TeamPageQuery extends CursorPageArgs({ defaultSize: TEAM_PAGE_DEFAULT, maxSize: TEAM_PAGE_MAX, cursorMaxLength: 400 }) {}

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
