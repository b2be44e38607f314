import { ArgsType, Field, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsISO8601, IsNotEmptyObject, IsObject, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { REASON_MAX } from './moderation.service';
import { ReportStatusEnum } from './moderation.model';
import { CursorPageArgs } from '../common/cursor-page';

@InputType('ReportTargetInput', { description: 'What is reported: exactly one of username, messageId, matchId.' })
export class ReportTargetInput {
  @Field({ nullable: true, description: 'A user, by username.' })
  @ApiPropertyOptional({ example: 'bob' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  username?: string;

  @Field({ nullable: true, description: "A chat message's id: the report keeps its author and text as they are now (NOT_FOUND for no such message)." })
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  messageId?: string;

  @Field({ nullable: true, description: "A match's id." })
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  matchId?: string;
}

@InputType('ReportInput', { description: 'A report for the moderators.' })
export class ReportInput {
  @Field(() => ReportTargetInput, { description: 'What is reported: exactly one of username, messageId, matchId.' })
  @ApiProperty({ type: ReportTargetInput })
  @IsObject()
  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => ReportTargetInput)
  target!: ReportTargetInput;

  @Field({ description: `Why, for the moderators (1 to ${REASON_MAX} characters).` })
  @ApiProperty({ maxLength: REASON_MAX, example: 'abusive messages in the lobby' })
  @IsString()
  @MaxLength(REASON_MAX)
  reason!: string;
}

@ArgsType()
export class ReportsQuery extends CursorPageArgs({ defaultSize: 20, cursorMaxLength: 200 }) {
  @Field(() => ReportStatusEnum, { nullable: true, description: 'open (the default) or resolved.' })
  @ApiPropertyOptional({ enum: ReportStatusEnum, default: 'open' })
  @IsOptional()
  @IsIn(Object.values(ReportStatusEnum))
  status?: `${ReportStatusEnum}`;
}

@ArgsType()
export class ModerationLogQuery extends CursorPageArgs({ defaultSize: 50, cursorMaxLength: 20 }) {}

@InputType('ResolveReportInput', { description: 'What was done about a report.' })
export class ResolveReportInput {
  @Field({ nullable: true, description: `What was done (up to ${REASON_MAX} characters), for the log.` })
  @ApiPropertyOptional({ maxLength: REASON_MAX, example: 'warned the player' })
  @IsOptional()
  @IsString()
  @MaxLength(REASON_MAX)
  resolution?: string;
}

@InputType('MuteInput', { description: "A mute: the user's chat messages are refused until `until`." })
export class MuteInput {
  @Field(() => Date, { description: 'When the mute ends (ISO 8601, in the future, at most ten years ahead).' })
  @ApiProperty({ type: String, format: 'date-time' })
  // GraphQL's DateTime scalar hands a Date (checked by the scalar); REST hands the text
  @ValidateIf((o: { until?: unknown }) => !(o.until instanceof Date))
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 date-time' })
  until!: string | Date;

  @Field({ description: `Why (1 to ${REASON_MAX} characters), for the log.` })
  @ApiProperty({ maxLength: REASON_MAX })
  @IsString()
  @MaxLength(REASON_MAX)
  reason!: string;
}

@InputType('UnmuteInput', { description: 'Why a mute is lifted early, or a ban lifted.' })
export class UnmuteInput {
  @Field({ nullable: true, description: `Why (up to ${REASON_MAX} characters), for the log.` })
  @ApiPropertyOptional({ maxLength: REASON_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(REASON_MAX)
  reason?: string;
}

@InputType('BanInput', { description: 'A ban: every session, token and socket of the account ends, and its login is refused.' })
export class BanInput {
  @Field({ description: `Why (1 to ${REASON_MAX} characters), for the log.` })
  @ApiProperty({ maxLength: REASON_MAX })
  @IsString()
  @MaxLength(REASON_MAX)
  reason!: string;
}

/** The admin command's request to a running service (scripts/admin.ts; not in the public API). */
export class OperatorRoleInput {
  @IsIn(['grant', 'revoke']) action!: 'grant' | 'revoke';
  @IsIn(['moderator']) role!: 'moderator';
  @IsString() @MaxLength(64) username!: string;
  @IsOptional() @IsString() @MaxLength(REASON_MAX) reason?: string;
  /** The login name of who ran the command. */
  @IsOptional() @IsString() @MaxLength(64) operator?: string;
}
