import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JSONScalar } from '../common/json.scalar';
import { DeclarationModel, RulesetOptionsModel } from '../rulesets/ruleset.model';
import { GameResultEnum, MatchEndReasonEnum, OnExpiryEnum } from '../common/match-fields';
import { BotLevelEnum } from '../bots/bot-level';
import type { MatchView } from '../engine';
import type { MatchStatus } from '../match-store/match-store';
import { MatchPhaseEnum, MatchStatusEnum } from './match.input';
import type { FullView } from './match-views';
import type { MatchPresentation } from './matches.service';

@ObjectType('SeatClock', { description: "A seat's turn clock." })
export class SeatClockModel {
  @Field({
    description:
      'Whether the seat\'s turn clock stands still: its player is on vacation and the match is a correspondence one (docs/async-play.md "Vacations").',
  })
  @ApiProperty({ description: "Whether the seat's turn clock stands still: its player is on vacation and the match is a correspondence one." })
  paused!: boolean;
}

@ObjectType('SeatPublic')
export class SeatPublicModel {
  @Field(() => Int) @ApiProperty() seat!: number;
  @Field(() => Int) @ApiProperty() side!: number;
  @Field(() => String, { nullable: true, description: 'Username, or bot:<level>:<seat>, or null while open.' })
  @ApiProperty({ type: String, nullable: true })
  player!: string | null;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) reservedFor!: string | null;
  @Field(() => BotLevelEnum, { nullable: true }) @ApiProperty({ type: String, nullable: true, enum: BotLevelEnum }) bot!: string | null;
  @Field(() => Int) @ApiProperty() handSize!: number;
  @Field(() => [String])
  @ApiProperty({
    type: [String],
    description:
      "The cards of this seat's hand declaration still in its hand (cirulla): public to every seat and spectator until each is played; empty without one.",
  })
  declared!: string[];
  @Field(() => SeatClockModel, { description: "The seat's turn clock (paused while its player is on vacation, in a correspondence match)." })
  @ApiProperty({ type: SeatClockModel, description: "The seat's turn clock (paused while its player is on vacation, in a correspondence match)." })
  clock!: SeatClockModel;
  // GraphQL field: SeatPresenceResolver. Over REST, on reading a match (absent in command responses).
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "When the seat's player's vacation ends (their correspondence clocks stand still until then); null when not on vacation, in a match not over.",
  })
  onVacationUntil?: Date | null;
  // GraphQL fields: SeatPresenceResolver. Over REST, on reading a match (a person's seat, to the players of the match; null to others; absent for open and bot seats and in command responses).
  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description:
      "Whether the seat's player holds an open live connection (graphql-ws or a stream) on any instance; null to a caller without a seat in the match.",
  })
  online?: boolean | null;
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the player was last online (null: online now, or not seen since the service started).',
  })
  lastSeen?: Date | null;
}

@ObjectType('SidePublic')
export class SidePublicModel {
  @Field(() => Int) @ApiProperty() side!: number;
  @Field(() => [Int]) @ApiProperty({ type: [Number] }) seats!: number[];
  @Field(() => Int) @ApiProperty() capturedCount!: number;
  @Field(() => [String], { description: "This round's captures (public: played face up)." }) @ApiProperty({ type: [String] }) captured!: string[];
  @Field(() => Int) @ApiProperty() scope!: number;
  @Field(() => Int) @ApiProperty() score!: number;
}

@ObjectType('MatchResult')
export class MatchResultModel {
  @Field(() => MatchEndReasonEnum) @ApiProperty({ enum: MatchEndReasonEnum }) reason!: string;
  @Field(() => Int, { nullable: true, description: 'Winning side; null for a draw.' }) @ApiProperty({ type: Number, nullable: true }) winner!: number | null;
}

@ObjectType('MatchSettings')
export class MatchSettingsModel {
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) turnTimeLimit!: string | null;
  @Field(() => OnExpiryEnum, { description: 'What the turn clock running out does.' })
  @ApiProperty({ enum: OnExpiryEnum, description: 'What the turn clock running out does.' })
  onExpiry!: string;
  // GraphQL field `rated` (always a Boolean): MatchSettingsResolver (src/matches/matches.resolver.ts).
  @ApiPropertyOptional({ description: 'true for a rated match (absent: unrated).' }) rated?: boolean;
  // GraphQL field `chat` (always set, players by default): MatchSettingsResolver (src/matches/matches.resolver.ts).
  @ApiPropertyOptional({ enum: ['players', 'off'], description: "The players' chat room: off when closed (absent: players)." }) chat?: 'players' | 'off';
}

const ROUNDS =
  'Scored rounds with their breakdowns: {round, breakdown: {points, scope, awards, cardCounts, denariCounts, allDenari, primiera?, denariBonus?, piccolaPoints?, bonusScope?}}. ' +
  'awards has one key per award the ruleset enables (cards, denari, settebello, reBello, primiera, sevens, piccola, grande): the winning side or null; ' +
  'piccolaPoints (3 to 6, 0 when nobody holds it) with piccola; bonusScope per side (part of scope: the initial-table capture and hand declarations) when the ruleset has either.';

@ObjectType('MatchView', { description: 'What the caller may see: its own hand if seated, no hand as a spectator; everything once the match is over.' })
export class MatchViewModel {
  @Field(() => Int, { nullable: true, description: 'The seat this view is for, or null for a spectator.' })
  @ApiProperty({ type: Number, nullable: true })
  viewer!: number | null;
  @Field(() => MatchPhaseEnum, { description: "The engine's phase (new only before creation)." })
  @ApiProperty({ enum: MatchPhaseEnum, description: "The engine's phase (new only before creation)." })
  phase!: string;
  @Field() @ApiProperty() rulesVersion!: string;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) preset!: string | null;
  @Field(() => RulesetOptionsModel, { nullable: true }) @ApiProperty({ type: RulesetOptionsModel, nullable: true }) options!: RulesetOptionsModel | null;
  @Field(() => MatchSettingsModel) @ApiProperty({ type: MatchSettingsModel }) settings!: MatchSettingsModel;
  @Field(() => String, { nullable: true, description: 'SHA-256 of the deal seed, revealed at the end.' })
  @ApiProperty({ type: String, nullable: true })
  seedCommitment!: string | null;
  @Field(() => [String], {
    nullable: 'items',
    description: "Each seat's client seed (hex), null where none was given: public from the moment it is given (scopa-rules/2; empty before).",
  })
  @ApiProperty({
    type: 'array',
    items: { type: 'string', nullable: true },
    description: "Each seat's client seed (hex), null where none was given (scopa-rules/2; empty before).",
  })
  clientSeeds!: (string | null)[];
  @Field(() => Int) @ApiProperty() round!: number;
  @Field(() => Int) @ApiProperty() dealer!: number;
  @Field(() => Int, { description: 'Seat to move, or -1.' }) @ApiProperty() turn!: number;
  @Field(() => Int, { nullable: true, description: 'The side that captured last this round (it takes what is left at the end).' })
  @ApiProperty({ type: Number, nullable: true })
  lastCapturer!: number | null;
  @Field(() => [String], { description: "The viewer's own hand (empty for a spectator)." }) @ApiProperty({ type: [String] }) hand!: string[];
  @Field(() => [String]) @ApiProperty({ type: [String] }) table!: string[];
  @Field(() => JSONScalar)
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { '7C': 2 },
    description: 'Capture values other than the rank, until the round ends: a declared matta\'s, e.g. {"7C": 2}; {} when none.',
  })
  captureValues!: Record<string, number>;
  @Field(() => Int) @ApiProperty() deckSize!: number;
  @Field(() => [SeatPublicModel]) @ApiProperty({ type: [SeatPublicModel] }) seats!: SeatPublicModel[];
  @Field(() => [SidePublicModel]) @ApiProperty({ type: [SidePublicModel] }) sides!: SidePublicModel[];
  @Field(() => JSONScalar, { description: ROUNDS }) @ApiProperty({ type: 'array', items: { type: 'object' }, description: ROUNDS }) rounds!: unknown[];
  @Field(() => MatchResultModel, { nullable: true }) @ApiProperty({ type: MatchResultModel, nullable: true }) result!: MatchResultModel | null;
}

@ObjectType('Reveal', { description: 'Everything, once the match is over: the seed, every hand, the undealt cards.' })
export class RevealModel {
  @Field() @ApiProperty() seed!: string;
  @Field(() => [[String]]) @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string' } } }) hands!: string[][];
  @Field(() => [String]) @ApiProperty({ type: [String] }) deck!: string[];
  @Field(() => [[String]]) @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string' } } }) captured!: string[][];
}

@ObjectType('RatingChange', { description: "One player's rating change in a rated match (before: entering the match, RD grown for inactivity)." })
export class RatingChangeModel {
  @Field({ description: 'A username, or bot:<level>.' }) @ApiProperty() player!: string;
  @Field(() => Int) @ApiProperty() side!: number;
  @Field(() => GameResultEnum) @ApiProperty({ enum: GameResultEnum }) result!: string;
  @Field(() => Float) @ApiProperty() ratingBefore!: number;
  @Field(() => Float) @ApiProperty() ratingAfter!: number;
  @Field(() => Float) @ApiProperty() rdBefore!: number;
  @Field(() => Float) @ApiProperty() rdAfter!: number;
  @Field(() => Float) @ApiProperty() volatilityBefore!: number;
  @Field(() => Float) @ApiProperty() volatilityAfter!: number;
}

/** The GraphQL / OpenAPI shape of a MatchPresentation: the fields carry the service's own types, so a transport returns the presentation as it is. */
@ObjectType('Match')
export class MatchModel implements MatchPresentation {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field(() => Int, { description: 'Seq of the last event this view includes (the ETag of REST).' }) @ApiProperty() seq!: number;
  @Field(() => MatchStatusEnum) @ApiProperty({ enum: MatchStatusEnum }) status!: MatchStatus;
  @Field() @ApiProperty() createdBy!: string;
  @Field(() => ID, { nullable: true }) @ApiProperty({ type: String, nullable: true }) rulesetId!: string | null;
  @Field({ description: 'Imported from an export (read-only, never rated), as the archive entry says.' })
  @ApiProperty({ description: 'Imported from an export (read-only, never rated), as the archive entry says.' })
  imported!: boolean;
  @Field(() => String, { nullable: true, description: 'For an imported match: the id of the match it was exported from; null otherwise.' })
  @ApiProperty({ type: String, nullable: true, description: 'For an imported match: the id of the match it was exported from; null otherwise.' })
  sourceId!: string | null;
  @Field(() => MatchViewModel) @ApiProperty({ type: MatchViewModel }) view!: MatchView;
  @Field(() => RevealModel, { nullable: true }) @ApiProperty({ type: RevealModel, nullable: true }) reveal!: FullView | null;
  // GraphQL field: MatchFieldsResolver (src/matches/matches.resolver.ts). Over REST, on reading a match (not in command responses: the ratings follow the end).
  @ApiPropertyOptional({
    type: [RatingChangeModel],
    nullable: true,
    description: 'Once a rated match is over and taken into the ratings: each rated player before and after; null otherwise.',
  })
  ratingChanges?: RatingChangeModel[] | null;
  // GraphQL field: MatchFieldsResolver. Over REST, beside ratingChanges.
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'A rated match that is over and taken into the ratings but did not count: why (e.g. a side left before every side had played a card: an abort for the ratings); null when it counted. Absent for an unrated match.',
  })
  unratedReason?: string | null;
  // GraphQL field: MatchFieldsResolver. Over REST, on reading a match and in command responses.
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'While a start waits for the client seeds: when it deals at the latest (docs/fairness.md, "Player-contributed seeds"); null otherwise.',
  })
  startsAt?: Date | null;
  // GraphQL field: MatchFieldsResolver. Over REST, on reading a match.
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The match this one is a rematch of (POST /v1/matches/{id}/rematch); null otherwise.',
  })
  rematchOf?: string | null;
}

@ObjectType('MatchEvent', { description: 'One event of a match log: public by construction (no hidden card; the seed only in MatchEnded).' })
export class MatchEventModel {
  @Field(() => ID) @ApiProperty() matchId!: string;
  @Field(() => Int) @ApiProperty() seq!: number;
  @Field() @ApiProperty() type!: string;
  @Field(() => JSONScalar) @ApiProperty({ type: 'object', additionalProperties: true }) payload!: Record<string, unknown>;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) actor!: string | null;
  @Field() @ApiProperty() time!: Date;
  @Field({ description: 'Hash chaining this event to the previous one.' }) @ApiProperty() hash!: string;
}

@ObjectType('LiveEvent', { description: 'A live event with the match as the subscriber may see it right after it.' })
export class LiveEventModel {
  @Field(() => MatchEventModel) event!: MatchEventModel;
  @Field(() => MatchModel) match!: MatchModel;
}

@ObjectType('Play')
export class PlayModel {
  @Field() @ApiProperty() card!: string;
  @Field(() => [String]) @ApiProperty({ type: [String] }) capture!: string[];
  @Field() @ApiProperty() scopa!: boolean;
}

@ObjectType('LegalPlays')
export class LegalPlaysModel {
  @Field(() => Int) @ApiProperty() seq!: number;
  @Field(() => [PlayModel]) @ApiProperty({ type: [PlayModel] }) plays!: PlayModel[];
  @Field(() => [DeclarationModel]) @ApiProperty({ type: [DeclarationModel] }) declarations!: DeclarationModel[];
}

@ObjectType('SeatSummary')
export class SeatSummaryModel {
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) player!: string | null;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) reservedFor!: string | null;
  @Field(() => BotLevelEnum, { nullable: true }) @ApiProperty({ type: String, nullable: true, enum: BotLevelEnum }) bot!: string | null;
}

@ObjectType('MatchSummary', { description: 'A match in a list: no view, no seed before the end.' })
export class MatchSummaryModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field() @ApiProperty() preset!: string;
  @Field(() => RulesetOptionsModel) @ApiProperty({ type: RulesetOptionsModel }) options!: RulesetOptionsModel;
  @Field(() => MatchStatusEnum) @ApiProperty({ enum: MatchStatusEnum }) status!: string;
  @Field(() => Int) @ApiProperty() currentSeq!: number;
  @Field(() => [SeatSummaryModel]) @ApiProperty({ type: [SeatSummaryModel] }) seats!: SeatSummaryModel[];
  @Field() @ApiProperty() createdBy!: string;
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) turnSeat!: number | null;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) turnPlayer!: string | null;
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) winner!: number | null;
  @Field() @ApiProperty() seedCommitment!: string;
  @Field(() => String, { nullable: true, description: 'The seed, once the match is over.' }) @ApiProperty({ type: String, nullable: true }) revealedSeed!:
    string | null;
  @Field() @ApiProperty() createdAt!: Date;
  @Field() @ApiProperty() updatedAt!: Date;
}

@ObjectType('Audit', { description: 'The audit verdict: the hash chain, and once over every command re-decided from the revealed seed.' })
export class AuditModel {
  @Field(() => ID) @ApiProperty() matchId!: string;
  @Field() @ApiProperty() sound!: boolean;
  @Field({ description: 'chain | chain+rules' }) @ApiProperty() checked!: string;
  @Field(() => Int, { nullable: true }) @ApiPropertyOptional() events?: number;
  @Field(() => String, { nullable: true }) @ApiPropertyOptional() lastHash?: string;
  @Field(() => Int, { nullable: true, description: 'Where an unsound log goes wrong.' }) @ApiPropertyOptional() seq?: number;
  @Field(() => String, { nullable: true }) @ApiPropertyOptional() reason?: string;
}

/** Why a turn notice was sent; the values are the wire values of the GraphQL subscription and the NDJSON event stream. */
export enum TurnNoticeKindEnum {
  yourTurn = 'yourTurn',
  clockLow = 'clockLow',
}
registerEnumType(TurnNoticeKindEnum, {
  name: 'TurnNoticeKind',
  description: "yourTurn: the turn came to me; clockLow: less than CLOCK_LOW_FRACTION of this turn's time is left (once per turn).",
});

@ObjectType('TurnNotice')
export class TurnNoticeModel {
  @Field(() => ID) matchId!: string;
  @Field(() => Int) seq!: number;
  @Field(() => Int) seat!: number;
  @Field(() => Date, { nullable: true, description: 'When this turn clock runs out; null for an untimed match.' }) deadline!: Date | null;
  // Resolved by TurnNoticeResolver: yourTurn when absent.
  kind?: 'yourTurn' | 'clockLow';
}
