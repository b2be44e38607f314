import { Field, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JSONScalar } from '../common/json.scalar';

export enum CaptureRuleEnum {
  match = 'match',
  fifteen = 'fifteen',
  matchOrFifteen = 'matchOrFifteen',
}
registerEnumType(CaptureRuleEnum, {
  name: 'CaptureRule',
  description:
    'The capture option of the rules contract: match (a card of the same rank, else cards summing to its rank), fifteen (cards summing to 15 with the card played) or matchOrFifteen (cirulla: an equal card, cards summing to its value or cards making 15 with it, as the player chooses).',
});

export enum InitialTableCaptureRuleEnum {
  sum15or30 = 'sum15or30',
  groups15 = 'groups15',
}
registerEnumType(InitialTableCaptureRuleEnum, {
  name: 'InitialTableCaptureRule',
  description:
    "The initialTableCapture option of the rules contract: the dealer's side takes a first table summing to 15 or 30 (sum15or30, cirulla) or splitting into groups of 15 (groups15, escoba); null in the option turns it off.",
});

export enum PointRuleEnum {
  most = 'most',
  majority = 'majority',
}
registerEnumType(PointRuleEnum, {
  name: 'PointRule',
  description:
    'How the cards and denari points are won (rules contract): most (strictly more than every other side) or majority (strictly more than half of that kind); null in the option turns the point off.',
});

export enum PrimieraRuleEnum {
  missingSuitZero = 'missingSuitZero',
  allSuitsRequired = 'allSuitsRequired',
}
registerEnumType(PrimieraRuleEnum, {
  name: 'PrimieraRule',
  description:
    "The primiera option of the rules contract: a suit with no card counts 0 (missingSuitZero), or voids the side's primiera (allSuitsRequired); null in the option turns the point off.",
});

/** The engine's RulesetOptions, field for field (names are public API). */
@ObjectType('RulesetOptions', { description: 'Fully resolved ruleset options, as the rules contract names them.' })
export class RulesetOptionsModel {
  @Field(() => Int) @ApiProperty({ enum: [2, 3, 4, 6] }) players!: number;
  @Field() @ApiProperty() teams!: boolean;
  @Field(() => Int) @ApiProperty() handSize!: number;
  @Field(() => Int) @ApiProperty() tableSize!: number;
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true, enum: [2, 3, 4] }) redealKings!: number | null;
  @Field(() => CaptureRuleEnum) @ApiProperty({ enum: CaptureRuleEnum }) capture!: string;
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) maxCaptureCards!: number | null;
  @Field() @ApiProperty() fewestCards!: boolean;
  @Field() @ApiProperty() aceSweeps!: boolean;
  @Field() @ApiProperty() aceSweepIsScopa!: boolean;
  @Field(() => PointRuleEnum, { nullable: true }) @ApiProperty({ type: String, nullable: true, enum: PointRuleEnum }) cardsPoint!: string | null;
  @Field(() => PointRuleEnum, { nullable: true }) @ApiProperty({ type: String, nullable: true, enum: PointRuleEnum }) denariPoint!: string | null;
  @Field() @ApiProperty() settebello!: boolean;
  @Field() @ApiProperty() reBello!: boolean;
  @Field(() => PrimieraRuleEnum, { nullable: true })
  @ApiProperty({ type: String, nullable: true, enum: PrimieraRuleEnum })
  primiera!: string | null;
  @Field() @ApiProperty() sevens!: boolean;
  @Field() @ApiProperty() denariBonus123!: boolean;
  @Field() @ApiProperty() allDenariWins!: boolean;
  @Field(() => Int) @ApiProperty() target!: number;
  @Field() @ApiProperty() optionalCapture!: boolean;
  @Field() @ApiProperty() aceSweepBlockedByAce!: boolean;
  @Field() @ApiProperty() piccola!: boolean;
  @Field() @ApiProperty() grande!: boolean;
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true, enum: [2, 3, 4] }) redealAces!: number | null;
  @Field(() => InitialTableCaptureRuleEnum, { nullable: true })
  @ApiProperty({ type: String, nullable: true, enum: InitialTableCaptureRuleEnum })
  initialTableCapture!: string | null;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) matta!: string | null;
  @Field(() => Int) @ApiProperty() lowHandBonus!: number;
  @Field(() => Int) @ApiProperty() tripleBonus!: number;
}

/** A hand declaration open to a seat (the conformance `handBonus` shape): legalPlays lists them, hint may answer one. */
@ObjectType('Declaration')
export class DeclarationModel {
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) mattaValue!: number | null;
  @Field(() => Int) @ApiProperty() points!: number;
}

@ObjectType('Preset', { description: 'A preset of the rules contract with its resolved default options.' })
export class PresetModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field({ description: "The game's name for people, in English (clients translate it)." })
  @ApiProperty({ description: "The game's name for people, in English (clients translate it).", example: 'Scopa' })
  name!: string;
  @Field({ description: 'Two lines separated by a newline, in English: what the game is, then what sets it apart (how it scores).' })
  @ApiProperty({ description: 'Two lines separated by a newline, in English: what the game is, then what sets it apart (how it scores).' })
  summary!: string;
  @Field(() => [String], { description: 'Seed documents (shared/seeds/NNN_*.txt) the preset comes from.' })
  @ApiProperty({ type: [String], description: 'Seed documents the preset comes from.' })
  sources!: string[];
  @Field(() => [Int], { description: 'Allowed player counts; the first is the default.' })
  @ApiProperty({ type: [Number] })
  players!: number[];
  @Field(() => RulesetOptionsModel) @ApiProperty({ type: RulesetOptionsModel }) options!: RulesetOptionsModel;
}

@ObjectType('CustomRuleset', {
  description: 'A named custom ruleset: a preset plus overrides. Immutable once a match uses it (saving again makes a new version).',
})
export class CustomRulesetModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field() @ApiProperty() name!: string;
  @Field(() => Int) @ApiProperty() version!: number;
  @Field({ description: 'Username of the owner.' }) @ApiProperty() owner!: string;
  @Field() @ApiProperty() preset!: string;
  @Field(() => JSONScalar) @ApiProperty({ type: 'object', additionalProperties: true }) overrides!: Record<string, unknown>;
  @Field(() => RulesetOptionsModel) @ApiProperty({ type: RulesetOptionsModel }) options!: RulesetOptionsModel;
  @Field({ description: 'True once a match uses it.' }) @ApiProperty() locked!: boolean;
  @Field() @ApiProperty() createdAt!: Date;
  @Field(() => Date, { nullable: true }) @ApiPropertyOptional({ type: Date, nullable: true }) lockedAt!: Date | null;
}
