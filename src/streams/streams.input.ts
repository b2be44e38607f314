import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { LobbyFilterArgs } from '../lobby/lobby.model';

/** `GET /v1/matches/{id}/stream?fromSeq=`: the first seq to send (default 1), as `matchEventsLive`. */
export class MatchStreamQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    default: 1,
    description: 'The first seq to send: after a dropped connection, the last seq received + 1.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  fromSeq?: number;
}

/** `GET /v1/stream/lobby?preset=&rated=&clock=`: the filters of the `lobby` query and subscription, validated by them. */
export class LobbyStreamQuery extends LobbyFilterArgs {}
