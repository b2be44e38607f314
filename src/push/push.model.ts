import { Field, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { PUSH_KINDS } from './push-kinds';
import type { PushKind } from './push-kinds';
import type { PushSubscriptionView } from './push-subscriptions.service';

export enum PushKindEnum {
  yourTurn = 'yourTurn',
  challengeReceived = 'challengeReceived',
  tournamentRoundPaired = 'tournamentRoundPaired',
  clockLow = 'clockLow',
  analysisReady = 'analysisReady',
}
registerEnumType(PushKindEnum, {
  name: 'PushKind',
  description: 'What a Web Push subscription is told of (docs/notifications.md).',
  valuesMap: {
    yourTurn: { description: 'A seat of mine is to move (correspondence and live matches).' },
    challengeReceived: { description: 'Someone challenged me.' },
    tournamentRoundPaired: { description: 'A round of a tournament I play in was paired (my match, or a bye).' },
    clockLow: { description: 'Less than CLOCK_LOW_FRACTION of my turn is left (once per turn).' },
    analysisReady: { description: 'A post-game analysis I asked for, or of a match I played, is done.' },
  },
});

@ObjectType('PushSubscription', { description: 'A browser of mine that takes Web Push notifications, and the kinds it takes.' })
export class PushSubscriptionModel implements PushSubscriptionView {
  @Field(() => ID, { description: 'Its id (DELETE /v1/account/push-subscriptions/{id}, removePushSubscription).' })
  @ApiProperty({ format: 'uuid' })
  id!: string;
  @Field({ description: "The push service's URL for that browser (PushSubscription.endpoint)." }) @ApiProperty({ format: 'uri' }) endpoint!: string;
  @Field(() => [PushKindEnum], { description: 'The kinds it takes, in the order of the PushKind enum.' })
  @ApiProperty({ enum: PUSH_KINDS, isArray: true })
  kinds!: PushKind[];
  @Field(() => Date, { description: 'When it was first registered.' }) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
  @Field(() => Date, { description: 'When it was last registered (keys or kinds replaced).' })
  @ApiProperty({ type: String, format: 'date-time' })
  updatedAt!: Date;
}

export class VapidPublicKeyModel {
  @ApiProperty({
    description: "The service's VAPID public key (base64url, an uncompressed P-256 point): PushManager.subscribe's applicationServerKey.",
  })
  publicKey!: string;
}
