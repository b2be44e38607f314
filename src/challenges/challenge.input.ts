import { Field, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { OnExpiryEnum, OnExpiryField, OverridesField, PresetField, RatedField, RulesetIdField, TurnTimeLimitField } from '../common/match-fields';
import { DECLINE_REASONS } from './challenges.service';
import { AcceptChallengesEnum, LanguageEnum } from './challenge.model';

@InputType()
export class ChallengeInput {
  @Field({ description: 'The account to challenge.' })
  @ApiProperty({ example: 'bob' })
  @IsString()
  @MaxLength(32)
  username!: string;

  @PresetField('A two-player preset id; or give rulesetId.')
  preset?: string;

  @RulesetIdField('A saved custom ruleset (two players); the match locks it when the challenge is accepted.')
  rulesetId?: string;

  @OverridesField('Option overrides, checked by the engine now (INVALID_RULESET names the option at fault).')
  overrides?: Record<string, unknown>;

  @TurnTimeLimitField('ISO 8601 duration per turn (e.g. P1D); null or absent for an untimed match.', 'P1D')
  turnTimeLimit?: string | null;

  @OnExpiryField()
  onExpiry?: `${OnExpiryEnum}`;

  @RatedField('A rated match (default false).')
  rated?: boolean;

  @Field(() => Int, { nullable: true, description: "The challenger's seat, 0 or 1; absent: drawn at random when accepted (lichess's color: random)." })
  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0, maximum: 1 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1)
  seat?: number | null;
}

@InputType()
export class DeclineChallengeInput {
  @Field({ nullable: true, description: `Why (lichess's reasons): ${DECLINE_REASONS.join(', ')}. Default generic.` })
  @ApiPropertyOptional({ enum: DECLINE_REASONS })
  @IsOptional()
  @IsIn(DECLINE_REASONS as unknown as string[])
  reason?: string;
}

@InputType()
export class AccountSettingsInput {
  @Field(() => AcceptChallengesEnum, {
    nullable: true,
    description: 'Who may challenge me: none, known (players I have played a match with to a result: started, and not aborted) or everyone (the default).',
  })
  @ApiPropertyOptional({ enum: AcceptChallengesEnum })
  @IsOptional()
  @IsIn(Object.values(AcceptChallengesEnum))
  acceptChallenges?: string;

  @Field(() => LanguageEnum, { nullable: true, description: 'My language for the web client: en, it, fr, es or ar; null forgets it (none chosen).' })
  @ApiPropertyOptional({ enum: LanguageEnum, nullable: true })
  @IsOptional()
  @IsIn(Object.values(LanguageEnum), { message: `one of ${Object.values(LanguageEnum).join(', ')}, or null` })
  language?: string | null;
}
