/*
 * What several features say about a match in their inputs and models, kept here so that each can import it
 * without importing another feature: the options of every input that makes a match (createMatch, createSeek,
 * challenge) and how a finished match ended.
 */
import { AsSent } from './validation';
import { applyDecorators } from '@nestjs/common';
import { Field, ID, registerEnumType } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsObject, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { JSONScalar } from './json.scalar';

/** What a turn clock running out does; the values are the wire values of REST, GraphQL and the log. */
export enum OnExpiryEnum {
  autoPlay = 'autoPlay',
  forfeit = 'forfeit',
}
registerEnumType(OnExpiryEnum, {
  name: 'OnExpiry',
  description: 'When a turn clock runs out: autoPlay plays for the seat (docs/async-play.md, "Turn clocks"); forfeit ends the match, the seat\'s side losing.',
});

/*
 * The fields of every input that makes a match (createMatch, createSeek, challenge): each one GraphQL field, one
 * OpenAPI property and one validation, so that the three inputs cannot drift apart; what the field means on that
 * input is its description, the same in both contracts.
 */

export const PresetField = (description: string): PropertyDecorator =>
  applyDecorators(
    Field(() => String, { nullable: true, description }),
    ApiPropertyOptional({ description, type: String, example: 'scopa' }),
    IsOptional(),
    IsString(),
    MaxLength(50),
  );

export const RulesetIdField = (description: string): PropertyDecorator =>
  applyDecorators(
    Field(() => ID, { nullable: true, description }),
    ApiPropertyOptional({ description, format: 'uuid' }),
    IsOptional(),
    IsUUID('all', { message: 'rulesetId must be the id of a saved ruleset (a UUID)' }),
  );

export const OverridesField = (description: string): PropertyDecorator =>
  applyDecorators(
    Field(() => JSONScalar, { nullable: true, description }),
    ApiPropertyOptional({ description, type: 'object', additionalProperties: true, example: { target: 5 } }),
    AsSent(),
    IsOptional(),
    IsObject(),
  );

/** Whether it is an ISO 8601 duration within PT10S..P30D is the engine's check (src/engine/turn-time.ts): this only bounds the input. */
export const TurnTimeLimitField = (description: string, example: string): PropertyDecorator =>
  applyDecorators(
    Field(() => String, { nullable: true, description }),
    ApiPropertyOptional({ description, type: String, nullable: true, example }),
    IsOptional(),
    IsString(),
    MaxLength(40),
  );

const ON_EXPIRY_DOC = 'What the turn clock running out does (default autoPlay).';
export const OnExpiryField = (): PropertyDecorator =>
  applyDecorators(
    Field(() => OnExpiryEnum, { nullable: true, description: ON_EXPIRY_DOC }),
    ApiPropertyOptional({ enum: OnExpiryEnum, description: ON_EXPIRY_DOC }),
    IsOptional(),
    IsIn(Object.values(OnExpiryEnum)),
  );

export const RatedField = (description: string): PropertyDecorator =>
  applyDecorators(
    Field(() => Boolean, { nullable: true, description }),
    ApiPropertyOptional({ description, type: Boolean, default: false }),
    IsOptional(),
    IsBoolean(),
  );

/** A match's players' chat room (src/chat, docs/social.md "Chat"): the wire values of REST, GraphQL and the log. */
export enum MatchChatEnum {
  players = 'players',
  off = 'off',
}
registerEnumType(MatchChatEnum, {
  name: 'MatchChat',
  description: "The match's players' chat room: players (the default: every seat reads every message, spectators read it) or off (closed: CHAT_CLOSED).",
});

export const MatchChatField = (description: string): PropertyDecorator =>
  applyDecorators(
    Field(() => MatchChatEnum, { nullable: true, description }),
    ApiPropertyOptional({ description, enum: MatchChatEnum, default: 'players' }),
    IsOptional(),
    IsIn(Object.values(MatchChatEnum)),
  );

/** A finished match's result from one player's side. */
export enum GameResultEnum {
  win = 'win',
  loss = 'loss',
  draw = 'draw',
}
registerEnumType(GameResultEnum, { name: 'GameResult', description: "A finished match's result from one player's side." });

/** Why a match ended (the engine's EndReason). */
export enum MatchEndReasonEnum {
  points = 'points',
  allDenari = 'allDenari',
  resignation = 'resignation',
  forfeit = 'forfeit',
  aborted = 'aborted',
}
registerEnumType(MatchEndReasonEnum, {
  name: 'MatchEndReason',
  description:
    'Why a match ended: points (a side reached the target), allDenari (allDenariWins), resignation, forfeit (a clock ran out under onExpiry forfeit), aborted (called off before the first play: no result, unrated).',
});
