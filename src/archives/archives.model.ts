import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { MatchEndReasonEnum } from '../ratings/ratings.model';

@ObjectType('ArchivedPlayer')
export class ArchivedPlayerModel {
  @Field(() => Int) @ApiProperty() seat!: number;
  @Field(() => Int, { description: 'The side (team) of the seat.' }) @ApiProperty() side!: number;
  @Field(() => String, { nullable: true, description: 'A username, or bot:<level> for a bot seat (for an imported match: a name on the service it came from).' })
  @ApiProperty({ type: String, nullable: true })
  player!: string | null;
}

@ObjectType('ArchivedResult')
export class ArchivedResultModel {
  @Field(() => Int, { nullable: true, description: 'The winning side; null for a draw.' }) @ApiProperty({ type: Number, nullable: true }) winner!: number | null;
  @Field(() => MatchEndReasonEnum) @ApiProperty({ enum: MatchEndReasonEnum }) reason!: string;
  @Field(() => [Int], { description: 'Points per side.' }) @ApiProperty({ type: [Number] }) totals!: number[];
}

@ObjectType('ArchivedMatch', { description: 'A finished match in a user archive.' })
export class ArchivedMatchModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field() @ApiProperty() preset!: string;
  @Field(() => ID, { nullable: true, description: 'The saved ruleset it was created from, if any.' }) @ApiProperty({ type: String, nullable: true }) rulesetId!: string | null;
  @Field() @ApiProperty() rated!: boolean;
  @Field({ description: 'Imported from an export (read-only, never rated).' }) @ApiProperty() imported!: boolean;
  @Field(() => String, { nullable: true, description: 'For an imported match: the id of the match it was exported from.' })
  @ApiProperty({ type: String, nullable: true })
  sourceId!: string | null;
  @Field(() => [ArchivedPlayerModel]) @ApiProperty({ type: [ArchivedPlayerModel] }) players!: ArchivedPlayerModel[];
  @Field(() => ArchivedResultModel, { nullable: true }) @ApiProperty({ type: ArchivedResultModel, nullable: true }) result!: ArchivedResultModel | null;
  @Field() @ApiProperty() createdAt!: Date;
  @Field() @ApiProperty() endedAt!: Date;
}

@ObjectType('UserMatchesPage')
export class UserMatchesPageModel {
  @Field(() => [ArchivedMatchModel], { description: 'Newest first (by end time, then id).' }) @ApiProperty({ type: [ArchivedMatchModel] }) matches!: ArchivedMatchModel[];
  @Field(() => String, { nullable: true, description: 'The cursor of the next page (`after`); null at the end.' })
  @ApiProperty({ type: String, nullable: true })
  next!: string | null;
}

export class ImportResultModel {
  @ApiProperty({ description: 'The id of the imported match here.' }) id!: string;
  @ApiProperty({ description: 'The id of the match it was exported from.' }) sourceId!: string;
  @ApiProperty({ description: 'False when this log was imported before (the first import is returned).' }) created!: boolean;
}
