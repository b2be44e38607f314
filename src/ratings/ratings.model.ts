import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { GameResultEnum } from '../common/match-fields';

@ObjectType('PoolRating', { description: 'A Glicko-2 rating in one pool (a preset id or a saved ruleset id). RD as of the last rated match.' })
export class PoolRatingModel {
  @Field({ description: 'The pool: a preset id, or the id of a saved ruleset.' }) @ApiProperty() ruleset!: string;
  @Field(() => Float) @ApiProperty() rating!: number;
  @Field(() => Float, { description: 'Rating deviation.' }) @ApiProperty() rd!: number;
  @Field(() => Float) @ApiProperty() volatility!: number;
  @Field(() => Int, { description: 'Rated matches.' }) @ApiProperty() games!: number;
  @Field({ description: 'RD above 110: not on leaderboards.' }) @ApiProperty() provisional!: boolean;
  @Field(() => Int) @ApiProperty() wins!: number;
  @Field(() => Int) @ApiProperty() losses!: number;
  @Field(() => Int) @ApiProperty() draws!: number;
  @Field() @ApiProperty() lastRatedAt!: Date;
}

@ObjectType('UserProfile', { description: 'A player: an account, or a bot level rated as bot:<level>.' })
export class UserProfileModel {
  @Field() @ApiProperty() username!: string;
  @Field({ description: 'A bot level (bot:random, bot:greedy, bot:ismcts).' }) @ApiProperty() bot!: boolean;
  @Field(() => Date, { nullable: true, description: 'When the account was made; null for a bot level.' })
  @ApiProperty({ type: Date, nullable: true })
  memberSince!: Date | null;
  @Field(() => Int, { description: 'Rated matches won, in every pool.' }) @ApiProperty() wins!: number;
  @Field(() => Int) @ApiProperty() losses!: number;
  @Field(() => Int) @ApiProperty() draws!: number;
  @Field(() => [PoolRatingModel]) @ApiProperty({ type: [PoolRatingModel] }) ratings!: PoolRatingModel[];
  @Field(() => Date, {
    nullable: true,
    description:
      'When the player\'s vacation ends: their correspondence turn clocks stand still until then (docs/async-play.md "Vacations"); null when not on vacation, and for a bot level.',
  })
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "When the player's vacation ends; null when not on vacation, and for a bot level.",
  })
  onVacationUntil!: Date | null;
}

@ObjectType('RatingPoint', { description: 'The rating after one rated match.' })
export class RatingPointModel {
  @Field(() => ID) @ApiProperty() matchId!: string;
  @Field({ description: 'When the match ended.' }) @ApiProperty() time!: Date;
  @Field(() => Float) @ApiProperty() ratingBefore!: number;
  @Field(() => Float) @ApiProperty() rating!: number;
  @Field(() => Float) @ApiProperty() rd!: number;
  @Field(() => Float) @ApiProperty() volatility!: number;
  @Field(() => GameResultEnum) @ApiProperty({ enum: GameResultEnum }) result!: string;
}

@ObjectType('LeaderboardEntry')
export class LeaderboardEntryModel {
  @Field(() => Int) @ApiProperty() rank!: number;
  @Field() @ApiProperty() username!: string;
  @Field(() => Float) @ApiProperty() rating!: number;
  @Field(() => Float) @ApiProperty() rd!: number;
  @Field(() => Int) @ApiProperty() games!: number;
}

@ObjectType('CrosstablePool', { description: "The first player's record against the second in one pool." })
export class CrosstablePoolModel {
  @Field() @ApiProperty() ruleset!: string;
  @Field(() => Int) @ApiProperty() wins!: number;
  @Field(() => Int) @ApiProperty() losses!: number;
  @Field(() => Int) @ApiProperty() draws!: number;
}

@ObjectType('CrosstableMatch')
export class CrosstableMatchModel {
  @Field(() => ID) @ApiProperty() matchId!: string;
  @Field() @ApiProperty() ruleset!: string;
  @Field() @ApiProperty() endedAt!: Date;
  @Field(() => GameResultEnum, { description: 'For the first player.' })
  @ApiProperty({ enum: GameResultEnum, description: 'For the first player.' })
  result!: string;
  @Field(() => Float) @ApiProperty() ratingBefore!: number;
  @Field(() => Float) @ApiProperty() ratingAfter!: number;
}

@ObjectType('Crosstable', { description: "Head to head in rated matches, from the first player's side." })
export class CrosstableModel {
  @Field() @ApiProperty() a!: string;
  @Field() @ApiProperty() b!: string;
  @Field(() => Int) @ApiProperty() wins!: number;
  @Field(() => Int) @ApiProperty() losses!: number;
  @Field(() => Int) @ApiProperty() draws!: number;
  @Field(() => [CrosstablePoolModel]) @ApiProperty({ type: [CrosstablePoolModel] }) pools!: CrosstablePoolModel[];
  @Field(() => [CrosstableMatchModel], { description: 'The last rated matches between them, newest first (at most 10).' })
  @ApiProperty({ type: [CrosstableMatchModel] })
  lastMatches!: CrosstableMatchModel[];
}
