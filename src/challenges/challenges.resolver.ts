import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CHALLENGE_WRITE, Caller, PROFILE_READ, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { ChallengesService } from './challenges.service';
import { AccountSettingsInput, ChallengeInput } from './challenge.input';
import { AccountSettingsModel, ChallengeModel, DeclineReasonEnum, MyChallengesModel } from './challenge.model';
import { DECLINE_REASONS } from './challenges.service';

@Resolver()
export class ChallengesResolver {
  constructor(private readonly challenges: ChallengesService) {}

  @Query(() => MyChallengesModel, { description: 'My pending challenges: received (in) and sent (out), newest first.' })
  myChallenges(@Caller() caller: Principal): Promise<MyChallengesModel> {
    return this.challenges.mine(caller);
  }

  @Query(() => ChallengeModel, { description: 'One of my challenges (sent or received).' })
  challengeById(@Caller() caller: Principal, @Args('id', { type: () => ID }) id: string): Promise<ChallengeModel> {
    return this.challenges.get(caller, id);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => AccountSettingsModel, { description: 'My account settings.' })
  accountSettings(@Caller() caller: Principal): Promise<AccountSettingsModel> {
    return this.challenges.settings(caller.username);
  }

  @RequireScope(CHALLENGE_WRITE)
  @Mutation(() => ChallengeModel, {
    description: 'Challenge an account to a two-player match; it expires unanswered after CHALLENGE_TTL. BLOCKED when a block stands between us, either way.',
  })
  challenge(@Caller() caller: Principal, @Args('input') input: ChallengeInput): Promise<ChallengeModel> {
    return this.challenges.challenge(caller, input);
  }

  @RequireScope(CHALLENGE_WRITE)
  @Mutation(() => ChallengeModel, { description: 'Accept a challenge made to me: the match is created and started at once (matchId).' })
  acceptChallenge(@Caller() caller: Principal, @Args('id', { type: () => ID }) id: string): Promise<ChallengeModel> {
    return this.challenges.accept(caller, id);
  }

  @RequireScope(CHALLENGE_WRITE)
  @Mutation(() => ChallengeModel, { description: `Decline a challenge made to me; reason: ${DECLINE_REASONS.join(', ')} (default generic).` })
  declineChallenge(
    @Caller() caller: Principal,
    @Args('id', { type: () => ID }) id: string,
    @Args('reason', { type: () => DeclineReasonEnum, nullable: true, description: 'Why (default generic).' }) reason?: string,
  ): Promise<ChallengeModel> {
    return this.challenges.decline(caller, id, reason ?? undefined);
  }

  @RequireScope(CHALLENGE_WRITE)
  @Mutation(() => ChallengeModel, { description: 'Cancel a challenge I made.' })
  cancelChallenge(@Caller() caller: Principal, @Args('id', { type: () => ID }) id: string): Promise<ChallengeModel> {
    return this.challenges.cancel(caller, id);
  }

  @RequireScope(CHALLENGE_WRITE)
  @Mutation(() => AccountSettingsModel, {
    description:
      'Change my account settings (acceptChallenges: none | known | everyone; language: en | it | fr | es | ar, null forgets it); absent fields stay.',
  })
  updateAccount(@Caller() caller: Principal, @Args('input') input: AccountSettingsInput): Promise<AccountSettingsModel> {
    return this.challenges.updateSettings(caller, { acceptChallenges: input.acceptChallenges ?? undefined, language: input.language });
  }
}
