/**
 * Prometheus metrics (prom-client). One registry per app instance, so tests
 * that boot several apps in one process do not collide.
 */
import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly plays = new Counter({
    name: 'scopa_plays_total',
    help: 'Plays accepted, by how they were made',
    labelNames: ['source'] as const, // human | bot | clock
    registers: [this.registry],
  });

  readonly playLatency = new Histogram({
    name: 'scopa_play_latency_seconds',
    help: 'Time to decide and durably append a play',
    buckets: [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });

  readonly rejections = new Counter({
    name: 'scopa_commands_rejected_total',
    help: 'Commands refused, by error code',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  readonly subscriptionsOpen = new Gauge({
    name: 'scopa_subscriptions_open',
    help: 'Subscriptions and streams currently open on this instance (graphql-ws and graphql-sse subscriptions, NDJSON streams)',
    registers: [this.registry],
  });

  readonly clockExpiries = new Counter({
    name: 'scopa_clock_expiries_total',
    help: 'Turn clocks that ran out, by the policy applied',
    labelNames: ['policy'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'scopa_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome',
    labelNames: ['outcome'] as const, // delivered | failed | gave_up
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
