import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { MatchStore } from '../events/match-store';
import type { CommandResult } from '../events/match-store';
import { BotSeats } from './bot-seats';
import { Poller } from '../common/poller';

/**
 * The bot seats of this instance: driven after each append here (by the
 * after-append pipeline, src/matches/after-append.ts), and swept every
 * BOT_SWEEP_MS (default 5000; 0: no sweep) for bot turns left by a restart or
 * made due by another instance.
 */
@Injectable()
export class BotSeatsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BotSeats');
  private readonly seats: BotSeats;
  private readonly sweeper: Poller;

  constructor(
    prisma: PrismaService,
    private readonly store: MatchStore,
  ) {
    this.seats = new BotSeats(prisma, store, {
      onError: (matchId, err) => this.logger.warn(`bot seat in match ${matchId}: ${(err as Error)?.message ?? String(err)}`),
    });
    this.sweeper = new Poller('bot sweep', () => this.seats.sweep(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.sweeper.start(Number(process.env.BOT_SWEEP_MS ?? 5000));
  }

  /** False only when the snapshot just cached says no bot is to move (no extra read otherwise). */
  private botMayBeDue(result: Pick<CommandResult, 'matchId' | 'seq'>): boolean {
    const snap = this.store.peek(result.matchId);
    if (!snap || snap.seq !== result.seq) return true;
    const s = snap.state;
    return s.phase === 'playing' && s.turn >= 0 && !!s.seats[s.turn]?.bot;
  }

  /** Plays every due bot turn of the match after this append. */
  driveAfter(result: Pick<CommandResult, 'matchId' | 'seq'>): Promise<void> {
    return this.botMayBeDue(result) ? this.seats.drive(result.matchId) : Promise.resolve();
  }

  async onModuleDestroy(): Promise<void> {
    await this.sweeper.stop();
    await this.seats.close();
  }
}
