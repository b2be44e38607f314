import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { queryBoolean } from '../common/query-boolean';
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

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      "true: the match's chat too, live, as `{chat}` lines between the event lines: its players' room, and its spectators' room (to its players only the messages sent after its end); a message a moderator removes, as a `{chatRemoved: {id, room, removedAt}}` line (drop the message it names).",
  })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  chat?: boolean;
}

/** `GET /v1/stream/lobby?preset=&rated=&clock=`: the filters of the `lobby` query and subscription, validated by them. */
export class LobbyStreamQuery extends LobbyFilterArgs {}
