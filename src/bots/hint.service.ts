/** "What would the bot of this level play for me now?": from my seat's view only, on my turn only. */
import { Injectable } from '@nestjs/common';
import { decide, evolve, seatOf } from '../engine';
import type { BotLevel, Declaration, IsmctsOptions } from '../engine';
import { DomainError } from '../common/domain-error';
import { MatchStore } from '../match-store/match-store';
import { botMove, botRng, ismctsBudgetFromEnv } from './bot-seats';
import { AppConfig } from '../config/config';

export interface Hint {
  matchId: string;
  seq: number;
  level: BotLevel;
  card: string;
  capture: string[];
  /** The hand declaration the bot would make before that play (cirulla), or null. */
  declaration: Declaration | null;
}

@Injectable()
export class HintService {
  private readonly budget: IsmctsOptions;

  constructor(
    private readonly store: MatchStore,
    config: AppConfig,
  ) {
    this.budget = ismctsBudgetFromEnv(config);
  }

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
    const rng = botRng(`hint:${matchId}`, seq);
    const move = botMove(level, state, seat, rng, this.budget);
    if (move.type === 'play') return { matchId, seq, level, card: move.card, capture: move.capture, declaration: null };
    // A declaration first: the play is the one the bot makes right after it, from the seat's view once declared.
    const decision = decide({ type: 'declareHand', player: username, mattaValue: move.mattaValue }, state);
    if (!decision.ok) throw new Error(`the ${level} bot declared what the engine refuses: ${decision.rejection.message}`);
    const declared = decision.events.reduce(evolve, state);
    const scored = decision.events.find((e) => e.type === 'HandDeclared');
    const then = botMove(level, declared, seat, rng, this.budget);
    if (then.type !== 'play') throw new Error(`the ${level} bot declared twice in one deal`);
    return {
      matchId,
      seq,
      level,
      card: then.card,
      capture: then.capture,
      declaration: { mattaValue: move.mattaValue, points: scored?.type === 'HandDeclared' ? scored.scope : 0 },
    };
  }
}
