/** The post-game analysis as REST and GraphQL show it (one set of classes for both). */
import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';

export enum AnalysisStatusEnum {
  queued = 'queued',
  running = 'running',
  done = 'done',
  failed = 'failed',
}
registerEnumType(AnalysisStatusEnum, {
  name: 'AnalysisStatus',
  description:
    'queued: waiting for a worker; running: a worker is on it (done of total decisions); done: the result is there; failed: every retry failed (ask again to queue it anew).',
});

export enum DecisionClassEnum {
  best = 'best',
  good = 'good',
  inaccuracy = 'inaccuracy',
  mistake = 'mistake',
  blunder = 'blunder',
}
registerEnumType(DecisionClassEnum, {
  name: 'DecisionClass',
  description: 'By the loss in round points (docs/analysis.md): best up to 0.05, good below 0.25, inaccuracy below 0.5, mistake below 1, blunder from 1.',
});

export enum AnalysisOptionTypeEnum {
  play = 'play',
  declare = 'declare',
  noDeclaration = 'noDeclaration',
}
registerEnumType(AnalysisOptionTypeEnum, {
  name: 'AnalysisOptionType',
  description: 'play: a card (and what it captures); declare: a hand declaration (cirulla); noDeclaration: playing without declaring.',
});

export enum DecisionKindEnum {
  play = 'play',
  declaration = 'declaration',
}
registerEnumType(DecisionKindEnum, {
  name: 'DecisionKind',
  description: 'play: which card to play; declaration: whether (and how) to declare the hand (cirulla).',
});

export enum AnalysisMethodEnum {
  exact = 'exact',
  search = 'search',
}
registerEnumType(AnalysisMethodEnum, {
  name: 'AnalysisMethod',
  description: 'exact: every line searched, nothing hidden (two players, last deal); search: determinized search from the seat’s view.',
});

@ObjectType('AnalysisBudget', { description: 'The search budget of an analyzer.' })
export class AnalysisBudgetModel {
  @Field(() => Int, { description: 'Search iterations given to each option of a decision.' }) @ApiProperty() iterationsPerOption!: number;
  @Field(() => Float, { description: 'UCB exploration constant (round points).' }) @ApiProperty() exploration!: number;
}

@ObjectType('Analyzer', { description: 'What computed an analysis.' })
export class AnalyzerModel {
  @Field({ description: 'e.g. ismcts' }) @ApiProperty({ example: 'ismcts' }) name!: string;
  @Field(() => Int) @ApiProperty({ example: 1 }) version!: number;
  @Field({ description: 'name/version, e.g. ismcts/1' }) @ApiProperty({ example: 'ismcts/1' }) id!: string;
  @Field(() => AnalysisBudgetModel) @ApiProperty({ type: AnalysisBudgetModel }) budget!: AnalysisBudgetModel;
  @Field({ description: 'One analysis per match and key: the id, plus the budget when it is not the default.' })
  @ApiProperty({ example: 'ismcts/1' })
  key!: string;
}

@ObjectType('AnalysisOption', { description: 'One option of a decision: a play (card, capture, scopa), a declaration (mattaValue, points) or noDeclaration.' })
export class AnalysisOptionModel {
  @Field(() => AnalysisOptionTypeEnum) @ApiProperty({ enum: AnalysisOptionTypeEnum }) type!: string;
  @Field(() => String, { nullable: true, description: 'play: the card.' }) @ApiProperty({ type: String, required: false, example: '7D' }) card?: string;
  @Field(() => [String], { nullable: true, description: 'play: the table cards it captures.' })
  @ApiProperty({ type: [String], required: false })
  capture?: string[];
  @Field(() => Boolean, { nullable: true, description: 'play: it sweeps the table.' }) @ApiProperty({ type: Boolean, required: false }) scopa?: boolean;
  @Field(() => Int, { nullable: true, description: 'declare: the value named for the matta (null: the hand holds none).' })
  @ApiProperty({ type: Number, required: false, nullable: true })
  mattaValue?: number | null;
  @Field(() => Int, { nullable: true, description: 'declare: the scope it scores.' }) @ApiProperty({ type: Number, required: false }) points?: number;
}

@ObjectType('OptionValue')
export class OptionValueModel {
  @Field(() => AnalysisOptionModel) @ApiProperty({ type: AnalysisOptionModel }) option!: AnalysisOptionModel;
  @Field(() => Float, { description: "Expected round point difference for the seat's side at the round's end (its round points minus the best other side's)." })
  @ApiProperty({ description: "Expected round point difference for the seat's side at the round's end (its round points minus the best other side's)." })
  value!: number;
}

@ObjectType('DecisionAnalysis', { description: 'One decision of one seat: every legal option valued from that seat’s view.' })
export class DecisionAnalysisModel {
  @Field(() => Int, { description: 'The seq of the event that made it (CardPlayed, HandDeclared; an unused declaration window: the play that closed it).' })
  @ApiProperty()
  seq!: number;
  @Field(() => Int) @ApiProperty() round!: number;
  @Field(() => Int) @ApiProperty() seat!: number;
  @Field(() => Int) @ApiProperty() side!: number;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) player!: string | null;
  @Field(() => DecisionKindEnum) @ApiProperty({ enum: DecisionKindEnum }) kind!: string;
  @Field(() => AnalysisMethodEnum) @ApiProperty({ enum: AnalysisMethodEnum }) method!: string;
  @Field({ description: 'Only one legal option: left out of the seat’s loss and accuracy.' }) @ApiProperty() forced!: boolean;
  @Field({ description: 'The server played it when the turn clock ran out.' }) @ApiProperty() auto!: boolean;
  @Field(() => [OptionValueModel], { description: 'Every legal option, best first.' }) @ApiProperty({ type: [OptionValueModel] }) options!: OptionValueModel[];
  @Field(() => Int, { description: 'Index in options of the one played.' }) @ApiProperty() played!: number;
  @Field(() => Int, { description: 'Index in options of the best one (0).' }) @ApiProperty() best!: number;
  @Field(() => Float) @ApiProperty() playedValue!: number;
  @Field(() => Float) @ApiProperty() bestValue!: number;
  @Field(() => Float, { description: 'bestValue − playedValue.' }) @ApiProperty() loss!: number;
  @Field(() => DecisionClassEnum) @ApiProperty({ enum: DecisionClassEnum }) class!: string;
}

@ObjectType('DecisionClassCounts')
export class DecisionClassCountsModel {
  @Field(() => Int) @ApiProperty() best!: number;
  @Field(() => Int) @ApiProperty() good!: number;
  @Field(() => Int) @ApiProperty() inaccuracy!: number;
  @Field(() => Int) @ApiProperty() mistake!: number;
  @Field(() => Int) @ApiProperty() blunder!: number;
}

@ObjectType('CostlyDecision')
export class CostlyDecisionModel {
  @Field(() => Int) @ApiProperty() seq!: number;
  @Field(() => DecisionKindEnum) @ApiProperty({ enum: DecisionKindEnum }) kind!: string;
  @Field(() => Float) @ApiProperty() loss!: number;
  @Field(() => DecisionClassEnum) @ApiProperty({ enum: DecisionClassEnum }) class!: string;
}

@ObjectType('SeatAnalysis', { description: 'One seat’s summary over its decisions that had a choice.' })
export class SeatAnalysisModel {
  @Field(() => Int) @ApiProperty() seat!: number;
  @Field(() => Int) @ApiProperty() side!: number;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) player!: string | null;
  @Field(() => Int, { description: 'Decisions with a choice.' }) @ApiProperty() decisions!: number;
  @Field(() => Float, { description: 'Sum of their losses, round points.' }) @ApiProperty() totalLoss!: number;
  @Field(() => Float, { description: '0 to 100: the mean of 100 × 2^(−loss) over its decisions with a choice.' }) @ApiProperty() accuracy!: number;
  @Field(() => DecisionClassCountsModel) @ApiProperty({ type: DecisionClassCountsModel }) classes!: DecisionClassCountsModel;
  @Field(() => [CostlyDecisionModel], { description: 'The three costliest decisions (loss above 0), largest first.' })
  @ApiProperty({ type: [CostlyDecisionModel] })
  costliest!: CostlyDecisionModel[];
}

@ObjectType('MatchAnalysisResult', { description: 'The analysis of a finished match.' })
export class MatchAnalysisResultModel {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) matchId!: string;
  @Field(() => AnalyzerModel) @ApiProperty({ type: AnalyzerModel }) analyzer!: AnalyzerModel;
  @Field(() => [DecisionAnalysisModel], { description: 'Every decision, in log order.' })
  @ApiProperty({ type: [DecisionAnalysisModel] })
  decisions!: DecisionAnalysisModel[];
  @Field(() => [SeatAnalysisModel], { description: 'One per seat.' }) @ApiProperty({ type: [SeatAnalysisModel] }) players!: SeatAnalysisModel[];
}

@ObjectType('Analysis', { description: 'A post-game analysis: its job’s status and, once done, its result.' })
export class AnalysisModel {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) matchId!: string;
  @Field({ description: 'The analyzer key (e.g. ismcts/1).' }) @ApiProperty({ example: 'ismcts/1' }) analyzer!: string;
  @Field(() => AnalysisStatusEnum) @ApiProperty({ enum: AnalysisStatusEnum }) status!: string;
  @Field(() => Int, { description: 'Decisions evaluated so far.' }) @ApiProperty() done!: number;
  @Field(() => Int, { description: 'Decisions to evaluate (0 until a worker has read the log).' }) @ApiProperty() total!: number;
  @Field(() => Float, { description: 'done / total, 0 to 1 (1 once done).' }) @ApiProperty() share!: number;
  @Field(() => Int, { description: 'Runs started (a retried job starts another).' }) @ApiProperty() attempts!: number;
  @Field(() => String, { nullable: true, description: 'failed: why the last run failed.' }) @ApiProperty({ type: String, nullable: true }) error!:
    string | null;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) requestedAt!: Date;
  @Field(() => Date, { nullable: true }) @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt!: Date | null;
  @Field(() => MatchAnalysisResultModel, { nullable: true, description: 'Once done.' })
  @ApiProperty({ type: MatchAnalysisResultModel, nullable: true })
  result!: MatchAnalysisResultModel | null;
}

@ObjectType('AnalysisProgress', { description: 'Where an analysis stands, as its job runs (queued, running with the share done, done, failed).' })
export class AnalysisProgressModel {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) matchId!: string;
  @Field() @ApiProperty() analyzer!: string;
  @Field(() => AnalysisStatusEnum) @ApiProperty({ enum: AnalysisStatusEnum }) status!: string;
  @Field(() => Int) @ApiProperty() done!: number;
  @Field(() => Int) @ApiProperty() total!: number;
  @Field(() => Float) @ApiProperty() share!: number;
}
