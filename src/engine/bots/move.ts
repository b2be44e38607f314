/** What a bot does on its turn: play a card, or first declare its hand (cirulla). */
import type { Play } from '../plays';

export type BotMove = { type: 'play'; play: Play } | { type: 'declare'; mattaValue: number | null };
