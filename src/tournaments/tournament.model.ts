import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { JSONScalar } from '../common/json.scalar';
import { MatchChatEnum, OnExpiryEnum } from '../common/match-fields';

export enum TournamentFormatEnum {
  swiss = 'swiss',
  roundRobin = 'roundRobin',
}
registerEnumType(TournamentFormatEnum, {
  name: 'TournamentFormat',
  description: 'swiss: fixed rounds paired by score; roundRobin: everyone meets everyone once.',
});

export enum TournamentStatusEnum {
  created = 'created',
  started = 'started',
  finished = 'finished',
  cancelled = 'cancelled',
}
registerEnumType(TournamentStatusEnum, {
  name: 'TournamentStatus',
  description: 'created: players join; started: rounds are played; finished: over; cancelled: called off before the start.',
});

export enum TournamentVisibilityEnum {
  public = 'public',
  private = 'private',
}
registerEnumType(TournamentVisibilityEnum, {
  name: 'TournamentVisibility',
  description: 'public: listed, anyone joins; private: not listed, the invited join.',
});

export enum TableOutcomeEnum {
  first = 'first',
  second = 'second',
  draw = 'draw',
}
registerEnumType(TableOutcomeEnum, {
  name: 'TableOutcome',
  description: 'The result of a table: first (the first seat won), second (the second seat won), draw.',
});

@ObjectType('TournamentPlayer', { description: 'A player of a tournament.' })
export class TournamentPlayerModel {
  @Field({ description: 'The username.' }) @ApiProperty() player!: string;
  @Field({ description: 'Withdrew after the start (their remaining games are forfeited).' }) @ApiProperty() withdrawn!: boolean;
}

@ObjectType('Tournament', { description: 'A tournament (docs/tournaments.md).' })
export class TournamentModel {
  @Field(() => ID, { description: 'Its id.' }) @ApiProperty() id!: string;
  @Field({ description: 'Its name.' }) @ApiProperty() name!: string;
  @Field(() => TournamentFormatEnum, { description: 'swiss or roundRobin.' }) @ApiProperty({ enum: TournamentFormatEnum }) format!: string;
  @Field(() => TournamentStatusEnum, { description: 'created, started, finished or cancelled.' }) @ApiProperty({ enum: TournamentStatusEnum }) status!: string;
  @Field({ description: 'Who created it (who may start or cancel it).' }) @ApiProperty() createdBy!: string;
  @Field({ description: 'The preset every match plays.' }) @ApiProperty() preset!: string;
  @Field(() => ID, { nullable: true, description: 'The saved ruleset every match plays (null: the preset with overrides).' })
  @ApiProperty({ type: String, nullable: true })
  rulesetId!: string | null;
  @Field(() => JSONScalar, { description: 'Option overrides of the preset.' }) @ApiProperty({ type: 'object', additionalProperties: true }) overrides!: Record<
    string,
    unknown
  >;
  @Field(() => Int, { description: 'Rounds asked for (Swiss).' }) @ApiProperty({ type: 'integer' }) rounds!: number;
  @Field(() => Int, { description: 'Rounds to play: fixed at the start (Swiss: capped at ⌈log₂ players⌉; round robin: players − 1, or players when odd).' })
  @ApiProperty({ type: 'integer' })
  roundsToPlay!: number;
  @Field(() => Int, { description: 'The round paired last (0 before the first).' }) @ApiProperty({ type: 'integer' }) currentRound!: number;
  @Field(() => Int, { description: 'Most players.' }) @ApiProperty({ type: 'integer' }) maxPlayers!: number;
  @Field(() => Date, { nullable: true, description: 'When it starts by itself; null once started, or when its creator starts it.' })
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  startsAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601 duration per turn of every match; null: untimed.' })
  @ApiProperty({ type: String, nullable: true })
  turnTimeLimit!: string | null;
  @Field(() => OnExpiryEnum, { nullable: true, description: 'What a turn clock running out does.' })
  @ApiProperty({ enum: OnExpiryEnum, nullable: true })
  onExpiry!: string | null;
  @Field({ description: 'Rated matches.' }) @ApiProperty() rated!: boolean;
  @Field({ description: 'Duplicate deals: every table of a round is dealt the same cards.' }) @ApiProperty() duplicate!: boolean;
  @Field(() => MatchChatEnum, { description: "The players' chat room of every table: players or off (imposed)." })
  @ApiProperty({ enum: MatchChatEnum })
  chat!: string;
  @Field(() => TournamentVisibilityEnum, { description: 'public or private.' }) @ApiProperty({ enum: TournamentVisibilityEnum }) visibility!: string;
  @Field(() => [String], { description: 'Private: who may join.' }) @ApiProperty({ type: [String] }) invited!: string[];
  @Field(() => ID, { nullable: true, description: 'A team-only tournament: the team whose members alone join; null for none.' })
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  teamId!: string | null;
  @Field(() => [TournamentPlayerModel], { description: 'In join order.' }) @ApiProperty({ type: [TournamentPlayerModel] }) players!: TournamentPlayerModel[];
  @Field(() => Int, { description: 'The seq of its log.' }) @ApiProperty({ type: 'integer' }) seq!: number;
  @Field(() => String, { nullable: true, description: 'Duplicate: hex SHA-256 of the master seed (revealed in TournamentEnded).' })
  @ApiProperty({ type: String, nullable: true })
  seedCommitment!: string | null;
  @Field(() => String, { nullable: true, description: 'Once finished: completed, noPairing or tooFewPlayers.' })
  @ApiProperty({ type: String, nullable: true })
  endReason!: string | null;
}

@ObjectType('TournamentPage', { description: 'A page of tournaments, newest first.' })
export class TournamentPageModel {
  @Field(() => [TournamentModel], { description: 'This page.' }) @ApiProperty({ type: [TournamentModel] }) items!: TournamentModel[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null at the end.' })
  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

@ObjectType('Standing', { description: 'One line of the standings, in rank order (docs/tournaments.md "Standings").' })
export class StandingModel {
  @Field(() => Int, { description: 'Place, from 1.' }) @ApiProperty({ type: 'integer' }) rank!: number;
  @Field({ description: 'The username.' }) @ApiProperty() player!: string;
  @Field(() => Float, { description: 'Win 1, draw 0.5, loss 0, bye 1.' }) @ApiProperty() matchPoints!: number;
  @Field(() => Int, { description: 'Games won (forfeits included).' }) @ApiProperty({ type: 'integer' }) wins!: number;
  @Field(() => Int, { description: 'Games drawn.' }) @ApiProperty({ type: 'integer' }) draws!: number;
  @Field(() => Int, { description: 'Games lost (forfeits included).' }) @ApiProperty({ type: 'integer' }) losses!: number;
  @Field(() => Int, { description: 'Byes received.' }) @ApiProperty({ type: 'integer' }) byes!: number;
  @Field(() => Int, { description: 'Games with a result.' }) @ApiProperty({ type: 'integer' }) played!: number;
  @Field(() => Float, { description: "Sum of the opponents' match points." }) @ApiProperty() buchholz!: number;
  @Field(() => Float, { description: 'Match points of the opponents beaten, plus half of those drawn.' }) @ApiProperty() sonnebornBerger!: number;
  @Field(() => Int, { description: 'Game points scored minus conceded, at the table.' }) @ApiProperty({ type: 'integer' }) gamePointsDifference!: number;
  @Field(() => Float, { nullable: true, description: 'Duplicate events: the duplicate score (before Buchholz).' })
  @ApiProperty({ type: Number, nullable: true })
  duplicateScore!: number | null;
  @Field(() => Int, { nullable: true, description: 'Rated events: the performance rating.' }) @ApiProperty({ type: 'integer', nullable: true }) performance!:
    number | null;
  @Field({ description: 'Withdrew after the start.' }) @ApiProperty() withdrawn!: boolean;
}

@ObjectType('TournamentTable', { description: 'A table of a round: who sits first and second, the match, the result once in.' })
export class TournamentTableModel {
  @Field(() => Int, { description: 'The table number, from 1.' }) @ApiProperty({ type: 'integer' }) table!: number;
  @Field(() => [String], { description: '[first seat, second seat]' }) @ApiProperty({ type: [String] }) players!: string[];
  @Field(() => ID, { nullable: true, description: 'Null for a table decided without play (a withdrawn player).' })
  @ApiProperty({ type: String, nullable: true })
  matchId!: string | null;
  @Field(() => TableOutcomeEnum, { nullable: true, description: 'first, second or draw, once recorded.' })
  @ApiProperty({ enum: TableOutcomeEnum, nullable: true })
  outcome!: string | null;
  @Field(() => [Int], { nullable: true, description: 'Game points per seat.' }) @ApiProperty({ type: [Number], nullable: true }) points!: number[] | null;
  @Field({ description: 'Decided without play at the table (a withdrawal).' }) @ApiProperty() forfeit!: boolean;
  @Field(() => String, { nullable: true, description: 'How the match ended (its end reason), or withdrawn.' })
  @ApiProperty({ type: String, nullable: true })
  reason!: string | null;
}

@ObjectType('TournamentRound', { description: 'A round: its pairings and results.' })
export class RoundModel {
  @Field(() => Int, { description: 'The round, from 1.' }) @ApiProperty({ type: 'integer' }) round!: number;
  @Field(() => [TournamentTableModel], { description: 'Its tables, in order.' }) @ApiProperty({ type: [TournamentTableModel] }) tables!: TournamentTableModel[];
  @Field(() => String, { nullable: true, description: 'Who has the bye (a win without play), if anyone.' })
  @ApiProperty({ type: String, nullable: true })
  bye!: string | null;
  @Field({ description: 'Every table has its result.' }) @ApiProperty() ended!: boolean;
  @Field(() => String, { nullable: true, description: "Duplicate: hex SHA-256 of the round's seed." })
  @ApiProperty({ type: String, nullable: true })
  seedCommitment!: string | null;
  @Field(() => String, { nullable: true, description: "Duplicate: the round's seed, once the round has ended." })
  @ApiProperty({ type: String, nullable: true })
  seed!: string | null;
}

/** A line of GET /v1/tournaments/{id}/matches (REST only: GraphQL reads Tournament.round(n).tables). */
export class TournamentMatchLineModel extends TournamentTableModel {
  @ApiProperty({ type: 'integer', description: 'The round.' }) round!: number;
}

@ObjectType('TournamentUpdate', { description: 'Something happened in a tournament (tournamentUpdated).' })
export class TournamentUpdateModel {
  @Field(() => ID, { description: 'The tournament.' }) @ApiProperty() tournamentId!: string;
  @Field({ description: 'joined, withdrew, started, paired, result, roundEnded, ended or cancelled.' }) @ApiProperty() kind!: string;
  @Field(() => Int, { description: 'The seq of its log after the change.' }) @ApiProperty({ type: 'integer' }) seq!: number;
  @Field(() => Int, { nullable: true, description: 'The round paired or ended last by the change.' }) @ApiProperty({ type: 'integer', nullable: true }) round!:
    number | null;
  @Field(() => TournamentStatusEnum, { description: 'Its status after the change.' }) @ApiProperty({ enum: TournamentStatusEnum }) status!: string;
}
