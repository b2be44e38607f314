import { Field, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { PoolRatingModel } from '../ratings/ratings.model';
import type { TeamMemberPage, TeamMemberView, TeamPage, TeamRequestPage, TeamRequestView, TeamRole, TeamView } from './teams.service';

export enum TeamRoleEnum {
  leader = 'leader',
  member = 'member',
}
registerEnumType(TeamRoleEnum, {
  name: 'TeamRole',
  description: 'leader: accepts and declines requests, kicks, appoints leaders (leaders are peers); member: plays in the team and its tournaments.',
});

@ObjectType('Team', { description: 'A team (club) of players, with its leaders (docs/social.md "Teams").' })
export class TeamModel implements TeamView {
  @Field(() => ID, { description: 'Its id.' }) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field({ description: 'Its name (unique without regard to case).' }) @ApiProperty() name!: string;
  @Field({ description: 'What it is about (plain text).' }) @ApiProperty() description!: string;
  @Field({ description: 'true: anyone joins at once; false: by request, which a leader accepts or declines.' }) @ApiProperty() open!: boolean;
  @Field({ description: 'Who created it.' }) @ApiProperty() createdBy!: string;
  @Field(() => Date, { description: 'When it was created.' }) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
  @Field(() => Int, { description: 'How many members it has, leaders included.' }) @ApiProperty({ type: 'integer' }) memberCount!: number;
  @Field(() => [String], { description: "The leaders' usernames, in alphabetical order (at most 10)." }) @ApiProperty({ type: [String] }) leaders!: string[];
  @Field(() => TeamRoleEnum, { nullable: true, description: 'My role in the team; null when I am not a member.' })
  @ApiProperty({ enum: TeamRoleEnum, nullable: true })
  myRole!: TeamRole | null;
  @Field({ description: 'Whether my request to join is pending (a leader accepts or declines it).' }) @ApiProperty() requestPending!: boolean;
}

@ObjectType('TeamPage', { description: 'A page of teams, by name.' })
export class TeamPageModel implements TeamPage {
  @Field(() => [TeamModel], { description: 'The teams of this page.' }) @ApiProperty({ type: [TeamModel] }) items!: TeamModel[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null at the end.' })
  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

@ObjectType('TeamMember', { description: 'A member of a team, with their ratings.' })
export class TeamMemberModel implements TeamMemberView {
  @Field({ description: 'The username.' }) @ApiProperty() username!: string;
  @Field(() => TeamRoleEnum, { description: 'leader or member.' }) @ApiProperty({ enum: TeamRoleEnum }) role!: TeamRole;
  @Field(() => Date, { description: 'When they joined (or were accepted).' }) @ApiProperty({ type: String, format: 'date-time' }) joinedAt!: Date;
  @Field(() => [PoolRatingModel], { description: 'Their Glicko-2 ratings, as on their profile: the 16 pools of the most rated matches at most.' })
  @ApiProperty({ type: [PoolRatingModel] })
  ratings!: PoolRatingModel[];
}

@ObjectType('TeamMemberPage', { description: "A page of a team's members, by username." })
export class TeamMemberPageModel implements TeamMemberPage {
  @Field(() => [TeamMemberModel], { description: 'The members of this page.' }) @ApiProperty({ type: [TeamMemberModel] }) items!: TeamMemberModel[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null at the end.' })
  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

@ObjectType('TeamRequest', { description: 'A pending request to join a team.' })
export class TeamRequestModel implements TeamRequestView {
  @Field({ description: 'Who asks to join.' }) @ApiProperty() username!: string;
  @Field(() => Date, { description: 'When they asked.' }) @ApiProperty({ type: String, format: 'date-time' }) requestedAt!: Date;
}

@ObjectType('TeamRequestPage', { description: "A page of a team's pending requests, oldest first." })
export class TeamRequestPageModel implements TeamRequestPage {
  @Field(() => [TeamRequestModel], { description: 'The requests of this page.' }) @ApiProperty({ type: [TeamRequestModel] }) items!: TeamRequestModel[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null at the end.' })
  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}
