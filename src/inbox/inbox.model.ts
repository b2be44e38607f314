import { ArgsType, Field, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { JSONScalar } from '../common/json.scalar';
import { PLAYER_EVENT_TYPES } from './player-events';
import type { PlayerEventType } from './player-events';

/** GET /v1/inbox?limit= and the GraphQL arguments of inbox. */
@ArgsType()
export class InboxQuery {
  @Field(() => Int, { nullable: true })
  @ApiPropertyOptional({ default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

@ObjectType('InboxEntry', { description: 'A match where it is my turn.' })
export class InboxEntryModel {
  @Field(() => ID) @ApiProperty() matchId!: string;
  @Field() @ApiProperty() preset!: string;
  @Field(() => Int, { description: 'The current seq: send it as expectedSeq (REST: If-Match).' }) @ApiProperty() seq!: number;
  @Field(() => Int, { description: 'My seat.' }) @ApiProperty() seat!: number;
  @Field(() => Date, { nullable: true, description: 'When my turn clock runs out; null for an untimed match.' })
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  deadline!: Date | null;
  @Field(() => Date, { description: 'When the turn came.' }) @ApiProperty({ type: String, format: 'date-time' }) since!: Date;
  @Field({ description: 'Less than CLOCK_LOW_FRACTION (default 10%) of the turn time limit is left.' }) @ApiProperty() clockLow!: boolean;
  @Field({ description: 'My turn clock stands still: I am on vacation and the match is a correspondence one (deadline is then null).' })
  @ApiProperty({ description: 'My turn clock stands still: I am on vacation and the match is a correspondence one (deadline is then null).' })
  paused!: boolean;
  @Field(() => Date, { nullable: true, description: 'When my vacation ends, for an entry whose clock it pauses; null otherwise.' })
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When my vacation ends, for an entry whose clock it pauses; null otherwise.' })
  onVacationUntil!: Date | null;
}

/** The GraphQL enum of the player events: every member of the closed union (./player-events.ts), by its public name. */
export const PlayerEventTypeEnum = Object.fromEntries(PLAYER_EVENT_TYPES.map((t) => [t, t])) as { [T in PlayerEventType]: T };
registerEnumType(PlayerEventTypeEnum, {
  name: 'PlayerEventType',
  description: 'What happened to me: the events of my channel, as the NDJSON event stream (GET /v1/stream/events) also sends them.',
});

@ObjectType('PlayerEvent', {
  description:
    'One of my events (myEvents), as the NDJSON event stream sends it: `type` names it, and the fields it carries are set (the others are null). ' +
    'matchStarted: matchId, seq, seat, preset, players. matchEnded: matchId, seq, seat, result. clockLow: matchId, seq, seat, deadline. ' +
    'seekPaired: seekId, matchId, seat, preset, rulesetId, players. challengeReceived, challengeDeclined, challengeCanceled: challenge. challengeAccepted: challenge, matchId. ' +
    'rematchOffered: matchId, by, expiresAt. rematchDeclined: matchId, by. rematchStarted: matchId, newMatchId. analysisReady: matchId, analyzer. tournamentRoundPaired: tournamentId, round, matchId (null: a bye), seat, players. ' +
    'directMessage: message (id, room, author, text, sentAt: plain text, never markup).',
})
export class PlayerEventModel {
  @Field(() => PlayerEventTypeEnum, { description: 'What happened (the NDJSON event stream line of the same type carries the same fields).' })
  type!: PlayerEventType;
  @Field(() => ID, { nullable: true, description: 'The match the event is about (rematch events: the finished match).' }) matchId?: string;
  @Field(() => Int, { nullable: true, description: 'The seq of the match log the event is about.' }) seq?: number;
  @Field(() => Int, { nullable: true, description: 'My seat.' }) seat?: number;
  @Field(() => String, { nullable: true, description: 'clockLow: when my turn clock runs out (ISO 8601).' }) deadline?: string;
  @Field(() => String, { nullable: true, description: 'matchStarted, seekPaired: the preset.' }) preset?: string | null;
  @Field(() => [String], { nullable: 'itemsAndList', description: 'matchStarted, seekPaired: who sits where (bots as bot:<level>:<seat>).' }) players?: (
    string | null
  )[];
  @Field(() => JSONScalar, { nullable: true, description: 'matchEnded: { reason, winner, totals }.' }) result?: unknown;
  @Field(() => ID, { nullable: true, description: 'seekPaired: my seek.' }) seekId?: string;
  @Field(() => ID, { nullable: true, description: 'seekPaired: the saved ruleset played (null: a preset).' }) rulesetId?: string | null;
  @Field(() => JSONScalar, { nullable: true, description: 'Challenge events: the challenge, as GET /v1/challenges/{id} shows it.' }) challenge?: unknown;
  @Field(() => String, { nullable: true, description: 'rematchOffered, rematchDeclined: who asked or declined.' }) by?: string;
  @Field(() => String, { nullable: true, description: 'rematchOffered: when the offer lapses (ISO 8601).' }) expiresAt?: string;
  @Field(() => ID, { nullable: true, description: 'rematchStarted: the new match.' }) newMatchId?: string;
  @Field(() => String, { nullable: true, description: 'analysisReady: the analyzer key of the analysis now done (e.g. ismcts/1).' }) analyzer?: string;
  @Field(() => ID, { nullable: true, description: 'tournamentRoundPaired: the tournament.' }) tournamentId?: string;
  @Field(() => Int, { nullable: true, description: 'tournamentRoundPaired: the round (from 1).' }) round?: number;
  @Field(() => JSONScalar, {
    nullable: true,
    description: 'directMessage: the message { id, room, author, text, sentAt }, as GET /v1/messages/{username} lists it.',
  })
  message?: unknown;
}
