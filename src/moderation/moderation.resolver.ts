import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Caller, PROFILE_READ, RequireScope, SessionOnly } from '../common/principal';
import type { Principal } from '../common/principal';
import { BanInput, ModerationLogQuery, MuteInput, ReportInput, ReportsQuery, ResolveReportInput, UnmuteInput } from './moderation.input';
import { BanModel, ModerationLogPageModel, MuteModel, ReportModel, ReportPageModel } from './moderation.model';
import { ModerationService } from './moderation.service';

const MODERATORS_ONLY = 'For moderators (anyone else: FORBIDDEN).';

@Resolver()
export class ModerationResolver {
  constructor(private readonly moderation: ModerationService) {}

  @Mutation(() => ReportModel, { description: 'Report a user, a chat message or a match to the moderators (exactly one target), with a reason.' })
  report(@Caller() caller: Principal, @Args('input', { description: 'What is reported, and why.' }) input: ReportInput): Promise<ReportModel> {
    return this.moderation.report(caller, input.target, input.reason);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => ReportPageModel, { description: `The reports of a status (open by default, or resolved), oldest first, in cursor pages. ${MODERATORS_ONLY}` })
  reports(@Caller() caller: Principal, @Args() q: ReportsQuery): Promise<ReportPageModel> {
    return this.moderation.reports(caller, q.status, q.first, q.after);
  }

  @SessionOnly()
  @Mutation(() => ReportModel, { description: `Resolve an open report, saying what was done (logged). ${MODERATORS_ONLY}` })
  resolveReport(
    @Caller() caller: Principal,
    @Args('id', { type: () => ID, description: 'The report.' }) id: string,
    @Args('input', { nullable: true, description: 'What was done.' }) input?: ResolveReportInput,
  ): Promise<ReportModel> {
    return this.moderation.resolveReport(caller, id, input?.resolution);
  }

  @SessionOnly()
  @Mutation(() => MuteModel, {
    description: `Mute a user until a time in the future: their chat messages are refused (CHAT_MUTED) until then; muting again replaces the end (logged). ${MODERATORS_ONLY}`,
  })
  muteUser(
    @Caller() caller: Principal,
    @Args('username', { description: 'Who.' }) username: string,
    @Args('input', { description: 'Until when, and why.' }) input: MuteInput,
  ): Promise<MuteModel> {
    return this.moderation.mute(caller, username, input.until, input.reason);
  }

  @SessionOnly()
  @Mutation(() => Boolean, { description: `Lift a running mute (NOT_FOUND when none runs; logged). ${MODERATORS_ONLY}` })
  async unmuteUser(
    @Caller() caller: Principal,
    @Args('username', { description: 'Who.' }) username: string,
    @Args('input', { nullable: true, description: 'Why.' }) input?: UnmuteInput,
  ): Promise<boolean> {
    await this.moderation.unmute(caller, username, input?.reason);
    return true;
  }

  @SessionOnly()
  @Mutation(() => BanModel, {
    description: `Ban an account: its sessions, tokens and sockets end on every instance and its login is refused (ACCOUNT_BANNED); logged. ${MODERATORS_ONLY}`,
  })
  banUser(
    @Caller() caller: Principal,
    @Args('username', { description: 'Who.' }) username: string,
    @Args('input', { description: 'Why.' }) input: BanInput,
  ): Promise<BanModel> {
    return this.moderation.ban(caller, username, input.reason);
  }

  @SessionOnly()
  @Mutation(() => Boolean, {
    description: `Lift a ban: the account logs in again (what the ban revoked stays revoked); NOT_FOUND when it is not banned; logged. ${MODERATORS_ONLY}`,
  })
  async unbanUser(
    @Caller() caller: Principal,
    @Args('username', { description: 'Who.' }) username: string,
    @Args('input', { nullable: true, description: 'Why.' }) input?: UnmuteInput,
  ): Promise<boolean> {
    await this.moderation.unban(caller, username, input?.reason);
    return true;
  }

  @RequireScope(PROFILE_READ)
  @Query(() => ModerationLogPageModel, {
    description: `The moderation log's actions in order, in cursor pages (the hash-chained export: GET /v1/admin/moderation-log). ${MODERATORS_ONLY}`,
  })
  moderationLog(@Caller() caller: Principal, @Args() q: ModerationLogQuery): Promise<ModerationLogPageModel> {
    return this.moderation.logPage(caller, q.first, q.after);
  }
}
