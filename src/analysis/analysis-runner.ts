/**
 * What a worker does with one analysis job: read the match's log through the
 * store, run the analyzer one decision at a time (publishing the progress,
 * giving the event loop a turn between decisions), then write the result
 * once. The same code runs in the service (ANALYSIS_WORKERS) and in
 * `npm run worker`.
 *
 * Exactly once: the result is written by `UPDATE ... WHERE status <> 'done'`,
 * so a job run twice (retried after its worker was presumed dead while it
 * was in fact still running) writes one result and tells it once; a job
 * whose analysis is already done returns at once.
 */
import { hostname } from 'node:os';
import type { NoticePublisher } from '../realtime/pg-notices';
import type { Prisma } from '../database/database';
import { joinEvent } from '../match-formats/chain';
import type { MatchStore } from '../match-store/match-store';
import type { StoredEvent } from '../match-formats/chain';
import { enqueueWebhooks } from '../webhooks/outbox';
import { enqueuePushes } from '../push/push-outbox';
import { playerChannel } from '../realtime/channels';
import type { PlayerEvent } from '../inbox/player-events';
import { analyzeMatchSteps, analyzerFromKey } from './analyzer';
import type { MatchAnalysis } from './analyzer';
import type { AnalysisJob } from './analysis-queue';
import { analysisChannel, progressOf } from './analysis-progress';
import type { AnalysisProgressMessage } from './analysis-progress';
import { AnalysisStore } from './analysis-store';
import type { WorkerRow } from './analysis-store';

/** A log holds at most this many events (a long cirulla match has about a thousand). */
export const MAX_EVENTS = 20_000;
/** How often a running analysis writes its progress to its row and publishes it. */
const PROGRESS_EVERY_MS = 500;

export class AnalysisRunner {
  readonly name = `${hostname()}:${process.pid}`;
  private stopping = false;
  private readonly rows: AnalysisStore;

  constructor(
    private readonly prisma: Prisma,
    private readonly store: MatchStore,
    private readonly pubsub: NoticePublisher,
    private readonly log: (line: string) => void = () => undefined,
    /** The finished match's log, from the read replica when it has it (MatchArchive.finishedLog); null: read through the store. */
    private readonly finishedLog: (matchId: string, limit: number) => Promise<StoredEvent[] | null> = async () => null,
  ) {
    this.rows = new AnalysisStore(prisma);
  }

  /** Running analyses give up at their next decision (their job fails and is retried elsewhere or later). */
  stop(): void {
    this.stopping = true;
  }

  async run(job: AnalysisJob): Promise<void> {
    const { analysisId } = job.data;
    try {
      await this.analyse(analysisId);
    } catch (err) {
      // The last attempt: the analysis is failed (asking for it again queues a new job). A stopping worker's job is
      // given back to the queue, not failed.
      if (!this.stopping && job.retryCount >= job.retryLimit) await this.fail(analysisId, err);
      throw err;
    }
  }

  private async analyse(analysisId: string): Promise<void> {
    const row = await this.rows.claim(analysisId);
    if (!row) return; // done already (or gone with its match)
    const analyzer = analyzerFromKey(row.analyzer);
    const stored = (await this.finishedLog(row.match_id, MAX_EVENTS)) ?? (await this.store.eventsFrom(row.match_id, 1, MAX_EVENTS));
    const events = stored.map((e) => ({ seq: e.seq, event: joinEvent(e) }));
    const steps = analyzeMatchSteps(row.match_id, events, analyzer);
    let last = 0;
    let published = -1;
    let result: MatchAnalysis;
    for (;;) {
      const next = steps.next();
      if (next.done) {
        result = next.value;
        break;
      }
      if (this.stopping) throw new Error('the worker is stopping');
      const { done, total } = next.value;
      if (published < 0 || (done !== published && Date.now() - last >= PROGRESS_EVERY_MS)) {
        last = Date.now();
        published = done;
        await this.rows.progress(analysisId, done, total);
        await this.publish({ matchId: row.match_id, analyzer: row.analyzer, status: 'running', done, total });
      }
      // A turn of the event loop at each pause (every few milliseconds): requests and the queue's polls go on meanwhile.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await this.finish(row, result);
  }

  private async finish(row: WorkerRow, result: MatchAnalysis): Promise<void> {
    const total = result.decisions.length;
    const readers = [...new Set([row.requested_by, ...result.players.flatMap((p) => (p.player && !p.player.startsWith('bot:') ? [p.player] : []))])];
    const ready: PlayerEvent = { type: 'analysisReady', matchId: row.match_id, analyzer: row.analyzer };
    const written = await this.prisma.$transaction(async (tx) => {
      const written = await this.rows.finish(tx, row.id, result, total, this.name);
      // The webhooks and pushes exist exactly when the result does.
      if (written) {
        const told = readers.map((player) => ({ player, event: ready }));
        await enqueueWebhooks(tx, told);
        await enqueuePushes(tx, told);
      }
      return written;
    });
    if (!written) return;
    this.log(`analysis ${row.id} of match ${row.match_id} done by ${this.name}`);
    await this.publish({ matchId: row.match_id, analyzer: row.analyzer, status: 'done', done: total, total });
    await Promise.all(readers.map((p) => this.pubsub.publish(playerChannel(p), ready).catch(() => undefined)));
  }

  private async fail(analysisId: string, err: unknown): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    const failed = await this.rows.fail(analysisId, message.slice(0, 500));
    if (failed) await this.publish({ matchId: failed.match_id, analyzer: failed.analyzer, status: 'failed', done: 0, total: 0 });
  }

  private async publish(p: Omit<AnalysisProgressMessage, 'share'>): Promise<void> {
    await this.pubsub.publish(analysisChannel(p.matchId), progressOf(p)).catch(() => undefined);
  }
}
