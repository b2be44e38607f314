/**
 * A tournament table's result, durably: the append that ends a table's match
 * queues a 'tournament-result' job in its own transaction (the trigger of
 * prisma/migrations/20261210010000_durable_reactions); this handler records
 * it in the tournament's log (TournamentsService.matchEnded, which also ends
 * the round and pairs the next after its last result). Exactly once by the
 * table's `recorded` claim and the log's guard, so the job, the in-process
 * after-append step of the appending instance (the fast path, still awaited
 * by that play's response) and a retry may all run it.
 */
import { Injectable } from '@nestjs/common';
import type { OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../jobs/job-queue';
import type { Job } from '../jobs/job-queue';
import { MatchStore } from '../match-store/match-store';
import { TournamentsService } from './tournaments.service';

interface ResultJob {
  matchId: string;
  seq: number;
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
  }

  /** Records the table's result from the match's log (its end as appended). */
  async run(job: Job<ResultJob>): Promise<void> {
    const state = await this.store.state(job.data.matchId);
    if (state.phase !== 'over' || !state.result) throw new Error(`match ${job.data.matchId} is not over at ${job.data.seq}`);
    await this.tournaments.matchEnded(job.data.matchId, { winner: state.result.winner, totals: [...state.scores], reason: state.result.reason });
  }
}
