/**
 * The lines of the NDJSON streams, for openapi.yaml (each line is one JSON
 * value of these shapes; empty lines are keep-alives).
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LobbyMatchModel } from '../lobby/lobby.model';
import { MatchEventModel, MatchModel } from '../matches/match.model';
import { MatchEndReasonEnum } from '../common/match-fields';
import { PLAYER_EVENT_TYPES } from '../inbox/player-events';
import { ChatMessageModel } from '../chat/chat.model';

/** The `type`s of the event stream's lines: its own two, then every player event (src/inbox/player-events.ts), forwarded as it is. */
export const EVENT_LINE_TYPES = ['matchInPlay', 'yourTurn', ...PLAYER_EVENT_TYPES] as const;

/** A line of `GET /v1/stream/events`. */
export class EventStreamLineModel {
  @ApiProperty({
    description:
      'What happened. First one `matchInPlay` per match in play where the caller holds a seat (with `match`), then as they happen: ' +
      '`yourTurn` (`matchId`, `seq`, `seat`, `deadline`), `matchStarted` (`matchId`, `seq`, `seat`, `preset`, `players`), ' +
      '`matchEnded` (`matchId`, `seq`, `seat`, `result`), and the events other features publish to the player ' +
      `(${PLAYER_EVENT_TYPES.filter((t) => t !== 'matchStarted' && t !== 'matchEnded')
        .map((t) => '`' + t + '`')
        .join(', ')}: ` +
      'each as GraphQL `myEvents` sends it; a client ignores types it does not know).',
    example: 'yourTurn',
  })
  type!: string;

  @ApiPropertyOptional({ type: MatchModel, description: '`matchInPlay`: the match as GET /v1/matches/{id} shows it to the caller.' })
  match?: MatchModel;

  @ApiPropertyOptional({ description: 'The match the event is about.' })
  matchId?: string;

  @ApiPropertyOptional({
    type: 'integer',
    description: "The seq of the match log the event is about (a match event's own seq; for yourTurn, the seq the turn follows).",
  })
  seq?: number;

  @ApiPropertyOptional({ type: 'integer', description: "The caller's seat." })
  seat?: number;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: '`yourTurn`: when the turn clock runs out; null for an untimed match.',
  })
  deadline?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: '`matchStarted`: the preset.' })
  preset?: string | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', nullable: true },
    description: '`matchStarted`: who sits where (bots as bot:<level>:<seat>).',
  })
  players?: (string | null)[];

  @ApiPropertyOptional({
    type: 'object',
    properties: {
      reason: { type: 'string', enum: Object.values(MatchEndReasonEnum) },
      winner: { type: 'integer', nullable: true },
      totals: { type: 'array', items: { type: 'integer' } },
    },
    description:
      '`matchEnded`: the reason (MatchEndReason: points, allDenari, resignation, forfeit, aborted), the winning side (null: a draw) and the totals per side.',
  })
  result?: { reason: string; winner: number | null; totals: number[] };

  @ApiPropertyOptional({ description: '`tournamentRoundPaired`: the tournament.' })
  tournamentId?: string;

  @ApiPropertyOptional({ type: 'integer', description: '`tournamentRoundPaired`: the round (from 1).' })
  round?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: '`directMessage`: the message (id, room, author, text, sentAt), as GET /v1/messages/{username} lists it; plain text, never markup.',
  })
  message?: Record<string, unknown>;
}

/** The stream's last line when it cannot go on (the credential was revoked or expired, a read failed). */
export class StreamErrorModel {
  @ApiProperty({ description: 'A stable error code (UNAUTHENTICATED when the credential was revoked or expired).' }) code!: string;
  @ApiProperty() message!: string;
}

export class StreamErrorLineModel {
  @ApiProperty({ type: StreamErrorModel }) error!: StreamErrorModel;
}

/** A line of `GET /v1/matches/{id}/stream`: as `matchEventsLive` sends it. */
export class MatchStreamLineModel {
  @ApiProperty({ type: MatchEventModel }) event!: MatchEventModel;
  @ApiProperty({ type: MatchModel, description: 'The match as the caller may see it right after the event.' }) match!: MatchModel;
}

/** A chat line of `GET /v1/matches/{id}/stream?chat=true`: a message of the match's players' or spectators' room, as `chatMessage` sends it. */
export class MatchChatLineModel {
  @ApiProperty({ type: ChatMessageModel, description: 'Plain text, never markup.' }) chat!: ChatMessageModel;
}

/** A line of `GET /v1/stream/lobby`: a change of the lobby as the caller may see it, as the `lobby` subscription sends it. */
export class LobbyStreamLineModel {
  @ApiProperty({
    enum: ['added', 'updated', 'removed'],
    description:
      'First one `added` line per match of the lobby as GET /v1/lobby lists it to the caller with the same filters (newest first, every page), then as they happen: ' +
      '`added` (newly listed), `updated` (a seat taken, seats still open), `removed` (no longer listed for the caller: full, started, ended, or now taken by the caller). ' +
      'A change that happens while the first lines are read comes after them: keep the entries by matchId (added and updated set, removed deletes).',
  })
  type!: 'added' | 'updated' | 'removed';
  @ApiProperty() matchId!: string;
  @ApiProperty({ type: LobbyMatchModel, nullable: true, description: 'The entry (added, updated); null for removed.' })
  match!: LobbyMatchModel | null;
}
