import { ArgsType, Field } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { IsISO8601, ValidateIf } from 'class-validator';

/** A vacation's end: the REST body of POST /v1/account/vacation and the arguments of startVacation. */
@ArgsType()
export class StartVacationInput {
  @Field(() => Date, { description: 'When the vacation ends (ISO 8601, in the future, within what is left of the allowance).' })
  @ApiProperty({ type: String, format: 'date-time', description: 'When the vacation ends (in the future, within what is left of the allowance).' })
  // GraphQL's DateTime scalar hands a Date (checked by the scalar); REST hands the text
  @ValidateIf((o: { until?: unknown }) => !(o.until instanceof Date))
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 date-time' })
  until!: string | Date;
}
