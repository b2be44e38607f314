/** "What would the bot of this level play for me now?": from my seat's view only, on my turn only. */
import { Injectable } from '@nestjs/common';
import { seatOf } from '../engine';
import type { BotLevel, MatchState } from '../engine';
import { DomainError } from '../common/domain-error';
import { MatchStore } from '../events/match-store';
import { botMove, botRng, ismctsBudgetFromEnv } from './bot-seats';

export interface Hint {
  matchId: string;
  seq: number;
  level: BotLevel;
  card: string;
  capture: string[];
}

@Injectable()
export class HintService {
  private readonly budget = ismctsBudgetFromEnv();

  constructor(private readonly store: MatchStore) {}

  /** `level` is checked by the transports (HintQuery, HintArgs). */
  async hint(username: string, matchId: string, level: BotLevel = 'greedy'): Promise<Hint> {
    const { seq, state } = await this.store.current(matchId);
    const seat = seatOf(state, username);
    if (seat < 0) throw new DomainError('NOT_SEATED', 'you hold no seat in this match');
    // The caller holds a person's seat (bots never ask): no help in a rated match.
    if (state.settings.rated) throw new DomainError('HINT_NOT_ALLOWED', 'hints are refused in a rated match');
    if (state.phase === 'over') throw new DomainError('MATCH_OVER', 'the match is over');
    if (state.phase !== 'playing') throw new DomainError('MATCH_NOT_STARTED', 'the match has not started');
    if (state.turn !== seat) throw new DomainError('NOT_YOUR_TURN', 'a hint is for your own turn');
    // botMove builds the seat's view and gives the bot nothing else.
    const move = botMove(level, state, seat, botRng(`hint:${matchId}`, seq), this.budget);
    return { matchId, seq, level, ...move };
  }

}
