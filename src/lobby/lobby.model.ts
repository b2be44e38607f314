import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { PRESET_IDS } from '../engine';
import { queryBoolean } from '../common/query-boolean';
import { JSONScalar } from '../common/json.scalar';
import { OnExpiryEnum, OnExpiryField, OverridesField, PresetField, RatedField, RulesetIdField, TurnTimeLimitField } from '../common/match-fields';
import { BotLevelEnum } from '../bots/bot-level';

export enum ClockKindEnum {
  untimed = 'untimed',
  live = 'live',
  correspondence = 'correspondence',
}
registerEnumType(ClockKindEnum, {
  name: 'ClockKind',
  description: 'untimed: no turn clock; live: a turn time limit under a day; correspondence: a day or more.',
});

export enum LobbySeatStateEnum {
  taken = 'taken',
  open = 'open',
  reserved = 'reserved',
  bot = 'bot',
}
registerEnumType(LobbySeatStateEnum, {
  name: 'LobbySeatState',
  description: 'taken: a person sits here; open: anyone may join; reserved: kept for one account; bot: a built-in bot.',
});

export enum LobbyChangeTypeEnum {
  added = 'added',
  updated = 'updated',
  removed = 'removed',
}
registerEnumType(LobbyChangeTypeEnum, {
  name: 'LobbyChangeType',
  description: 'added: newly listed; updated: a seat taken, seats still open; removed: no longer listed (full, started, ended).',
});

export enum SeekStatusEnum {
  open = 'open',
  paired = 'paired',
  canceled = 'canceled',
  expired = 'expired',
}
registerEnumType(SeekStatusEnum, {
  name: 'SeekStatus',
  description:
    'open: waiting; paired: its match is matchId; canceled by its owner; expired: a live seek whose owner had no open connection for SEEK_IDLE_EXPIRY.',
});

@ObjectType('LobbySeat')
export class LobbySeatModel {
  @Field(() => Int) @ApiProperty() seat!: number;
  @Field(() => LobbySeatStateEnum) @ApiProperty({ enum: LobbySeatStateEnum }) state!: string;
  @Field(() => String, { nullable: true, description: 'Who sits here (taken), or the bot id.' }) @ApiProperty({ type: String, nullable: true }) player!:
    string | null;
  @Field(() => String, { nullable: true, description: 'For reserved: the account it is kept for.' })
  @ApiProperty({ type: String, nullable: true })
  reservedFor!: string | null;
  @Field(() => BotLevelEnum, { nullable: true, description: 'For bot: its level.' }) @ApiProperty({ type: String, nullable: true, enum: BotLevelEnum }) bot!:
    string | null;
}

@ObjectType('LobbyMatch', { description: 'A public match with a seat I may take.' })
export class LobbyMatchModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field() @ApiProperty() preset!: string;
  @Field(() => ID, { nullable: true, description: 'The saved ruleset it plays, if any.' }) @ApiProperty({ type: String, nullable: true }) rulesetId!:
    string | null;
  @Field(() => JSONScalar, { description: 'The resolved options the match plays under.' })
  @ApiProperty({ type: 'object', additionalProperties: true })
  options!: Record<string, unknown>;
  @Field(() => Int, { description: 'Seats (options.players).' }) @ApiProperty() players!: number;
  @Field({ description: 'Two teams of two (options.teams).' }) @ApiProperty() teams!: boolean;
  @Field(() => Int, { nullable: true, description: 'Points to win (options.target).' }) @ApiProperty({ type: Number, nullable: true }) target!: number | null;
  @Field(() => [LobbySeatModel]) @ApiProperty({ type: [LobbySeatModel] }) seats!: LobbySeatModel[];
  @Field(() => String, { nullable: true, description: 'ISO 8601 duration per turn; null: untimed.' })
  @ApiProperty({ type: String, nullable: true })
  turnTimeLimit!: string | null;
  @Field(() => OnExpiryEnum, { description: 'What the turn clock running out does.' }) @ApiProperty({ enum: OnExpiryEnum }) onExpiry!: string;
  @Field() @ApiProperty() rated!: boolean;
  @Field() @ApiProperty() createdBy!: string;
  @Field() @ApiProperty() createdAt!: Date;
}

@ObjectType('LobbyPage')
export class LobbyPageModel {
  @Field(() => [LobbyMatchModel], { description: 'Newest first.' }) @ApiProperty({ type: [LobbyMatchModel] }) matches!: LobbyMatchModel[];
  @Field(() => String, { nullable: true, description: 'The cursor of the next page (`after`); null at the end.' })
  @ApiProperty({ type: String, nullable: true })
  next!: string | null;
}

@ObjectType('LobbyChange', { description: 'A change of the lobby as I may see it.' })
export class LobbyChangeModel {
  @Field(() => LobbyChangeTypeEnum) type!: string;
  @Field(() => ID) matchId!: string;
  @Field(() => LobbyMatchModel, { nullable: true, description: 'The entry (added, updated); null for removed.' }) match!: LobbyMatchModel | null;
}

/** The lobby's filters, shared by REST (query string) and GraphQL: validated once, here. */
@ArgsType()
export class LobbyFilterArgs {
  @Field({ nullable: true, description: `A preset id: one of ${PRESET_IDS.join(', ')} (another is VALIDATION_FAILED).` })
  @ApiPropertyOptional({ enum: PRESET_IDS, example: 'scopa' })
  @IsOptional()
  @IsString()
  @IsIn(PRESET_IDS as unknown as string[], { message: `preset must be one of ${PRESET_IDS.join(', ')}` })
  preset?: string;

  @Field(() => Boolean, { nullable: true })
  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  rated?: boolean;

  @Field(() => ClockKindEnum, { nullable: true })
  @ApiPropertyOptional({ enum: ClockKindEnum })
  @IsOptional()
  @IsIn(Object.values(ClockKindEnum))
  clock?: ClockKindEnum;
}

@ArgsType()
export class LobbyQuery extends LobbyFilterArgs {
  @Field(() => Int, { nullable: true, description: '1..100, default 20.' })
  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @Field({ nullable: true, description: 'The `next` cursor of the previous page.' })
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  after?: string;
}

@ObjectType('Seek')
export class SeekModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field() @ApiProperty() preset!: string;
  @Field(() => ID, { nullable: true }) @ApiProperty({ type: String, nullable: true }) rulesetId!: string | null;
  @Field(() => JSONScalar) @ApiProperty({ type: 'object', additionalProperties: true }) overrides!: Record<string, unknown>;
  @Field(() => JSONScalar, { description: 'The resolved options of the match it asks for.' })
  @ApiProperty({ type: 'object', additionalProperties: true })
  options!: Record<string, unknown>;
  @Field(() => Int, { description: 'Seats of the match: as many seeks are paired together.' }) @ApiProperty() players!: number;
  @Field() @ApiProperty() teams!: boolean;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) turnTimeLimit!: string | null;
  @Field(() => OnExpiryEnum, { description: 'What the turn clock running out does in the match.' }) @ApiProperty({ enum: OnExpiryEnum }) onExpiry!: string;
  @Field() @ApiProperty() rated!: boolean;
  @Field(() => String, { nullable: true, description: '"min-max": the ratings it accepts (rated seeks).' })
  @ApiProperty({ type: String, nullable: true })
  ratingRange!: string | null;
  @Field(() => Int, { description: "The owner's rating in the pool when the seek was made (1500 without one)." }) @ApiProperty() rating!: number;
  @Field({ description: 'A turn time limit of a day or more: waits until taken or cancelled; a live seek expires when its owner is gone.' })
  @ApiProperty()
  correspondence!: boolean;
  @Field(() => SeekStatusEnum) @ApiProperty({ enum: SeekStatusEnum }) status!: string;
  @Field(() => ID, { nullable: true, description: 'Once paired: the match.' }) @ApiProperty({ type: String, nullable: true }) matchId!: string | null;
  @Field(() => Int, { nullable: true, description: 'Once paired: my seat in it.' }) @ApiProperty({ type: Number, nullable: true }) seat!: number | null;
  @Field() @ApiProperty() createdAt!: Date;
  @Field(() => Date, { nullable: true }) @ApiProperty({ type: Date, nullable: true }) endedAt!: Date | null;
}

@InputType()
export class CreateSeekInput {
  @PresetField('A preset id; or give rulesetId.')
  preset?: string;

  @RulesetIdField('A saved ruleset version (locked by the seek: it is what the match will play).')
  rulesetId?: string;

  @OverridesField('Option overrides of the preset (not with rulesetId, nor rated).')
  overrides?: Record<string, unknown>;

  @Field(() => Int, { nullable: true, description: "Seats (2, 3, 4 or 6 as the preset allows); default the preset's." })
  @ApiPropertyOptional()
  @IsOptional()
  @IsInt()
  @Min(2)
  @Max(6)
  players?: number;

  @Field(() => Boolean, { nullable: true, description: 'Two teams of two (4 players).' })
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  teams?: boolean;

  @TurnTimeLimitField('ISO 8601 duration per turn; a day or more makes a correspondence seek. Null or absent: untimed.', 'P1D')
  turnTimeLimit?: string | null;

  @OnExpiryField()
  onExpiry?: `${OnExpiryEnum}`;

  @RatedField('A rated match (default false).')
  rated?: boolean;

  @Field({ nullable: true, description: 'Rated seeks: the opponents\' ratings accepted, "min-max" (e.g. "1400-1700").' })
  @ApiPropertyOptional({ example: '1400-1700' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{1,4}-\d{1,4}$/, { message: '"min-max" (e.g. "1400-1700")' })
  ratingRange?: string;
}
