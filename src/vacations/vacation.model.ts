import { Field, Float, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { VacationStatus } from './vacations.service';

@ObjectType('Vacation', { description: 'My vacation for correspondence play and what is left of my allowance (docs/async-play.md "Vacations").' })
export class VacationModel implements VacationStatus {
  @Field(() => Date, { nullable: true, description: 'When my running vacation ends; null when I am not on vacation.' })
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When my running vacation ends; null when I am not on vacation.' })
  onVacationUntil!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When my running vacation started; null when I am not on vacation.' })
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When my running vacation started; null when I am not on vacation.' })
  startedAt!: Date | null;

  @Field(() => Int, { description: 'Days of vacation an account may take in any 365 days (VACATION_DAYS_PER_YEAR).' })
  @ApiProperty({ description: 'Days of vacation an account may take in any 365 days (VACATION_DAYS_PER_YEAR).' })
  allowanceDays!: number;

  @Field(() => Float, {
    description: 'Days of the allowance left now: the allowance less the vacations that started in the last 365 days (a running one counted to its end).',
  })
  @ApiProperty({
    description: 'Days of the allowance left now: the allowance less the vacations that started in the last 365 days (a running one counted to its end).',
  })
  daysLeft!: number;
}
