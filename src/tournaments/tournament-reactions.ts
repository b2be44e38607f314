/**
 * A tournament's progress, durably and off the players' requests, as two jobs
 * of the one queue (src/jobs, docs/operations.md "Background work"):
 *
 * - 'tournament-result', keyed `<match>:<seq>`: the append that ends a
 *   table's match queues it in its own transaction (the trigger of
 *   prisma/migrations/20261210010000_durable_reactions; ends from before it
 *   were queued by 20261210040000_tournament_result_backfill). Its handler
 *   records the result in the tournament's log (TournamentsService.matchEnded),
 *   once by the table's `recorded` claim and the log's guard. When that is
 *   the round's last result, the same transaction queues:
 * - 'tournament-round', keyed `<tournament>:<round>` (so queued once
 *   however many transactions complete the round: a result, a withdrawal's
 *   forfeit). Its handler (TournamentsService.advanceRound) ends the round
 *   and pairs the next, making its matches, or ends the tournament, in one
 *   transaction under the tournament's row lock. The fold decides whether the
 *   round is still to advance, so a retry, a job run twice or two workers on
 *   two instances pair a round once.
 *
 * The appending instance only wakes its result worker (`appended`, the
 * after-append step `tournaments`): the play's answer waits for neither job.
 * Tournament reads wait for both (TournamentsService.settle).
 */
import { Injectable } from '@nestjs/common';
import type { OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../jobs/job-queue';
import type { Job } from '../jobs/job-queue';
import { MatchStore } from '../match-store/match-store';
import type { CommandResult } from '../match-store/match-store';
import { mayBeTable } from '../match-store/tournament-tables';
import { TournamentsService } from './tournaments.service';

interface ResultJob {
  matchId: string;
  seq: number;
}

interface RoundJob {
  tournamentId: string;
  round: number;
}

@Injectable()
export class TournamentReactions implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly store: MatchStore,
    private readonly tournaments: TournamentsService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.handle<ResultJob>('tournament-result', (job) => this.run(job));
    await this.jobs.handle<RoundJob>('tournament-round', (job) => this.advance(job));
  }

  /**
   * The after-append step: a match's end that may be a table's (by its snapshot: mayBeTable) wakes this process's
   * result worker for the job its append committed; nothing is awaited, and nothing at all for any other append.
   */
  appended(result: CommandResult): void {
    if (!result.events.some((e) => e.type === 'MatchEnded')) return;
    if (!mayBeTable(this.store.peek(result.matchId))) return;
    this.jobs.notify('tournament-result');
  }

  /** Records the table's result from the match's log (its end as appended). */
  async run(job: Job<ResultJob>): Promise<void> {
    const state = await this.store.state(job.data.matchId);
    if (state.phase !== 'over' || !state.result) throw new Error(`match ${job.data.matchId} is not over at ${job.data.seq}`);
    await this.tournaments.matchEnded(job.data.matchId, { winner: state.result.winner, totals: [...state.scores], reason: state.result.reason });
  }

  /** Ends the job's round and pairs the next (or ends the tournament), unless that was done already. */
  async advance(job: Job<RoundJob>): Promise<void> {
    await this.tournaments.advanceRound(job.data.tournamentId, job.data.round);
  }
}
