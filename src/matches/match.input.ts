import { ArgsType, Field, ID, InputType, Int, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { BOT_LEVELS } from '../engine';
import { queryBoolean } from '../common/query-boolean';
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
import { BotLevelEnum, IsBotLevel } from '../bots/bot-level';
import type { SeatRequest } from './matches.service';

export enum SeatType {
  creator = 'creator',
  open = 'open',
  reserved = 'reserved',
  bot = 'bot',
}
registerEnumType(SeatType, {
  name: 'SeatType',
  description: 'creator: the caller sits here; open: anyone may join; reserved: only the named account; bot: a built-in bot.',
});

export enum MatchStatusEnum {
  open = 'open',
  playing = 'playing',
  over = 'over',
}
registerEnumType(MatchStatusEnum, {
  name: 'MatchStatus',
  description: 'open: seats are being taken; playing: dealt and in play; over: ended (the seed is revealed).',
});

export enum MatchPhaseEnum {
  new = 'new',
  open = 'open',
  playing = 'playing',
  over = 'over',
}
registerEnumType(MatchPhaseEnum, { name: 'MatchPhase', description: 'The phase of a match view: new (not created), open, playing, over.' });

export enum VisibilityEnum {
  public = 'public',
  private = 'private',
}
registerEnumType(VisibilityEnum, {
  name: 'Visibility',
  description: 'public: listed in the lobby while a seat is open; private: never listed, joinable by id.',
});

/** A client's idempotency key (scoped to the caller by the service). */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{1,100}$/;

@InputType()
export class SeatInput {
  @Field(() => SeatType) @ApiProperty({ enum: SeatType }) @IsIn(Object.values(SeatType)) type!: SeatType;
  @Field({ nullable: true, description: 'For reserved: the account the seat is kept for.' })
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(32)
  username?: string;
  @Field(() => BotLevelEnum, { nullable: true, description: 'For bot: its level.' })
  @ApiPropertyOptional({ enum: BOT_LEVELS })
  @IsOptional()
  @IsBotLevel()
  bot?: BotLevelEnum;
}

/** The seats of a CreateMatchInput as the service takes them (both transports). */
export function seatRequests(seats: SeatInput[] | undefined): SeatRequest[] | undefined {
  return seats?.map((s) => ({ type: s.type, username: s.username ?? '', bot: s.bot }) as SeatRequest);
}

@InputType()
export class CreateMatchInput {
  @PresetField('A preset id (see rulesets); or give rulesetId.')
  preset?: string;

  @RulesetIdField('A saved custom ruleset; the match locks it (immutable from then on).')
  rulesetId?: string;

  @OverridesField('Option overrides, checked by the engine (INVALID_RULESET names the option at fault).')
  overrides?: Record<string, unknown>;

  @Field(() => [SeatInput], { nullable: true, description: 'One spec per seat, in seat order; missing seats are open. Default: the creator in seat 0.' })
  @ApiPropertyOptional({ type: [SeatInput] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(6)
  @ValidateNested({ each: true })
  @Type(() => SeatInput)
  seats?: SeatInput[];

  @TurnTimeLimitField(
    'ISO 8601 duration per turn (e.g. PT1H): the turn clock; null or absent for an untimed match. onExpiry says what happens when it runs out.',
    'PT1H',
  )
  turnTimeLimit?: string | null;

  @OnExpiryField()
  onExpiry?: `${OnExpiryEnum}`;

  @RatedField(
    'A rated match (default false): two sides with a person, a preset or saved ruleset without overrides. See docs/ratings.md, "Creating a rated match".',
  )
  rated?: boolean;

  @MatchChatField("The players' chat room: players (default: every seat reads every message at once, spectators read it) or off (closed, CHAT_CLOSED).")
  chat?: `${MatchChatEnum}`;

  @Field(() => VisibilityEnum, {
    nullable: true,
    description: 'public (default): listed in the lobby while a seat is open; private: never listed, joinable by id.',
  })
  @ApiPropertyOptional({ enum: VisibilityEnum, default: 'public' })
  @IsOptional()
  @IsIn(Object.values(VisibilityEnum))
  visibility?: VisibilityEnum;
}

@InputType()
export class CommandInput {
  @Field(() => Int, { nullable: true, description: 'The seq the client last saw; another current seq is VERSION_CONFLICT.' })
  @ApiPropertyOptional()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  expectedSeq?: number;

  @Field({ nullable: true, description: 'Retrying with the same key returns the first result and changes nothing.' })
  @ApiPropertyOptional({ pattern: IDEMPOTENCY_KEY.source })
  @IsOptional()
  @IsString()
  @Matches(IDEMPOTENCY_KEY, { message: '1 to 100 of A-Z a-z 0-9 _ . : -' })
  idempotencyKey?: string;
}

const CLIENT_SEED_DOC =
  'My client seed: 1 to 64 bytes as hex (2 to 128 hex digits), from a CSPRNG; public at once, mixed into the deal (docs/fairness.md, "Player-contributed seeds").';

@InputType()
export class JoinInput extends CommandInput {
  @Field(() => Int, { nullable: true, description: 'A seat number; default the seat reserved for me, else the first open one.' })
  @ApiPropertyOptional()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5)
  seat?: number;

  // The format (INVALID_CLIENT_SEED) is the engine's check; this only bounds the input.
  @Field(() => String, { nullable: true, description: CLIENT_SEED_DOC })
  @ApiPropertyOptional({ example: '9f86d081884c7d65' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  clientSeed?: string;
}

@InputType()
export class ClientSeedInput extends CommandInput {
  @Field(() => String, { description: CLIENT_SEED_DOC })
  @ApiProperty({ example: '9f86d081884c7d65' })
  @IsString()
  @MaxLength(256)
  clientSeed!: string;
}

@InputType()
export class PlayInput extends CommandInput {
  @Field({ description: 'A card code such as 7D (rank 1..10, suit D C S B).' })
  @ApiProperty({ example: '7D' })
  @IsString()
  @MaxLength(3)
  card!: string;

  @Field(() => [String], { description: 'Table cards captured; [] to lay the card.' })
  @ApiProperty({ type: [String], example: ['3C', '4S'] })
  @IsArray()
  @ArrayMaxSize(40)
  @IsString({ each: true })
  @MaxLength(3, { each: true })
  capture!: string[];

  @Field({
    nullable: true,
    description: 'Ignored (the engine works it out from card and capture): accepted so that a play from legalPlays can be sent back as it is.',
  })
  @ApiPropertyOptional({ description: 'Ignored: accepted so that a play from legal-plays can be sent back as it is.' })
  @IsOptional()
  @IsBoolean()
  scopa?: boolean;
}

@InputType()
export class DeclareHandInput extends CommandInput {
  // The range (MATTA_VALUE_OUT_OF_RANGE) and whether a value is due (MATTA_VALUE_MISSING, MATTA_VALUE_NOT_EXPECTED) are the engine's checks.
  @Field(() => Int, {
    nullable: true,
    description: 'The value (1 to 10) named for the matta: required when my hand holds the matta, absent or null otherwise.',
  })
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: 2,
    description: 'The value (1 to 10) named for the matta: required when my hand holds the matta, absent or null otherwise.',
  })
  @IsOptional()
  @IsInt()
  mattaValue?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Ignored (the engine works it out): accepted so that a declaration from legalPlays can be sent back as it is.',
  })
  @ApiPropertyOptional({ type: Number, description: 'Ignored: accepted so that a declaration from legal-plays can be sent back as it is.' })
  @IsOptional()
  @IsInt()
  points?: number;
}

/** Arguments shared by REST (query strings) and GraphQL (@ArgsType): each is validated once, here. */
@ArgsType()
export class MatchListQuery {
  @Field(() => MatchStatusEnum, { nullable: true })
  @ApiPropertyOptional({ enum: MatchStatusEnum })
  @IsOptional()
  @IsIn(Object.values(MatchStatusEnum))
  status?: MatchStatusEnum;

  @Field(() => Boolean, { nullable: true })
  @ApiPropertyOptional({ type: Boolean, description: 'Only matches where it is my turn.' })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  myTurn?: boolean;

  @Field(() => Int, { nullable: true }) @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(500) limit?: number;
  @Field(() => Int, { nullable: true }) @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(1_000_000) offset?: number;
}

@ArgsType()
export class AtSeqQuery {
  @Field(() => Int, { nullable: true })
  @ApiPropertyOptional({ description: 'Replay: the match at this seq (the spectator view before the end).' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  atSeq?: number;
}

@ArgsType()
export class MatchArgs extends AtSeqQuery {
  @Field(() => ID) @IsString() id!: string;
}

@ArgsType()
export class EventsQuery {
  @Field(() => Int, { nullable: true })
  @ApiPropertyOptional({ default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  fromSeq?: number;
  @Field(() => Int, { nullable: true }) @ApiPropertyOptional({ default: 100 }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(1000) limit?: number;
}

@ArgsType()
export class MatchEventsArgs extends EventsQuery {
  @Field(() => ID) @IsString() matchId!: string;
}

@ArgsType()
export class LiveEventsArgs {
  @Field(() => ID) @IsString() matchId!: string;
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(1) @Max(1_000_000_000) fromSeq?: number;
}
