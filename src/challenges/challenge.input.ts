import { Field, ID, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { JSONScalar } from '../graphql/json.scalar';
import { OnExpiryEnum } from '../matches/match.input';
import { DECLINE_REASONS } from './challenges.service';
import { AcceptChallengesEnum } from './challenge.model';

@InputType()
export class ChallengeInput {
  @Field({ description: 'The account to challenge.' })
  @ApiProperty({ example: 'bob' })
  @IsString()
  @MaxLength(32)
  username!: string;

  @Field({ nullable: true, description: 'A two-player preset id; or give rulesetId.' })
  @ApiPropertyOptional({ example: 'scopa' })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  preset?: string;

  @Field(() => ID, { nullable: true, description: 'A saved custom ruleset (two players); the match locks it when the challenge is accepted.' })
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'rulesetId must be the id of a saved ruleset (a UUID)' })
  rulesetId?: string;

  @Field(() => JSONScalar, { nullable: true, description: 'Option overrides, checked by the engine now (INVALID_RULESET names the option at fault).' })
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { target: 5 } })
  @IsOptional()
  @IsObject()
  overrides?: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: 'ISO 8601 duration per turn (e.g. P1D); null or absent for an untimed match.' })
  @ApiPropertyOptional({ type: String, nullable: true, example: 'P1D' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  turnTimeLimit?: string | null;

  @Field(() => OnExpiryEnum, { nullable: true, description: 'What the turn clock running out does (default autoPlay).' })
  @ApiPropertyOptional({ enum: OnExpiryEnum })
  @IsOptional()
  @IsIn(Object.values(OnExpiryEnum))
  onExpiry?: 'autoPlay' | 'forfeit';

  @Field(() => Boolean, { nullable: true, description: 'A rated match (default false).' })
  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
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
  @Field(() => AcceptChallengesEnum, { nullable: true, description: 'Who may challenge me: none, known (players I have played a match with) or everyone (the default).' })
  @ApiPropertyOptional({ enum: AcceptChallengesEnum })
  @IsOptional()
  @IsIn(Object.values(AcceptChallengesEnum))
  acceptChallenges?: string;
}
