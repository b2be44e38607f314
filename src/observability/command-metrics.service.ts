import { Injectable } from '@nestjs/common';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { MatchesService } from '../matches/matches.service';
import type { CommandOutcome } from '../matches/match-store';
import { MetricsService } from './metrics.service';

/**
 * Records what the match store reports of each command, whoever sent it (API,
 * bot seat, clock): scopa_play_latency_seconds for a command that appended a
 * play (decision and durable append), scopa_commands_rejected_total{code} for
 * a refused one.
 */
@Injectable()
export class CommandMetricsService implements OnModuleInit, OnModuleDestroy {
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly store: MatchesService,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.store.onCommand((outcome) => this.record(outcome));
  }

  record(outcome: CommandOutcome): void {
    if ('rejected' in outcome) this.metrics.rejections.inc({ code: outcome.rejected });
    else if (outcome.appended.events.some((e) => e.type === 'CardPlayed')) this.metrics.playLatency.observe(outcome.seconds);
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }
}
