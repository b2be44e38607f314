import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { JSONScalar } from '../common/json.scalar';
import { WEBHOOK_EVENTS } from './webhooks.service';

export enum DeliveryStatusEnum {
  pending = 'pending',
  delivered = 'delivered',
  failed = 'failed',
}
registerEnumType(DeliveryStatusEnum, {
  name: 'DeliveryStatus',
  description: 'pending: an attempt is due (nextAttemptAt); delivered: a 2xx answered; failed: the attempts ran out.',
});

export enum WebhookEventEnum {
  your_turn = 'your_turn',
  match_finished = 'match_finished',
  match_started = 'match_started',
  challenge_received = 'challenge_received',
  challenge_accepted = 'challenge_accepted',
  challenge_declined = 'challenge_declined',
  clock_low = 'clock_low',
  analysis_ready = 'analysis_ready',
  tournament_round_paired = 'tournament_round_paired',
}
registerEnumType(WebhookEventEnum, {
  name: 'WebhookEvent',
  description:
    'your_turn: a human seat of mine is to move; match_finished: a match I sat in is over; match_started: a seek of mine was paired into a new match; challenge_received: someone challenged me; challenge_accepted / challenge_declined: the answer to my challenge; clock_low: less than CLOCK_LOW_FRACTION of my turn is left (once per turn); analysis_ready: a post-game analysis I asked for, or of a match I played, is done; tournament_round_paired: a round of a tournament I play in was paired (my match, or a bye).',
});

@ObjectType('Webhook')
export class WebhookModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field() @ApiProperty() url!: string;
  @Field(() => [WebhookEventEnum]) @ApiProperty({ enum: WEBHOOK_EVENTS, isArray: true }) events!: string[];
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
}

@ObjectType('CreatedWebhook', { description: 'A new webhook, with its signing secret: shown this once.' })
export class CreatedWebhookModel extends WebhookModel {
  @Field({ description: 'HMAC-SHA256 key of the Scopa-Signature header. Shown once.' }) @ApiProperty() secret!: string;
}

@ObjectType('WebhookDelivery')
export class WebhookDeliveryModel {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field(() => ID) @ApiProperty() webhookId!: string;
  @Field(() => WebhookEventEnum) @ApiProperty({ enum: WEBHOOK_EVENTS }) event!: string;
  @Field(() => JSONScalar, { description: 'The data sent: match id, seq, seat, deadline, result. Never a hand.' })
  @ApiProperty({ type: 'object', additionalProperties: true })
  payload!: unknown;
  @Field(() => DeliveryStatusEnum) @ApiProperty({ enum: DeliveryStatusEnum }) status!: string;
  @Field(() => Int) @ApiProperty() attempts!: number;
  @Field(() => Date, { nullable: true, description: 'When the next attempt is due (pending only).' })
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  nextAttemptAt!: Date | null;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) lastError!: string | null;
  @Field(() => Int, { nullable: true, description: 'HTTP status of the last attempt.' }) @ApiProperty({ type: Number, nullable: true }) responseCode!:
    number | null;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
  @Field(() => Date, { nullable: true }) @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt!: Date | null;
}

@InputType('CreateWebhookInput')
export class CreateWebhookInput {
  @Field({ description: 'An http(s) URL.' })
  @ApiProperty({ example: 'https://example.com/scopa-hook' })
  @IsString()
  @MaxLength(2000)
  url!: string;

  @Field(() => [WebhookEventEnum], { nullable: true, description: 'Default: all.' })
  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @IsIn([...WEBHOOK_EVENTS], { each: true })
  events?: WebhookEventEnum[];
}

export class DeliveriesQuery {
  @ApiPropertyOptional() @IsOptional() @IsUUID() webhookId?: string;
  @ApiPropertyOptional({ default: 50 }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(500) limit?: number;
}
