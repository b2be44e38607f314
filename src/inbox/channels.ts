/** The pub/sub channels of live notices (GraphQL subscriptions), and their messages. */

export const matchChannel = (matchId: string): string => `match:${matchId}`;
export const turnChannel = (player: string): string => `turn:${player}`;

/** "The log of this match has moved to seq": subscribers read the events from the log. */
export interface MatchNotice {
  matchId: string;
  seq: number;
}

/** "It is your turn": sent to the player to move after each append. */
export interface TurnNotice {
  matchId: string;
  seq: number;
  seat: number;
  player: string;
  /** When the turn clock runs out; null for an untimed match. */
  deadline: Date | null;
}
