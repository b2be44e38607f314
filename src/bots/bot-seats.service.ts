import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { MatchStore } from '../match-store/match-store';
import type { CommandResult } from '../match-store/match-store';
import { BotSeats, ismctsBudgetFromEnv } from './bot-seats';
import { Scheduler } from '../jobs/scheduler';
import type { PeriodicTask } from '../jobs/scheduler';
import { AppConfig } from '../config/config';

/**
 * The bot seats of this instance: driven after each append here (by the
 * after-append pipeline, src/reactions/after-append.ts), off the request path
 * (./bot-seats.ts), and swept every BOT_SWEEP_MS (default 5000; 0: no sweep)
 * for bot turns left by a restart or by an instance that stopped mid-chain
 * (a periodic task of the one scheduler, src/jobs/scheduler.ts).
 */
@Injectable()
export class BotSeatsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BotSeats');
  private readonly seats: BotSeats;
  private readonly sweeper: PeriodicTask;
  private readonly sweepMs: number;

  constructor(
    private readonly store: MatchStore,
    config: AppConfig,
    scheduler: Scheduler,
  ) {
    this.sweepMs = config.BOT_SWEEP_MS;
    this.seats = new BotSeats(store, {
      ismcts: ismctsBudgetFromEnv(config),
      onError: (matchId, err) => this.logger.warn(`bot seat in match ${matchId}: ${(err as Error)?.message ?? String(err)}`),
    });
    this.sweeper = scheduler.task('bot sweep', () => this.seats.sweep());
  }

  onApplicationBootstrap(): void {
    this.sweeper.start(this.sweepMs);
  }

  /**
   * After an append that is not a bot's own: starts the match's bot chain
   * when a bot may be due, and resolves once the replies a response should
   * show are played (up to the next human turn; none without a human seat).
   * The snapshot just cached answers both questions without a read; so does
   * a later one (the match moved on meanwhile: if a bot was due after this
   * append, it is the bot that moved, and the later append has its own
   * reaction). Only a missing or older snapshot sends the chain to the log.
   */
  replyTo(result: Pick<CommandResult, 'matchId' | 'seq'>): Promise<void> {
    const snap = this.store.peek(result.matchId);
    if (!snap || snap.seq < result.seq) return this.seats.replies(result.matchId);
    const s = snap.state;
    if (s.phase !== 'playing' || s.turn < 0 || !s.seats[s.turn]?.bot) return Promise.resolve();
    if (s.seats.every((seat) => seat.bot)) {
      void this.seats.drive(result.matchId);
      return Promise.resolve();
    }
    return this.seats.replies(result.matchId);
  }

  async onModuleDestroy(): Promise<void> {
    await this.sweeper.stop();
    await this.seats.close();
  }
}
