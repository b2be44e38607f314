import { ArgsType, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** GET /v1/inbox?limit= and the GraphQL arguments of inbox. */
@ArgsType()
export class InboxQuery {
  @Field(() => Int, { nullable: true })
  @ApiPropertyOptional({ default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

@ObjectType('InboxEntry', { description: 'A match where it is my turn.' })
export class InboxEntryModel {
  @Field(() => ID) @ApiProperty() matchId!: string;
  @Field() @ApiProperty() preset!: string;
  @Field(() => Int, { description: 'The current seq: send it as expectedSeq (REST: If-Match).' }) @ApiProperty() seq!: number;
  @Field(() => Int, { description: 'My seat.' }) @ApiProperty() seat!: number;
  @Field(() => Date, { nullable: true, description: 'When my turn clock runs out; null for an untimed match.' })
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  deadline!: Date | null;
  @Field(() => Date, { description: 'When the turn came.' }) @ApiProperty({ type: String, format: 'date-time' }) since!: Date;
  @Field({ description: 'Less than CLOCK_LOW_FRACTION (default 10%) of the turn time limit is left.' }) @ApiProperty() clockLow!: boolean;
}
