/**
 * The per-account cap on live subscriptions held open on this instance,
 * whatever carries them: graphql-ws subscriptions, GraphQL subscriptions over
 * Server-Sent Events (graphql-sse) and the NDJSON streams (`/v1/stream/events`,
 * `/v1/stream/lobby`, `/v1/matches/{id}/stream`) all count toward one WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT;
 * and the `scopa_subscriptions_open` gauge, which follows the same count.
 */
import { Injectable, Optional } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { MetricsService } from '../observability/metrics.service';
import { LimitsConfig } from '../config/slices';

interface Gauge {
  inc(): void;
  dec(): void;
}

/** One open place; `release` is idempotent. */
export interface SubscriptionSlot {
  release(): void;
}

@Injectable()
export class SubscriptionCaps {
  readonly max: number;
  private readonly counts = new Map<string, number>();
  private readonly gauge: Gauge | null;

  constructor(config: LimitsConfig, @Optional() metrics?: MetricsService) {
    this.max = config.WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT;
    this.gauge = metrics?.subscriptionsOpen ?? null;
  }

  /** Takes one place for the account, or says false when it holds `max` already. */
  tryOpen(account: string): boolean {
    const n = this.counts.get(account) ?? 0;
    if (n >= this.max) return false;
    this.counts.set(account, n + 1);
    this.gauge?.inc();
    return true;
  }

  /** Gives back one place taken with tryOpen. */
  close(account: string): void {
    const n = this.counts.get(account);
    if (n === undefined) return;
    if (n > 1) this.counts.set(account, n - 1);
    else this.counts.delete(account);
    this.gauge?.dec();
  }

  /** Takes a place or throws the typed refusal (RATE_LIMITED, reason "subscriptions"). */
  open(account: string): SubscriptionSlot {
    if (!this.tryOpen(account)) throw this.refusal();
    let open = true;
    return {
      release: () => {
        if (!open) return;
        open = false;
        this.close(account);
      },
    };
  }

  /** How many places the account holds on this instance. */
  openFor(account: string): number {
    return this.counts.get(account) ?? 0;
  }

  /** The refusal of one more: the same over graphql-ws, graphql-sse and the NDJSON streams. */
  refusal(): DomainError {
    const max = this.max;
    return new DomainError('RATE_LIMITED', `at most ${max} subscriptions and streams may be open per account on one instance; close one first`, {
      limit: max,
      remaining: 0,
      reason: 'subscriptions',
    });
  }
}
