import { ArgsType, Field, Int, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { queryBoolean } from '../common/query-boolean';
import { BATCH_EXPORT_MAX, STREAM_MAX } from './archives.service';

export enum MatchResultFilter {
  win = 'win',
  loss = 'loss',
  draw = 'draw',
}
registerEnumType(MatchResultFilter, { name: 'MatchResultFilter', description: "A finished match's result from the listed user's side." });

/** The filters of a user's archive, shared by REST (query string) and GraphQL (@ArgsType): validated once, here. */
@ArgsType()
export class UserMatchesQuery {
  @Field({ nullable: true, description: 'A preset id, or a saved ruleset id (the rating pool).' })
  @ApiPropertyOptional({ example: 'scopa' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  ruleset?: string;

  @Field(() => Boolean, { nullable: true })
  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  rated?: boolean;

  @Field({ nullable: true, description: "An opponent's username (a player on another side); username@host for a trusted issuer's player." })
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(300)
  vs?: string;

  @Field({ nullable: true, description: 'Matches that ended at or after this time (ISO 8601).' })
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 timestamp' })
  since?: string;

  @Field({ nullable: true, description: 'Matches that ended at or before this time (ISO 8601).' })
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 timestamp' })
  until?: string;

  @Field(() => MatchResultFilter, { nullable: true })
  @ApiPropertyOptional({ enum: MatchResultFilter })
  @IsOptional()
  @IsIn(Object.values(MatchResultFilter))
  result?: MatchResultFilter;

  @Field(() => Int, { nullable: true, description: 'Matches per page: 1..100, default 20.' })
  @ApiPropertyOptional({ minimum: 1, description: 'JSON: 1..100, default 20. NDJSON: no limit unless given (at most 1,000,000).' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(STREAM_MAX)
  max?: number;

  @Field({ nullable: true, description: 'The `next` cursor of the previous page.' })
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  after?: string;
}

/** REST only: NDJSON lines may carry each match's whole export. */
export class UserMatchesRestQuery extends UserMatchesQuery {
  @ApiPropertyOptional({ type: Boolean, description: "NDJSON only: each line carries the match's JSON Lines export too." })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  withEvents?: boolean;
}

export class BatchExportInput {
  @ApiProperty({ type: [String], maxItems: BATCH_EXPORT_MAX, description: `Match ids, 1..${BATCH_EXPORT_MAX}.` })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BATCH_EXPORT_MAX)
  @IsUUID('all', { each: true, message: 'ids must be match ids (UUIDs)' })
  ids!: string[];
}

export class ImportInput {
  @ApiProperty({ description: 'The JSON Lines export of a finished match (GET /v1/matches/{id}/export).' })
  @IsString()
  @MinLength(1)
  export!: string;
}

@ArgsType()
export class UserMatchesArgs extends UserMatchesQuery {
  @Field({ description: "The user whose matches to list (username@host: a trusted issuer's player)." })
  @IsString()
  @MinLength(1)
  @MaxLength(300)
  username!: string;
}
