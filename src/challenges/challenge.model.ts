import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { JSONScalar } from '../graphql/json.scalar';
import type { ChallengeInfo, ChallengeStatus, MyChallenges } from './challenges.service';

@ObjectType('Challenge', { description: 'A direct challenge from one account to another (lichess-like): pending until accepted, declined, canceled or expired.' })
export class ChallengeModel implements ChallengeInfo {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field({ description: 'Who challenges.' }) @ApiProperty() challenger!: string;
  @Field({ description: 'Who is challenged.' }) @ApiProperty() destUser!: string;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) preset!: string | null;
  @Field(() => ID, { nullable: true }) @ApiProperty({ type: String, nullable: true, format: 'uuid' }) rulesetId!: string | null;
  @Field(() => JSONScalar) @ApiProperty({ type: 'object', additionalProperties: true }) overrides!: Record<string, unknown>;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) turnTimeLimit!: string | null;
  @Field() @ApiProperty({ enum: ['autoPlay', 'forfeit'] }) onExpiry!: string;
  @Field() @ApiProperty() rated!: boolean;
  @Field(() => Int, { nullable: true, description: "The challenger's seat; null: drawn at random when accepted." })
  @ApiProperty({ type: Number, nullable: true })
  seat!: number | null;
  @Field(() => String, { description: 'pending | accepted | declined | canceled | expired' })
  @ApiProperty({ enum: ['pending', 'accepted', 'declined', 'canceled', 'expired'] })
  status!: ChallengeStatus;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) declineReason!: string | null;
  @Field(() => ID, { nullable: true, description: 'The match made when it was accepted.' })
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  matchId!: string | null;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
  @Field(() => Date, { description: 'When it expires unanswered (CHALLENGE_TTL after its creation).' })
  @ApiProperty({ type: String, format: 'date-time' })
  expiresAt!: Date;
}

@ObjectType('MyChallenges', { description: 'My pending challenges: received (in) and sent (out), newest first.' })
export class MyChallengesModel implements MyChallenges {
  @Field(() => [ChallengeModel]) @ApiProperty({ type: [ChallengeModel] }) in!: ChallengeModel[];
  @Field(() => [ChallengeModel]) @ApiProperty({ type: [ChallengeModel] }) out!: ChallengeModel[];
}

@ObjectType('AccountSettings', { description: 'My settings of the finding-opponents features.' })
export class AccountSettingsModel {
  @Field({ description: 'Who may challenge me: none | known | everyone.' })
  @ApiProperty({ enum: ['none', 'known', 'everyone'] })
  acceptChallenges!: string;
}
