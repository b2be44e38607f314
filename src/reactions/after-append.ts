/**
 * What follows every command, whoever issued it (a player through
 * MatchesService, the clock, a bot seat, and the match maker for a create, a
 * challenge, seek pairing and a rematch: src/matches/match-maker.ts): ONE
 * ordered pipeline, declared here and nowhere else,
 * as lichess's round does `handle -> publish`. It is the only registration on
 * the store's two hooks (MatchStore.onAppended, and MatchStore.onCommand for
 * the one step that also counts refusals); src/reactions/after-append.spec.ts
 * fails if another registration appears and pins the order below.
 *
 * The steps, in order (AFTER_APPEND_STEPS):
 * 0. `clockAndOutbox`, in SQL, inside the appending statement itself: the
 *    trigger `matches_async_play` on `matches` runs
 *    `scopa_async_play_after_append()`, defined in
 *    prisma/migrations/20261122210326_async_play/migration.sql and last
 *    replaced in prisma/migrations/20261213000000_push_in_append_trigger/migration.sql (the vacations'
 *    migration taught it the clock pauses, this one the `yourTurn` push);
 *    it writes the match_clocks row of the seat to move (or drops a pending
 *    start once the match starts) and, through the outbox's one writer
 *    `scopa_enqueue_webhook` (src/webhooks/outbox.ts), the `your_turn` and
 *    `match_finished` webhooks, so neither can disagree with the log; and, at a match's end, the
 *    durable reactions as jobs of the one queue (src/jobs): `match-rating` for a rated match,
 *    `tournament-result` for a tournament table, committed with the append, run by workers of any
 *    process, retried, exactly once by their own keys (docs/operations.md "Background work"); and, when
 *    the turn passes, the `yourTurn` Web Push of the player to move, a `push-delivery` job per subscription
 *    (src/push);
 * 1. `metrics` of the command, appended or refused (src/observability/command-metrics.service.ts,
 *    from MatchStore.onCommand: it alone sees refusals and the decide+append time); recorded
 *    synchronously as the store reports the outcome, before any step below has finished;
 * 2. `turnNotices`: the match's notice and "your turn" (src/realtime/turn-notifier.ts);
 * 3. `lifecycleNotices`: `matchStarted` / `matchEnded` to each human seat (src/inbox/lifecycle-notifier.ts);
 * 4. `lobby`: the lobby change of a public match that is or was open (src/lobby/lobby.service.ts);
 *    returns at once, with no read, for a private match, a match created full or started, or one
 *    already in play; the start or end of an open public match is its removal, with no read either;
 *    an entry added or updated comes from the snapshot of the append (read only without one);
 * 5. `ratings`: a match's end wakes this process's rating worker (its job is already committed by
 *    step 0; src/ratings/ratings-recorder.service.ts); nothing for any other append;
 * 6. `tournaments`: a private match's end (every tournament table is private) wakes this process's
 *    tournament-result worker (its job is already committed by step 0; src/tournaments/tournament-reactions.ts);
 *    not awaited, no read: the result, the round's end, the next pairing and its matches are jobs, so
 *    the play that ends a round's last game does not wait for them; nothing for any other append;
 * 7. `pendingStart`: the last client seed starts a pending start at once, so that its answer shows
 *    the match dealt (src/clocks/pending-starts.ts; the start's own append comes back through here);
 *    returns at once, with no read, for an append that gives no client seed or takes a seat (a start is
 *    asked for only once every seat is taken, so none waits yet). Only the fast path: the
 *    durable start is the clocks' due-now 'match-deadline' job for a pending start whose match had
 *    appends (queued by the clock scan from the committed rows, src/clocks/clock-scheduler.ts);
 * 8. `botTurns`: when a bot is to move, start its chain (src/bots/bot-seats.service.ts: it plays off the request
 *    path) and wait only for the replies due now (up to the next human turn);
 * 9. `vacations`: a correspondence match that seats a player on vacation, or starts with one, gets that seat's
 *    turn clock paused (src/vacations/vacations.service.ts matchAppended; a turn that comes to a paused seat
 *    starts paused); returns at once, with no read, for any other append (a play, a pause).
 *
 * An import (MatchStore.importJsonl) appends nothing through the store: it
 * stores a finished, never-rated match, which none of steps 1 to 9 concerns.
 *
 * A step's failure is its own (logged); the next steps still run. Whoever
 * answers with the match after the reactions (the matches service, so that a
 * response already shows the bots' replies due now) awaits
 * MatchStore.settled(result).
 */
import { Injectable, Logger } from '@nestjs/common';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { MatchStore } from '../match-store/match-store';
import type { CommandOutcome, CommandResult } from '../match-store/match-store';
import { PendingStarts } from '../clocks/pending-starts';
import { TurnNotifier } from '../realtime/turn-notifier';
import { LifecycleNotifier } from '../inbox/lifecycle-notifier';
import { LobbyService } from '../lobby/lobby.service';
import { CommandMetricsService } from '../observability/command-metrics.service';
import { RatingsRecorder } from '../ratings/ratings-recorder.service';
import { BotSeatsService } from '../bots/bot-seats.service';
import { TournamentReactions } from '../tournaments/tournament-reactions';
import { VacationsService } from '../vacations/vacations.service';

/** The pipeline's steps, in the order they run after each append (step 0 runs in SQL, step 1 on every command outcome). */
export const AFTER_APPEND_STEPS = [
  'clockAndOutbox',
  'metrics',
  'turnNotices',
  'lifecycleNotices',
  'lobby',
  'ratings',
  'tournaments',
  'pendingStart',
  'botTurns',
  'vacations',
] as const;
export type AfterAppendStep = (typeof AFTER_APPEND_STEPS)[number];

/** Where step 0 lives: the trigger function and the migration that defines it as it runs today. */
export const SQL_STEP = {
  trigger: 'matches_async_play',
  function: 'scopa_async_play_after_append',
  definedIn: 'prisma/migrations/20261122210326_async_play/migration.sql',
  lastReplacedIn: 'prisma/migrations/20261213000000_push_in_append_trigger/migration.sql',
} as const;

@Injectable()
export class AfterAppend implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AfterAppend');
  private readonly unsubscribe: (() => void)[] = [];
  /** The in-process steps that follow an append, in AFTER_APPEND_STEPS order. */
  private readonly steps: readonly [AfterAppendStep, (result: CommandResult) => void | Promise<void>][];

  constructor(
    private readonly store: MatchStore,
    private readonly metrics: CommandMetricsService,
    private readonly notifier: TurnNotifier,
    private readonly lifecycle: LifecycleNotifier,
    private readonly lobby: LobbyService,
    private readonly ratings: RatingsRecorder,
    private readonly starts: PendingStarts,
    private readonly bots: BotSeatsService,
    private readonly tournaments: TournamentReactions,
    private readonly vacations: VacationsService,
  ) {
    this.steps = [
      ['turnNotices', (r) => this.notifier.publishQuietly(r)],
      ['lifecycleNotices', (r) => this.lifecycle.afterAppend(r)],
      ['lobby', (r) => this.lobby.publishChange(r)],
      // queued, not awaited: a response does not wait for the ratings (RatingsRecorder.idle does)
      ['ratings', (r) => this.ratings.appended(r)],
      // queued, not awaited: a response does not wait for the result nor the next round (tournament reads do)
      ['tournaments', (r) => this.tournaments.appended(r)],
      ['pendingStart', (r) => this.starts.afterAppend(r)],
      // A bot's own append needs no new drive: the chain that made it plays on until a human is to move.
      ['botTurns', (r) => (r.events[0]?.actor?.startsWith('bot:') ? undefined : this.bots.replyTo(r))],
      ['vacations', (r) => this.vacations.matchAppended(r)],
    ];
  }

  onModuleInit(): void {
    this.unsubscribe.push(
      this.store.onCommand((outcome) => this.commanded(outcome)),
      this.store.onAppended((result) => this.react(result)),
    );
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /** Step 1, on every command's outcome (appended or refused). */
  commanded(outcome: CommandOutcome): void {
    this.metrics.record(outcome);
  }

  /** Steps 2 to 9, one after the other, after an append. */
  async react(result: CommandResult): Promise<void> {
    for (const [name, step] of this.steps) {
      try {
        // A step with nothing to do for this append may return nothing (ratings, tournaments, a bot's own append): no wait then.
        const pending = step(result);
        if (pending) await pending;
      } catch (err) {
        this.logger.warn(`${name} after ${result.matchId}@${result.seq}: ${(err as Error).message}`);
      }
    }
  }

  /** The names of the in-process steps, in the order react() runs them. */
  order(): AfterAppendStep[] {
    return this.steps.map(([name]) => name);
  }
}
