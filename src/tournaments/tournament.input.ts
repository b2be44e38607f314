import { ArgsType, Field, ID, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import {
  MatchChatEnum,
  MatchChatField,
  OnExpiryEnum,
  OnExpiryField,
  OverridesField,
  PresetField,
  RatedField,
  RulesetIdField,
  TurnTimeLimitField,
} from '../common/match-fields';
import { TournamentFormatEnum, TournamentStatusEnum, TournamentVisibilityEnum } from './tournament.model';
import { CursorPageArgs } from '../common/cursor-page';

@InputType({ description: 'A new tournament (docs/tournaments.md).' })
export class CreateTournamentInput {
  @Field({ description: 'Its name, 1 to 80 characters.' })
  @ApiProperty({ example: 'Thursday club Swiss', minLength: 1, maxLength: 80 })
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  name!: string;

  @Field(() => TournamentFormatEnum, {
    description: 'swiss: a fixed number of rounds paired by score; roundRobin: everyone meets everyone once (at most 16 players).',
  })
  @ApiProperty({ enum: TournamentFormatEnum })
  @IsIn(Object.values(TournamentFormatEnum))
  format!: `${TournamentFormatEnum}`;

  @PresetField('A two-player preset id; or give rulesetId.')
  preset?: string;

  @RulesetIdField('A saved two-player ruleset, played as saved (no overrides).')
  rulesetId?: string;

  @OverridesField('Option overrides of the preset (not with rated).')
  overrides?: Record<string, unknown>;

  @Field(() => Int, {
    nullable: true,
    description: 'Swiss: rounds to play (1 to 20, default 3), capped at the start at ⌈log₂ players⌉. Round robin: ignored (players − 1, or players when odd).',
  })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 20, default: 3 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(20)
  rounds?: number;

  @Field(() => Int, { nullable: true, description: 'Most players (2 to 256 for swiss, default 64; 2 to 16 for roundRobin, default 16).' })
  @ApiPropertyOptional({ type: 'integer', minimum: 2, maximum: 256 })
  @IsOptional()
  @IsInt()
  @Min(2)
  @Max(256)
  maxPlayers?: number;

  @Field(() => Date, { nullable: true, description: 'When it starts by itself (ISO 8601); absent: when its creator starts it.' })
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @IsOptional()
  @IsISO8601()
  startsAt?: string | Date | null;

  @TurnTimeLimitField('ISO 8601 duration per turn of every match (PT30S live, P1D correspondence); null or absent for untimed matches.', 'P1D')
  turnTimeLimit?: string | null;

  @OnExpiryField()
  onExpiry?: `${OnExpiryEnum}`;

  @RatedField('Rated matches (default false): players carry their rating in, and the standings show a performance rating.')
  rated?: boolean;

  @Field({ nullable: true, description: 'Duplicate (default false): every table of a round is dealt the same cards (docs/tournaments.md).' })
  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  duplicate?: boolean;

  @MatchChatField("The players' chat room of every table: players (default) or off (imposed on each table: CHAT_CLOSED).")
  chat?: `${MatchChatEnum}`;

  @Field(() => TournamentVisibilityEnum, {
    nullable: true,
    description: 'public (default: listed, anyone joins) or private (not listed; only the invited join).',
  })
  @ApiPropertyOptional({ enum: TournamentVisibilityEnum })
  @IsOptional()
  @IsIn(Object.values(TournamentVisibilityEnum))
  visibility?: `${TournamentVisibilityEnum}`;

  @Field(() => [String], { nullable: true, description: 'Private: the usernames who may join (the creator always may).' })
  @ApiPropertyOptional({ type: [String], maxItems: 256 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(256)
  @IsString({ each: true })
  @MaxLength(32, { each: true })
  invited?: string[];

  @Field(() => ID, {
    nullable: true,
    description: 'A team-only tournament: only the members of this team join (FORBIDDEN otherwise); only a leader of the team creates one.',
  })
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  teamId?: string | null;
}

@InputType({ description: 'How I join a tournament.' })
export class JoinTournamentInput {
  @Field({
    nullable: true,
    description: "My client seed (1 to 64 bytes as hex): in a duplicate tournament it goes into every round's deal (docs/fairness.md).",
  })
  @ApiPropertyOptional({ example: 'c0ffee00c0ffee00c0ffee00c0ffee00' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  clientSeed?: string;
}

@ArgsType()
export class TournamentListQuery extends CursorPageArgs({ defaultSize: 20, cursorMaxLength: 200 }) {
  @Field(() => TournamentStatusEnum, { nullable: true, description: 'Only tournaments in this status.' })
  @ApiPropertyOptional({ enum: TournamentStatusEnum })
  @IsOptional()
  @IsIn(Object.values(TournamentStatusEnum))
  status?: `${TournamentStatusEnum}`;

  @Field(() => TournamentFormatEnum, { nullable: true, description: 'Only tournaments of this format.' })
  @ApiPropertyOptional({ enum: TournamentFormatEnum })
  @IsOptional()
  @IsIn(Object.values(TournamentFormatEnum))
  format?: `${TournamentFormatEnum}`;
}
