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
