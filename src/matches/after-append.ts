/**
 * What follows every append, whoever issued the command (a person through
 * MatchesService, a bot seat, the clock, and the commands to come), in one
 * place: registered once on the store (MatchStore.onAppended), as lichess's
 * round does `handle -> publish`. In order: publish the live notices
 * (src/inbox/turn-notifier.ts) and, when the append started or ended the
 * match, `matchStarted` / `matchEnded` to each human seat
 * (src/inbox/lifecycle-notifier.ts); then a client seed that was the last one
 * missing starts a pending start (src/clocks/pending-starts.ts); then, when a
 * bot is to move, start its chain (src/seats: it plays off the request path)
 * and wait only for the replies due now (up to the next human turn; none in
 * a match without a human seat). Metrics of every command, appended or refused, are recorded
 * from the store's command outcomes (src/observability/command-metrics.service.ts). The durable half is SQL, in the appending statement
 * itself: the trigger `matches_async_play` on `matches` runs
 * `scopa_async_play_after_append()` (prisma/migrations/*_async_play, last
 * replaced in *_match_clock_settings), which writes the match_clocks row of
 * the seat to move and the webhook_deliveries outbox rows, so neither can
 * disagree with the log. Whoever answers with the match after the reactions
 * (the matches service, so that a response already shows the bots' replies
 * due now) awaits MatchStore.settled(result).
 */
import { Injectable } from '@nestjs/common';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { MatchStore } from '../events/match-store';
import type { CommandResult } from '../events/match-store';
import { PendingStarts } from '../clocks/pending-starts';
import { TurnNotifier } from '../inbox/turn-notifier';
import { LifecycleNotifier } from '../inbox/lifecycle-notifier';
import { BotSeatsService } from '../seats/bot-seats.service';

@Injectable()
export class AfterAppend implements OnModuleInit, OnModuleDestroy {
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly store: MatchStore,
    private readonly notifier: TurnNotifier,
    private readonly bots: BotSeatsService,
    private readonly starts: PendingStarts,
    private readonly lifecycle: LifecycleNotifier,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.store.onAppended((result) => this.react(result));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  async react(result: CommandResult): Promise<void> {
    await this.notifier.publishQuietly(result);
    // matchStarted / matchEnded on each human seat's player channel (the event stream, /v1/stream/events).
    await this.lifecycle.afterAppend(result);
    // The last human client seed starts a pending start at once (its own append comes back here, and drives the bots).
    await this.starts.afterAppend(result);
    // A bot's own append needs no new drive: the chain that made it plays on until a human is to move.
    if (!result.events[0]?.actor?.startsWith('bot:')) await this.bots.replyTo(result);
  }
}
