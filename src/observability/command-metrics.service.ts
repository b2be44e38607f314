import { Injectable } from '@nestjs/common';
import type { CommandOutcome } from '../match-store/match-store';
import { MetricsService } from './metrics.service';

/**
 * Records what the match store reports of each command, whoever sent it (API,
 * bot seat, clock): scopa_plays_total{source} and scopa_play_latency_seconds
 * (decision and durable append) for a command that appended a play,
 * scopa_commands_rejected_total{code} for a refused one. A step of the
 * after-append pipeline (src/reactions/after-append.ts), fed by
 * MatchStore.onCommand.
 */
@Injectable()
export class CommandMetricsService {
  constructor(private readonly metrics: MetricsService) {}

  record(outcome: CommandOutcome): void {
    if ('rejected' in outcome) {
      this.metrics.rejections.inc({ code: outcome.rejected });
      return;
    }
    const plays = outcome.appended.events.filter((e) => e.type === 'CardPlayed');
    if (plays.length === 0) return;
    this.metrics.playLatency.observe(outcome.seconds);
    for (const e of plays) this.metrics.plays.inc({ source: e.actor === null ? 'clock' : e.actor.startsWith('bot:') ? 'bot' : 'human' });
  }
}
