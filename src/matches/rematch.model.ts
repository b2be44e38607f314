import { Field, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { RematchOffer } from './rematches.service';

/** Where a rematch offer stands; the values are the wire values of REST and GraphQL. */
export enum RematchStatusEnum {
  open = 'open',
  declined = 'declined',
  accepted = 'accepted',
  expired = 'expired',
}
registerEnumType(RematchStatusEnum, {
  name: 'RematchStatus',
  description:
    'open: waiting for every human player to ask; declined by a player; accepted: the rematch is newMatchId; expired: REMATCH_TTL after the first ask.',
});

@ObjectType('RematchOffer', {
  description:
    'The rematch offer after a finished match: when every human player has asked (bots count as accepting), the rematch is made and started (newMatchId).',
})
export class RematchOfferModel implements RematchOffer {
  @Field(() => ID, { description: 'The finished match.' }) @ApiProperty({ format: 'uuid' }) matchId!: string;
  @Field(() => RematchStatusEnum, { description: 'Where the offer stands.' })
  @ApiProperty({ enum: RematchStatusEnum })
  status!: string;
  @Field(() => [String], { description: 'The human players who asked so far.' }) @ApiProperty({ type: [String] }) asked!: string[];
  @Field(() => [String], { description: 'The human players of the match: all must ask.' }) @ApiProperty({ type: [String] }) players!: string[];
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) declinedBy!: string | null;
  @Field(() => ID, { nullable: true, description: 'The rematch, once made (its rematchOf is this match).' })
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  newMatchId!: string | null;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) expiresAt!: Date;
}
