/**
 * Takes a rated match into the ratings, durably: the append that ends a rated
 * match queues a 'match-rating' job in its own transaction (the trigger of
 * prisma/migrations/20261210010000_durable_reactions), so a crash between the
 * append and the rating loses nothing; a worker of any process runs it.
 *
 * Ratings are applied in the order the matches ended (a player's rating
 * depends on it), whichever worker runs them:
 * - the queue is a singleton (one rating job active at a time across every
 *   worker), fetched oldest first, and a job's creation time is its append's
 *   now(), the match's ended_at (and its MatchEnded event's time);
 * - before rating, the job waits until no transaction that began before its
 *   match ended is still open, then first rates every rating job made before
 *   it still waiting (one that failed and waits for its retry, or whose
 *   transaction committed after this one's), compared to the microsecond
 *   in SQL, ties by match id, the order of ratings:rebuild.
 * Exactly once: RatingStore.record's key (rated_matches), so a job run twice,
 * or a match rated ahead of its own job, changes nothing.
 *
 * The after-append step left here only wakes this process's worker (the job is
 * already committed): no read, nothing awaited by the play's response.
 */
import { Injectable, Logger } from '@nestjs/common';
import type { OnModuleInit } from '@nestjs/common';
import type { CommandResult } from '../match-store/match-store';
import { JobQueue } from '../jobs/job-queue';
import type { Job } from '../jobs/job-queue';
import { RatingsService } from './ratings.service';

interface RatingJob {
  matchId: string;
  seq: number;
}

@Injectable()
export class RatingsRecorder implements OnModuleInit {
  private readonly logger = new Logger('Ratings');

  constructor(
    private readonly ratings: RatingsService,
    private readonly jobs: JobQueue,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.handle<RatingJob>('match-rating', (job) => this.run(job));
  }

  /** Resolves once no rating job is left to run (bounded): every rated match ended so far is in the ratings. */
  async idle(timeoutMs = 30_000): Promise<void> {
    this.jobs.notify('match-rating');
    const until = Date.now() + timeoutMs;
    while ((await this.jobs.unfinished('match-rating')) > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
  }

  /** After-append step: a match's end wakes the rating worker of this process (its job was queued by the append). */
  appended(result: CommandResult): void {
    if (result.events.some((e) => e.type === 'MatchEnded')) this.jobs.notify('match-rating');
  }

  /** A rating job: the earlier ones still waiting first, then its own match. */
  async run(job: Job<RatingJob>): Promise<void> {
    await this.jobs.writesSettledBefore(job);
    // ties (one batched append ended both) by match id, as ratings:rebuild orders them
    for (const earlier of await this.jobs.waitingBefore(job, 'matchId')) await this.record(earlier.data.matchId);
    await this.record(job.data.matchId);
  }

  private async record(matchId: string): Promise<void> {
    const outcome = await this.ratings.record(matchId);
    if (outcome === 'rated') this.logger.debug?.(`match ${matchId} rated`);
  }
}
