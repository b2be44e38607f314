/**
 * Takes a rated match into the ratings right after its end is appended here
 * (a step of the after-append pipeline, src/reactions/after-append.ts): the
 * instance that appended MatchEnded records it (the store tells only the
 * appending process). One queue per process keeps this process's matches in
 * the order they ended. Exactly once across instances: RatingStore.record's
 * key. A reaction lost in a crash is made good by `npm run ratings:rebuild`.
 */
import { Injectable, Logger } from '@nestjs/common';
import type { OnModuleDestroy } from '@nestjs/common';
import { MatchStore } from '../match-store/match-store';
import type { CommandResult } from '../match-store/match-store';
import { RatingsService } from './ratings.service';

@Injectable()
export class RatingsRecorder implements OnModuleDestroy {
  private readonly logger = new Logger('Ratings');
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: MatchStore,
    private readonly ratings: RatingsService,
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.idle();
  }

  /** Resolves once every match ended so far in this process is recorded. */
  idle(): Promise<void> {
    return this.queue;
  }

  /** After-append step: queues a rated match's end; returns at once for any other append (unrated: known from the cached snapshot, no read). */
  appended(result: CommandResult): void {
    if (!result.events.some((e) => e.type === 'MatchEnded')) return;
    const snap = this.store.peek(result.matchId);
    if (snap && snap.seq >= result.seq && !snap.state.settings.rated) return;
    this.queue = this.queue.then(() => this.record(result.matchId, result.seq));
  }

  private async record(matchId: string, seq: number): Promise<void> {
    try {
      // The snapshot this append left in the cache says whether the match is rated: no read for an unrated one.
      const snap = await this.store.atLeast(matchId, seq);
      if (!snap.state.settings.rated) return;
      const outcome = await this.ratings.record(matchId);
      if (outcome === 'rated') this.logger.debug?.(`match ${matchId} rated`);
    } catch (err) {
      this.logger.error(`match ${matchId}: ratings not recorded (npm run ratings:rebuild makes them good): ${(err as Error).message}`);
    }
  }
}
