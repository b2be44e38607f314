import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { JOB_KIND_NAMES } from '../jobs/job-kinds';

/** The job states an operator may list: only the dead letters (jobs failed for good). */
export const ADMIN_JOB_STATES = ['failed'] as const;

export class AdminJobsQuery {
  @ApiProperty({ enum: ADMIN_JOB_STATES, description: 'Only `failed` (the jobs that failed for good and are kept) is listed.' })
  @IsIn(ADMIN_JOB_STATES, { message: 'only failed is supported' })
  state!: (typeof ADMIN_JOB_STATES)[number];
  @ApiPropertyOptional({ enum: JOB_KIND_NAMES }) @IsOptional() @IsIn(JOB_KIND_NAMES) kind?: (typeof JOB_KIND_NAMES)[number];
  @ApiPropertyOptional({ default: 50 }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(500) limit?: number;
  @ApiPropertyOptional({ default: 0 }) @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(100_000) offset?: number;
}

export class AdminJobModel {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: JOB_KIND_NAMES }) kind!: string;
  @ApiProperty() state!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'What the job is about: ids and seqs only.' })
  data!: unknown;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'The error of its last run.' })
  error!: unknown;
  @ApiProperty() retryCount!: number;
  @ApiProperty() retryLimit!: number;
  @ApiProperty({ type: String, format: 'date-time' }) createdOn!: Date;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedOn!: Date | null;
}
