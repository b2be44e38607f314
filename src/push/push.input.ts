import { Field, Float, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsNumber, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { PUSH_KINDS } from './push-kinds';
import { PushKindEnum } from './push.model';

@InputType('PushSubscriptionKeysInput', { description: "The browser's keys of a push subscription (PushSubscription.toJSON().keys)." })
export class PushSubscriptionKeysInput {
  @Field({ description: "The browser's ECDH P-256 public key: base64url of the uncompressed point (65 bytes)." })
  @ApiProperty({ description: "The browser's ECDH P-256 public key: base64url of the uncompressed point (65 bytes)." })
  @IsString()
  @MaxLength(200)
  p256dh!: string;

  @Field({ description: "The browser's authentication secret: base64url of 16 bytes." })
  @ApiProperty({ description: "The browser's authentication secret: base64url of 16 bytes." })
  @IsString()
  @MaxLength(100)
  auth!: string;
}

@InputType('AddPushSubscriptionInput', {
  description:
    "A browser's push subscription (the JSON of PushManager.subscribe's PushSubscription) and the kinds it wants. The same endpoint again replaces its keys and kinds: that is how kinds are switched on and off.",
})
export class AddPushSubscriptionInput {
  @Field({ description: "The push service's URL: https, on a public address (the webhooks' target policy; PUSH_ALLOW_PRIVATE lifts it)." })
  @ApiProperty({
    description: "The push service's URL: https, on a public address (the webhooks' target policy; PUSH_ALLOW_PRIVATE lifts it).",
    example: 'https://fcm.googleapis.com/fcm/send/dXJ...',
  })
  @IsString()
  @MaxLength(2000)
  endpoint!: string;

  @Field(() => Float, { nullable: true, description: 'As the browser gives it (PushSubscription.expirationTime); not used.' })
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'As the browser gives it (PushSubscription.expirationTime); not used.' })
  @IsOptional()
  @IsNumber()
  expirationTime?: number | null;

  @Field(() => PushSubscriptionKeysInput, { description: "The browser's keys." })
  @ApiProperty({ type: PushSubscriptionKeysInput, description: "The browser's keys." })
  @IsObject()
  @ValidateNested()
  @Type(() => PushSubscriptionKeysInput)
  keys!: PushSubscriptionKeysInput;

  @Field(() => [PushKindEnum], { nullable: true, description: 'The kinds to be told of (default: all). Unknown kinds are VALIDATION_FAILED.' })
  @ApiPropertyOptional({ enum: PUSH_KINDS, isArray: true, description: 'The kinds to be told of (default: all). Unknown kinds are VALIDATION_FAILED.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(PUSH_KINDS.length)
  kinds?: PushKindEnum[];
}
