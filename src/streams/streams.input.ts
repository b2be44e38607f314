import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** `GET /v1/matches/{id}/stream?fromSeq=`: the first seq to send (default 1), as `matchEventsLive`. */
export class MatchStreamQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1, description: 'The first seq to send: after a dropped connection, the last seq received + 1.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  fromSeq?: number;
}
