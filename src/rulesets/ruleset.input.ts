import { Field, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString, Length } from 'class-validator';
import { PRESET_IDS } from '../engine';
import { JSONScalar } from '../common/json.scalar';
import { AsSent } from '../common/validation';

@InputType()
export class SaveRulesetInput {
  @Field() @ApiProperty({ example: 'quick scopa' }) @IsString() @Length(1, 100) name!: string;

  @Field({ description: `One of ${PRESET_IDS.join(', ')}.` })
  @ApiProperty({ enum: PRESET_IDS })
  @IsIn(PRESET_IDS as unknown as string[], { message: `preset must be one of ${PRESET_IDS.join(', ')}` })
  preset!: string;

  @Field(() => JSONScalar, { nullable: true, description: 'Option overrides, e.g. {"target": 5}; checked by the engine.' })
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { target: 5 } })
  @AsSent()
  @IsOptional()
  @IsObject()
  overrides?: Record<string, unknown>;
}
