import { Field, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { JSONScalar } from '../common/json.scalar';
import type { BanView, ModerationLogEntry, ModerationLogPage, MuteView, ReportPage, ReportView } from './moderation.service';

/** Where a report stands; the values are the wire values of REST and GraphQL. */
export enum ReportStatusEnum {
  open = 'open',
  resolved = 'resolved',
}
registerEnumType(ReportStatusEnum, { name: 'ReportStatus', description: 'open: waiting for a moderator; resolved by one.' });

/** What a report is about. */
export enum ReportTargetKindEnum {
  user = 'user',
  message = 'message',
  match = 'match',
}
registerEnumType(ReportTargetKindEnum, { name: 'ReportTargetKind', description: 'user: an account; message: a chat message; match: a match.' });

/** Every action of the moderation log. */
export enum ModerationActionEnum {
  moderatorGranted = 'moderatorGranted',
  moderatorRevoked = 'moderatorRevoked',
  userMuted = 'userMuted',
  userUnmuted = 'userUnmuted',
  userBanned = 'userBanned',
  userUnbanned = 'userUnbanned',
  reportResolved = 'reportResolved',
  messageRemoved = 'messageRemoved',
}
registerEnumType(ModerationActionEnum, {
  name: 'ModerationAction',
  description:
    'moderatorGranted / moderatorRevoked: by an operator (npm run admin); userMuted, userUnmuted, userBanned, userUnbanned, reportResolved: by a moderator; messageRemoved: a chat message removed by a moderator.',
});

@ObjectType('ReportTarget', { description: 'What a report is about: its kind and the one field of that kind.' })
export class ReportTargetModel {
  @Field(() => ReportTargetKindEnum, { description: 'user, message or match.' })
  @ApiProperty({ enum: ReportTargetKindEnum })
  kind!: `${ReportTargetKindEnum}`;
  @Field(() => String, { nullable: true, description: 'The reported user; for a chat message, its author (as when it was reported).' })
  @ApiProperty({ type: String, nullable: true, description: 'The reported user; for a chat message, its author (as when it was reported).' })
  username!: string | null;
  @Field(() => String, { nullable: true, description: "The reported chat message's id." })
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  messageId!: string | null;
  @Field(() => String, {
    nullable: true,
    description: "A reported chat message's text as it was when reported (kept even once the message is removed or swept); null otherwise.",
  })
  @ApiProperty({
    type: String,
    nullable: true,
    description: "A reported chat message's text as it was when reported (kept even once the message is removed or swept); null otherwise.",
  })
  text!: string | null;
  @Field(() => String, { nullable: true, description: 'The reported match.' }) @ApiProperty({ type: String, nullable: true, format: 'uuid' }) matchId!:
    string | null;
}

@ObjectType('Report', { description: "A player's report of a user, a chat message or a match, for the moderators." })
export class ReportModel implements ReportView {
  @Field(() => ID, { description: 'The report.' }) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field({ description: 'Who reported.' }) @ApiProperty() reporter!: string;
  @Field(() => ReportTargetModel, { description: 'What is reported.' }) @ApiProperty({ type: ReportTargetModel }) target!: ReportTargetModel;
  @Field({ description: 'Why, as the reporter wrote it.' }) @ApiProperty() reason!: string;
  @Field(() => ReportStatusEnum, { description: 'open until a moderator resolves it.' })
  @ApiProperty({ enum: ReportStatusEnum })
  status!: `${ReportStatusEnum}`;
  @Field(() => Date, { description: 'When it was made.' }) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When it was resolved.' })
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  resolvedAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'The moderator who resolved it.' }) @ApiProperty({ type: String, nullable: true }) resolvedBy!:
    string | null;
  @Field(() => String, { nullable: true, description: 'What was done, as the moderator wrote it.' })
  @ApiProperty({ type: String, nullable: true })
  resolution!: string | null;
}

@ObjectType('ReportPage', { description: 'A page of reports, oldest first.' })
export class ReportPageModel implements ReportPage {
  @Field(() => [ReportModel], { description: 'This page.' }) @ApiProperty({ type: [ReportModel] }) items!: ReportModel[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null at the end.' })
  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

@ObjectType('Mute', { description: "A running mute: the user's chat messages are refused (CHAT_MUTED) until `until`." })
export class MuteModel implements MuteView {
  @Field({ description: 'Who is muted.' }) @ApiProperty() username!: string;
  @Field(() => Date, { description: 'When it ends.' }) @ApiProperty({ type: String, format: 'date-time' }) until!: Date;
  @Field({ description: 'Why.' }) @ApiProperty() reason!: string;
  @Field({ description: 'The moderator.' }) @ApiProperty() mutedBy!: string;
  @Field(() => Date, { description: 'When the mute was given.' }) @ApiProperty({ type: String, format: 'date-time' }) mutedAt!: Date;
}

@ObjectType('Ban', { description: 'A banned account: its sessions, tokens and sockets have ended, its login is refused (ACCOUNT_BANNED).' })
export class BanModel implements BanView {
  @Field({ description: 'Who is banned.' }) @ApiProperty() username!: string;
  @Field(() => Date, { description: 'When.' }) @ApiProperty({ type: String, format: 'date-time' }) bannedAt!: Date;
  @Field({ description: 'Why.' }) @ApiProperty() reason!: string;
  @Field({ description: 'The moderator.' }) @ApiProperty() bannedBy!: string;
}

@ObjectType('ModerationLogEntry', { description: 'One action of the hash-chained moderation log: who, what, why and when.' })
export class ModerationLogEntryModel implements ModerationLogEntry {
  @Field(() => Int, { description: 'Its place in the log, from 1.' }) seq!: number;
  @Field(() => ModerationActionEnum, { description: 'What was done.' }) action!: `${ModerationActionEnum}`;
  @Field({ description: 'Who: a moderator, or operator:<name> for the admin command.' }) actor!: string;
  @Field({ description: "What it was done to: a username, a report's id, a chat message's id." }) target!: string;
  @Field(() => String, { nullable: true, description: 'Why (null when none was given).' }) reason!: string | null;
  @Field(() => JSONScalar, { description: "What else the action names (a mute's until, a report's target)." }) details!: Record<string, unknown>;
  @Field(() => Date, { description: 'When.' }) time!: Date;
  @Field({ description: 'The hash of the event before (64 zeros for the first).' }) prevHash!: string;
  @Field({ description: 'This event\'s hash (docs/social.md "Reports and moderation").' }) hash!: string;
}

@ObjectType('ModerationLogPage', { description: 'A page of the moderation log, in order.' })
export class ModerationLogPageModel implements ModerationLogPage {
  @Field(() => [ModerationLogEntryModel], { description: 'This page.' }) items!: ModerationLogEntryModel[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null at the end.' }) nextCursor!: string | null;
}

/** The operator endpoint's answer (not in the public API). */
export class OperatorRoleModel {
  username!: string;
  changed!: boolean;
}
