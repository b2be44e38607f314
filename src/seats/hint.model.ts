import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { BOT_LEVELS } from '../engine';

@ObjectType('Hint', { description: 'What the bot of a level would play for my seat now (computed from my seat view only).' })
export class HintModel {
  @Field(() => ID) @ApiProperty() matchId!: string;
  @Field(() => Int, { description: 'The seq the hint is for.' }) @ApiProperty() seq!: number;
  @Field({ description: 'random | greedy | ismcts' }) @ApiProperty({ enum: BOT_LEVELS }) level!: string;
  @Field() @ApiProperty({ example: '7D' }) card!: string;
  @Field(() => [String]) @ApiProperty({ type: [String], example: ['3C', '4S'] }) capture!: string[];
}

export class HintQuery {
  @ApiPropertyOptional({ enum: BOT_LEVELS, default: 'greedy' }) @IsOptional() @IsIn([...BOT_LEVELS]) level?: string;
}
