/**
 * Matches with no human seat play themselves out on this service's event
 * loop and database, so each account may have only a few live ones (open or
 * playing): BOT_MATCHES_PER_ACCOUNT (default 3; 0 forbids them). One more is
 * refused at creation with LIMIT_REACHED (409) and changes nothing.
 *
 * The count runs in the transaction that creates the match, after the
 * account's advisory lock (pg_advisory_xact_lock): racing creations on any
 * number of instances count one after the other, each from a snapshot taken
 * once the previous one committed, so the limit holds across instances.
 */
import { Injectable } from '@nestjs/common';
import type { SeatSpec } from '../engine';
import { DomainError } from '../common/domain-error';
import { MatchStore } from '../match-store/match-store';
import { AppConfig } from '../config/config';
import type { SqlRunner } from '../match-store/event-store';
import { lockForTransaction } from '../database/advisory-lock';

/** True when no seat is a person's (taken, reserved or open). */
export function botsOnly(seats: readonly SeatSpec[]): boolean {
  return seats.length > 0 && seats.every((s) => !!s.bot);
}

@Injectable()
export class BotMatchLimit {
  /** BOT_MATCHES_PER_ACCOUNT. */
  readonly limit: number;

  constructor(
    private readonly store: MatchStore,
    config: AppConfig,
  ) {
    this.limit = config.BOT_MATCHES_PER_ACCOUNT;
  }

  /** Inside the creating transaction `tx`, when these seats are bots only: the account's lock, then its live bots-only matches counted. */
  async check(tx: SqlRunner, account: string, seats: readonly SeatSpec[]): Promise<void> {
    if (!botsOnly(seats)) return;
    await lockForTransaction(tx, `bot-matches:${account}`);
    const n = await this.store.liveBotOnlyMatches(account, tx);
    if (n >= this.limit) {
      throw new DomainError('LIMIT_REACHED', `an account may have ${this.limit} live matches with no human seat (open or playing); finish one first`, {
        limit: this.limit,
        live: n,
      });
    }
  }
}
