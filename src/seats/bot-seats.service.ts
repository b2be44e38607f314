import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { MatchStore } from '../events/match-store';
import type { CommandResult } from '../events/match-store';
import { MetricsService } from '../observability/metrics.service';
import { TurnNotifier } from '../inbox/turn-notifier';
import { BotSeats } from './bot-seats';
import { Poller } from '../common/poller';

/**
 * The bot seats of this instance: driven after each append here, and swept
 * every BOT_SWEEP_MS (default 5000; 0: no sweep) for bot turns left by a
 * restart or made due by another instance. Also counts plays by source.
 */
@Injectable()
export class BotSeatsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BotSeats');
  readonly seats: BotSeats;
  private readonly sweeper: Poller;
  private unsubscribe: (() => void) | null = null;

  constructor(
    prisma: PrismaService,
    private readonly store: MatchStore,
    private readonly notifier: TurnNotifier,
    private readonly metrics: MetricsService,
  ) {
    this.seats = new BotSeats(prisma, store, {
      onPlayed: (result) => this.notifier.publishQuietly(result),
      onError: (matchId, err) => this.logger.warn(`bot seat in match ${matchId}: ${(err as Error)?.message ?? String(err)}`),
    });
    this.sweeper = new Poller('bot sweep', () => this.seats.sweep(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.unsubscribe = this.store.onAppended((result) => {
      for (const e of result.events) {
        if (e.type === 'CardPlayed') this.metrics.plays.inc({ source: e.actor === null ? 'clock' : e.actor.startsWith('bot:') ? 'bot' : 'human' });
      }
      if (this.botMayBeDue(result)) this.seats.kick(result.matchId);
    });
    this.sweeper.start(Number(process.env.BOT_SWEEP_MS ?? 5000));
  }

  /** False only when the snapshot just cached says no bot is to move (no extra read otherwise). */
  private botMayBeDue(result: Pick<CommandResult, 'matchId' | 'seq'>): boolean {
    const snap = this.store.cache.get(result.matchId);
    if (!snap || snap.seq !== result.seq) return true;
    const s = snap.state;
    return s.phase === 'playing' && s.turn >= 0 && !!s.seats[s.turn]?.bot;
  }

  /** Plays every due bot turn of the match after this append (awaited by the API after a command). */
  driveAfter(result: Pick<CommandResult, 'matchId' | 'seq'>): Promise<void> {
    return this.botMayBeDue(result) ? this.seats.drive(result.matchId) : Promise.resolve();
  }

  async onModuleDestroy(): Promise<void> {
    this.unsubscribe?.();
    await this.sweeper.stop();
    await this.seats.close();
  }
}
