/**
 * Live notices after an append, whoever made it (a person through the API, a
 * bot seat, the clock): "the match moved" (with its events) on the match's
 * channel, and "your turn" (with the deadline) to the human to move.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { PUB_SUB } from './realtime.module';
import type { PubSubEngine } from './realtime.module';
import type { CommandResult, TurnRow } from '../match-store/match-store';
import { MatchStore } from '../match-store/match-store';
import { matchChannel, turnChannel } from './channels';
import type { MatchNotice, TurnNotice } from './channels';

@Injectable()
export class TurnNotifier {
  private readonly logger = new Logger('TurnNotifier');

  constructor(
    private readonly store: MatchStore,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
  ) {}

  async published(result: Pick<CommandResult, 'matchId' | 'seq'> & Partial<Pick<CommandResult, 'events'>>): Promise<void> {
    const notice: MatchNotice = {
      matchId: result.matchId,
      seq: result.seq,
      ...(result.events?.length ? { events: result.events.map((e) => ({ ...e, time: e.time.toISOString() })) } : {}),
    };
    // The match's notice goes out even when who is to move cannot be read (the database lost right after the commit):
    // the live feeds need it; the "your turn" is then left out.
    const m = await this.turnAfter(result).catch((err: unknown) => {
      this.logger.warn(`turn after ${result.matchId}@${result.seq} not read: ${(err as Error).message}`);
      return null;
    });
    // Both go out together (one write to Redis), the match's notice first.
    const sent = [this.pubsub.publish(matchChannel(result.matchId), notice)];
    // An append of clock pauses alone (a vacation, scopa-rules/5) keeps the turn where it was: no new "your turn".
    const clockOnly = !!result.events?.length && result.events.every((e) => e.type === 'ClockPaused' || e.type === 'ClockResumed');
    if (m && !clockOnly && m.turn_player !== null && m.turn_seat !== null && !m.turn_player.startsWith('bot:')) {
      const turn: TurnNotice = { matchId: result.matchId, seq: m.current_seq, seat: m.turn_seat, player: m.turn_player, deadline: m.deadline };
      sent.push(this.pubsub.publish(turnChannel(m.turn_player), turn));
    }
    await Promise.all(sent);
  }

  /** Who is to move after the append: from the snapshot this process just cached when it can (an untimed match needs no read). */
  private async turnAfter(result: Pick<CommandResult, 'matchId' | 'seq'>): Promise<TurnRow | null> {
    const snap = this.store.peek(result.matchId);
    if (snap && snap.seq === result.seq && snap.state.settings.turnTimeLimit === null) {
      const s = snap.state;
      if (s.phase !== 'playing' || s.turn < 0) return null;
      return { current_seq: snap.seq, turn_seat: s.turn, turn_player: s.seats[s.turn]?.player ?? null, deadline: null, paused: false };
    }
    return this.store.turn(result.matchId);
  }

  /** published(), never throwing (for background workers). */
  async publishQuietly(result: Pick<CommandResult, 'matchId' | 'seq'> & Partial<Pick<CommandResult, 'events'>>): Promise<void> {
    try {
      await this.published(result);
    } catch (err) {
      this.logger.warn(`notice for ${result.matchId}@${result.seq} not published: ${(err as Error).message}`);
    }
  }
}
