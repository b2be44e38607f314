import { ArgsType, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { BOT_LEVELS } from '../engine';
import { BotLevelEnum, IsBotLevel } from './bot-level';
import { DeclarationModel } from '../rulesets/ruleset.model';

@ObjectType('Hint', { description: 'What the bot of a level would play for my seat now (computed from my seat view only).' })
export class HintModel {
  @Field(() => ID) @ApiProperty() matchId!: string;
  @Field(() => Int, { description: 'The seq the hint is for.' }) @ApiProperty() seq!: number;
  @Field(() => BotLevelEnum, { description: 'The bot level that chose the play.' })
  @ApiProperty({ enum: BOT_LEVELS, description: 'The bot level that chose the play.' })
  level!: string;
  @Field() @ApiProperty({ example: '7D' }) card!: string;
  @Field(() => [String]) @ApiProperty({ type: [String], example: ['3C', '4S'] }) capture!: string[];
  @Field(() => DeclarationModel, {
    nullable: true,
    description:
      'The hand declaration (cirulla) the bot would make before that play, as legalPlays lists it; null: none. card and capture are then its play after declaring.',
  })
  @ApiProperty({
    type: DeclarationModel,
    nullable: true,
    description:
      'The hand declaration (cirulla) the bot would make before that play, as legal-plays lists it; null: none. card and capture are then its play after declaring.',
  })
  declaration!: DeclarationModel | null;
}

/** GET /v1/matches/{id}/hint?level=; the GraphQL arguments add the match. */
@ArgsType()
export class HintQuery {
  @Field(() => BotLevelEnum, { nullable: true })
  @ApiPropertyOptional({ enum: BOT_LEVELS, default: 'greedy' })
  @IsOptional()
  @IsBotLevel()
  level?: `${BotLevelEnum}`;
}

@ArgsType()
export class HintArgs extends HintQuery {
  @Field(() => ID) @IsString() matchId!: string;
}
