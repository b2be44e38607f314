/**
 * Matches with no human seat play themselves out on this service's event
 * loop and database, so each account may have only a few live ones (open or
 * playing): BOT_MATCHES_PER_ACCOUNT (default 3; 0 forbids them). One more is
 * refused at creation with LIMIT_REACHED (409) and changes nothing.
 *
 * The count and the creation run one at a time per account in this process,
 * so racing requests to one instance cannot pass the limit together; racing
 * requests to several instances can each pass it once (the limit is a bound
 * on load, not an invariant of the data).
 */
import { Injectable } from '@nestjs/common';
import type { SeatSpec } from '../engine';
import { DomainError } from '../common/domain-error';
import { MatchStore } from '../events/match-store';
import { AppConfig } from '../config/config';

/** True when no seat is a person's (taken, reserved or open). */
export function botsOnly(seats: readonly SeatSpec[]): boolean {
  return seats.length > 0 && seats.every((s) => !!s.bot);
}

@Injectable()
export class BotMatchLimit {
  /** BOT_MATCHES_PER_ACCOUNT. */
  readonly limit: number;
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly store: MatchStore,
    config: AppConfig,
  ) {
    this.limit = config.BOT_MATCHES_PER_ACCOUNT;
  }

  /** Runs `create`, after checking the account's live bots-only matches when these seats are bots only. */
  async create<T>(account: string, seats: readonly SeatSpec[], create: () => Promise<T>): Promise<T> {
    if (!botsOnly(seats)) return create();
    return this.oneAtATime(account, async () => {
      const n = await this.store.liveBotOnlyMatches(account);
      if (n >= this.limit) {
        throw new DomainError('LIMIT_REACHED', `an account may have ${this.limit} live matches with no human seat (open or playing); finish one first`, {
          limit: this.limit,
          live: n,
        });
      }
      return create();
    });
  }

  private async oneAtATime<T>(account: string, run: () => Promise<T>): Promise<T> {
    const before = this.queues.get(account) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.queues.set(account, tail);
    await before;
    try {
      return await run();
    } finally {
      release();
      if (this.queues.get(account) === tail) this.queues.delete(account);
    }
  }
}
