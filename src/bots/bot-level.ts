/** The levels of the built-in bots, as a GraphQL enum and as the one validation of a level in a DTO. */
import { registerEnumType } from '@nestjs/graphql';
import { IsIn } from 'class-validator';
import { BOT_LEVELS } from '../engine';

export enum BotLevelEnum {
  random = 'random',
  greedy = 'greedy',
  ismcts = 'ismcts',
}
registerEnumType(BotLevelEnum, { name: 'BotLevel' });

/** A field that must name a bot level (VALIDATION_FAILED otherwise). */
export const IsBotLevel = (): PropertyDecorator => IsIn([...BOT_LEVELS]);
