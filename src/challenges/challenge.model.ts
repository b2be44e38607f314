import { Field, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { JSONScalar } from '../common/json.scalar';
import { OnExpiryEnum } from '../common/match-fields';
import type { ChallengeInfo, ChallengeStatus, MyChallenges } from './challenges.service';

/** Where a challenge stands; the values are the wire values of REST and GraphQL. */
export enum ChallengeStatusEnum {
  pending = 'pending',
  accepted = 'accepted',
  declined = 'declined',
  canceled = 'canceled',
  expired = 'expired',
}
registerEnumType(ChallengeStatusEnum, {
  name: 'ChallengeStatus',
  description:
    'pending: waiting for an answer; accepted: its match is matchId; declined by the challenged account; canceled by the challenger; expired unanswered (CHALLENGE_TTL).',
});

/** Why a challenge was declined (lichess's reasons). */
export enum DeclineReasonEnum {
  generic = 'generic',
  later = 'later',
  tooFast = 'tooFast',
  tooSlow = 'tooSlow',
  timeControl = 'timeControl',
  rated = 'rated',
  casual = 'casual',
  standard = 'standard',
  variant = 'variant',
  noBot = 'noBot',
  onlyBot = 'onlyBot',
}
registerEnumType(DeclineReasonEnum, { name: 'DeclineReason', description: "Why a challenge was declined (lichess's reasons); generic when none was given." });

/** Who may challenge an account. */
export enum AcceptChallengesEnum {
  none = 'none',
  known = 'known',
  everyone = 'everyone',
}
registerEnumType(AcceptChallengesEnum, {
  name: 'AcceptChallenges',
  description: 'Who may challenge me: none; known (players I have played a match with to a result: started, and not aborted); everyone.',
});

/** The languages of the players (the web client's, web/src/i18n.ts LANGUAGES), by their ISO 639-1 codes. */
export enum LanguageEnum {
  en = 'en',
  it = 'it',
  fr = 'fr',
  es = 'es',
  ar = 'ar',
}
registerEnumType(LanguageEnum, {
  name: 'Language',
  description: 'A language of the players: en English, it Italian, fr French, es Spanish, ar Arabic.',
});

@ObjectType('Challenge', {
  description: 'A direct challenge from one account to another (lichess-like): pending until accepted, declined, canceled or expired.',
})
export class ChallengeModel implements ChallengeInfo {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field({ description: 'Who challenges.' }) @ApiProperty() challenger!: string;
  @Field({ description: 'Who is challenged.' }) @ApiProperty() destUser!: string;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) preset!: string | null;
  @Field(() => ID, { nullable: true }) @ApiProperty({ type: String, nullable: true, format: 'uuid' }) rulesetId!: string | null;
  @Field(() => JSONScalar) @ApiProperty({ type: 'object', additionalProperties: true }) overrides!: Record<string, unknown>;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) turnTimeLimit!: string | null;
  @Field(() => OnExpiryEnum, { description: 'What the turn clock running out does in the match.' }) @ApiProperty({ enum: OnExpiryEnum }) onExpiry!: string;
  @Field() @ApiProperty() rated!: boolean;
  @Field(() => Int, { nullable: true, description: "The challenger's seat; null: drawn at random when accepted." })
  @ApiProperty({ type: Number, nullable: true })
  seat!: number | null;
  @Field(() => ChallengeStatusEnum, { description: 'Where the challenge stands.' })
  @ApiProperty({ enum: ChallengeStatusEnum })
  status!: ChallengeStatus;
  @Field(() => DeclineReasonEnum, { nullable: true, description: 'Why it was declined; null unless declined.' })
  @ApiProperty({ enum: DeclineReasonEnum, nullable: true })
  declineReason!: string | null;
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

@ObjectType('AccountSettings', { description: 'My account settings: who may challenge me, and my language.' })
export class AccountSettingsModel {
  @Field(() => AcceptChallengesEnum, { description: 'Who may challenge me.' })
  @ApiProperty({ enum: AcceptChallengesEnum })
  acceptChallenges!: string;

  @Field(() => LanguageEnum, { nullable: true, description: 'The language I chose for the web client (en, it, fr, es, ar); null: none chosen.' })
  @ApiProperty({ enum: LanguageEnum, nullable: true })
  language!: string | null;
}
