/**
 * Post-game analysis (docs/analysis.md): asking for one queues a job on the
 * service's one job queue (./analysis-queue.ts), reading one gives its status or
 * its result, and its progress is published as it runs. Who may: anyone for
 * a public match, its players for a private one; only once it is over
 * (imported matches too).
 *
 * One analysis per match and analyzer key (the unique row in
 * match_analyses): asking again returns the same job or result. Bounded:
 * at most ANALYSIS_QUEUE_PER_ACCOUNT queued or running per account and
 * ANALYSIS_QUEUE_MAX in all, counted by the statement that queues one in a
 * transaction that holds the queue's advisory lock (so that racing requests
 * on any number of instances count one after the other); beyond them
 * ANALYSIS_QUEUE_FULL. At most ANALYSIS_MAX_DECISIONS decisions, counted
 * from the log before anything is queued (ANALYSIS_TOO_LARGE beyond); above
 * ANALYSIS_LARGE_DECISIONS the job goes to the queue of large ones, which
 * has workers of its own (ANALYSIS_LARGE_WORKERS).
 *
 * This instance also runs ANALYSIS_WORKERS of the jobs and
 * ANALYSIS_LARGE_WORKERS of the large ones (ANALYSIS_WORKERS=0: none; the
 * jobs then wait for another instance or `npm run worker`, which runs at
 * least one). On PostgreSQL without Redis it LISTENs for the progress of
 * workers elsewhere (./analysis-notices.ts).
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import type { Principal } from '../common/principal';
import { AppConfig } from '../config/config';
import { DomainError } from '../common/domain-error';
import { TournamentTables } from '../match-store/tournament-tables';
import { subscriptionIterator } from '../common/subscription-iterator';
import { PrismaService } from '../database/prisma.service';
import { MatchStore } from '../match-store/match-store';
import { MatchArchive } from '../match-store/match-archive';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';
import { hasRedis } from '../realtime/redis';
import { joinEvent } from '../match-formats/chain';
import { analyzerInfo, decisionCount } from './analyzer';
import type { AnalyzerInfo, MatchAnalysis } from './analyzer';
import { ANALYSIS_LARGE_QUEUE, ANALYSIS_QUEUE, AnalysisQueue } from './analysis-queue';
import type { AnalysisQueueName } from './analysis-queue';
import { analysisNotices } from './analysis-notices';
import type { AnalysisNotices } from './analysis-notices';
import { analysisQueueOptions } from './analysis-config';
import { AnalysisRunner, MAX_EVENTS } from './analysis-runner';
import { analysisChannel, progressOf } from './analysis-progress';
import type { AnalysisProgressMessage, AnalysisStatus } from './analysis-progress';
import { JobQueue } from '../jobs/job-queue';
import { WORKER_PROCESS } from '../jobs/worker-process';
import type { WorkerProcess } from '../jobs/worker-process';
import { AnalysisStore } from './analysis-store';
import type { AnalysisRow } from './analysis-store';

export interface AnalysisView {
  matchId: string;
  analyzer: string;
  status: AnalysisStatus;
  done: number;
  total: number;
  share: number;
  attempts: number;
  error: string | null;
  requestedAt: Date;
  finishedAt: Date | null;
  result: MatchAnalysis | null;
}

@Injectable()
export class AnalysisService implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly analyzer: AnalyzerInfo;
  private readonly queue: AnalysisQueue;
  private readonly rows: AnalysisStore;
  private readonly runner: AnalysisRunner;
  private readonly notices: AnalysisNotices;
  private readonly logger = new Logger('Analysis');

  constructor(
    private readonly prisma: PrismaService,
    private readonly store: MatchStore,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
    private readonly config: AppConfig,
    private readonly tables: TournamentTables,
    jobs: JobQueue,
    private readonly archive: MatchArchive,
    @Optional() @Inject(WORKER_PROCESS) private readonly worker: WorkerProcess | null = null,
  ) {
    this.rows = new AnalysisStore(prisma);
    this.analyzer = analyzerInfo({ iterationsPerOption: config.ANALYSIS_ITERATIONS, exploration: 2.5 });
    this.queue = new AnalysisQueue(jobs, analysisQueueOptions(config));
    // A worker process tells every instance (it listens to nobody); an instance listens when it has no Redis.
    this.notices = analysisNotices(
      prisma.database,
      hasRedis(config),
      pubsub,
      !worker,
      (err) => this.logger.warn(`analysis notices: ${(err as Error)?.message ?? err}`),
      () => void this.catchUp(),
    );
    this.runner = new AnalysisRunner(
      prisma,
      store,
      this.notices.publisher,
      worker ? (line) => worker.out(line) : (line) => this.logger.log(line),
      // The finished match's log from the read replica when it has it (an input that tolerates lag: docs/operations.md "Read replicas").
      (matchId, limit) => archive.finishedLog(matchId, limit),
    );
  }

  /** The analyses this process runs at once: ANALYSIS_WORKERS (at least one in `npm run worker`), and the large ones beside them. */
  get workers(): { small: number; large: number } {
    const small = this.worker ? Math.max(1, this.config.ANALYSIS_WORKERS) : this.config.ANALYSIS_WORKERS;
    return { small, large: small > 0 ? this.config.ANALYSIS_LARGE_WORKERS : 0 };
  }

  async onModuleInit(): Promise<void> {
    const workers = this.workers;
    await this.queue.work((job) => this.runner.run(job), workers);
    this.worker?.note(`analyses: ${workers.small} at a time, ${workers.large} large`);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.notices.listener?.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Running analyses give up at their next decision; their jobs go back to the queue (JobsModule stops it).
    this.runner.stop();
    await this.notices.listener?.stop();
  }

  /** POST /v1/matches/{id}/analysis, requestAnalysis: the analysis as it stands (queued now, or as asked before). */
  async request(caller: Principal, matchId: string): Promise<AnalysisView> {
    await this.mayRead(caller, matchId);
    const key = this.analyzer.key;
    const before = await this.row(matchId);
    // Its size, from the log (nothing is queued beyond the bound); a done or running analysis is what it is.
    const decisions = !before || before.status === 'failed' || before.status === 'queued' ? await this.decisions(matchId, before?.status !== 'queued') : 0;
    const queued = await this.rows.request({
      id: randomUUID(),
      matchId,
      analyzer: key,
      requestedBy: caller.username,
      perAccount: this.config.ANALYSIS_QUEUE_PER_ACCOUNT,
      max: this.config.ANALYSIS_QUEUE_MAX,
      jobId: randomUUID(),
    });
    let row = queued[0] ?? (await this.row(matchId));
    if (!row) {
      const live = await this.rows.live(caller.username);
      const mine = live.mine >= this.config.ANALYSIS_QUEUE_PER_ACCOUNT;
      throw new DomainError(
        'ANALYSIS_QUEUE_FULL',
        mine
          ? `at most ${this.config.ANALYSIS_QUEUE_PER_ACCOUNT} analyses of yours may wait or run at once (ANALYSIS_QUEUE_PER_ACCOUNT): ask again when one is done`
          : `the analysis queue is full (${this.config.ANALYSIS_QUEUE_MAX} waiting or running): ask again later`,
        {
          scope: mine ? 'account' : 'total',
          limit: mine ? this.config.ANALYSIS_QUEUE_PER_ACCOUNT : this.config.ANALYSIS_QUEUE_MAX,
          live: mine ? live.mine : live.total,
        },
      );
    }
    if (row.how === 'inserted' || row.how === 'requeued' || row.status === 'queued') {
      // Also for a row found queued: its job may never have been sent (a crash in between); the same job id is a no-op.
      await this.queue.send(row.job_id, row.id, this.queueFor(decisions));
      if (row.how !== 'existing')
        await this.notices.publisher
          .publish(analysisChannel(matchId), progressOf({ matchId, analyzer: key, status: 'queued', done: 0, total: 0 }))
          .catch(() => undefined);
    } else if (row.status === 'running' && (await this.queue.jobState(row.job_id)) === 'failed') {
      // Its worker died on the last attempt: the job failed by timeout, the row never heard of it.
      row = (await this.rows.markFailed(row.id, 'the job timed out on its last attempt')) ?? row;
    }
    return view(row);
  }

  /** GET /v1/matches/{id}/analysis, analysis(matchId): status or result; NOT_FOUND when none was asked for. */
  async get(caller: Principal, matchId: string): Promise<AnalysisView> {
    await this.mayRead(caller, matchId);
    const row = await this.row(matchId);
    if (!row) throw new DomainError('NOT_FOUND', 'no analysis of this match was asked for: POST /v1/matches/{id}/analysis (requestAnalysis) queues one');
    return view(row);
  }

  /** analysisProgress(matchId): where the analysis stands now (if asked for), then each change until done or failed. */
  async progress(caller: Principal, matchId: string): Promise<AsyncIterableIterator<AnalysisProgressMessage>> {
    await this.mayRead(caller, matchId);
    const key = this.analyzer.key;
    const source = this.pubsub.asyncIterableIterator<AnalysisProgressMessage>(analysisChannel(matchId));
    const current = await this.row(matchId);
    const first: AnalysisProgressMessage | null = current
      ? progressOf({ matchId, analyzer: key, status: current.status, done: current.done, total: current.total })
      : null;
    this.watched.set(matchId, (this.watched.get(matchId) ?? 0) + 1);
    return subscriptionIterator(source, (m) => (m.analyzer === key ? m : null), {
      first,
      endsAfter: (m) => m.status === 'done' || m.status === 'failed',
      onEnd: () => {
        const n = (this.watched.get(matchId) ?? 1) - 1;
        if (n > 0) this.watched.set(matchId, n);
        else this.watched.delete(matchId);
      },
    });
  }

  /** The matches whose progress this process's subscribers follow, with how many subscribers (for catchUp). */
  private readonly watched = new Map<string, number>();

  /**
   * The LISTEN connection was lost (PostgreSQL without Redis) and listens again: the notices sent meanwhile are gone,
   * so each followed analysis's progress as it stands is published again here (a subscriber takes it as any progress;
   * `done` or `failed` ends its subscription).
   */
  async catchUp(): Promise<number> {
    const key = this.analyzer.key;
    let sent = 0;
    for (const matchId of [...this.watched.keys()]) {
      try {
        const row = await this.row(matchId);
        if (!row) continue;
        await this.pubsub.publish(analysisChannel(matchId), progressOf({ matchId, analyzer: key, status: row.status, done: row.done, total: row.total }));
        sent++;
      } catch (err) {
        this.logger.warn(`analysis catch-up of ${matchId}: ${(err as Error)?.message ?? err}`);
      }
    }
    return sent;
  }

  /**
   * The decisions the analyzer would evaluate in the match's log (`refuse`: ANALYSIS_TOO_LARGE beyond
   * ANALYSIS_MAX_DECISIONS). Every play is a decision: a log with more plays than the bound is refused before any replay.
   */
  private async decisions(matchId: string, refuse: boolean): Promise<number> {
    const limit = this.config.ANALYSIS_MAX_DECISIONS;
    const tooLarge = (decisions: number) =>
      new DomainError('ANALYSIS_TOO_LARGE', `an analysis takes at most ${limit} decisions (ANALYSIS_MAX_DECISIONS); this match has ${decisions}`, {
        decisions,
        limit,
      });
    // From the read replica when it has the match over (MatchArchive.finishedLog), else from the primary.
    const stored = (await this.archive.finishedLog(matchId, MAX_EVENTS)) ?? (await this.store.eventsFrom(matchId, 1, MAX_EVENTS));
    if (refuse && stored.length >= MAX_EVENTS) throw tooLarge(stored.filter((e) => e.type === 'CardPlayed').length);
    const plays = stored.reduce((n, e) => n + (e.type === 'CardPlayed' ? 1 : 0), 0);
    if (refuse && plays > limit) throw tooLarge(plays);
    let n: number;
    try {
      n = decisionCount(stored.map((e) => ({ seq: e.seq, event: joinEvent(e) })));
    } catch {
      n = plays; // a log the analyzer cannot replay: its job fails as it always did (the analysis reads `failed`)
    }
    if (refuse && n > limit) throw tooLarge(n);
    return n;
  }

  private queueFor(decisions: number): AnalysisQueueName {
    return decisions > this.config.ANALYSIS_LARGE_DECISIONS ? ANALYSIS_LARGE_QUEUE : ANALYSIS_QUEUE;
  }

  private async row(matchId: string): Promise<AnalysisRow | null> {
    return this.rows.row(matchId, this.analyzer.key);
  }

  /** Over, and public or played by the caller (NOT_FOUND, CONFLICT, FORBIDDEN otherwise). */
  private async mayRead(caller: Principal, matchId: string): Promise<void> {
    const summary = await this.store.get(matchId);
    if (summary.status !== 'over') throw new DomainError('CONFLICT', 'a match is analysed once it is over', { status: summary.status });
    // Every hand of the match, from each seat's view: at a table whose duplicate round runs, not before the round's end (src/match-store/tournament-tables.ts).
    await this.tables.assertDisclosed(matchId);
    const seats = (summary.seats ?? []) as { player?: string | null }[];
    if (seats.some((s) => s?.player === caller.username)) return;
    const row = await this.store.lobbyRow(matchId);
    if (row?.visibility === 'private') throw new DomainError('FORBIDDEN', 'the analysis of a private match is for its players');
  }
}

function view(row: AnalysisRow): AnalysisView {
  const { share } = progressOf({ matchId: row.match_id, analyzer: row.analyzer, status: row.status, done: row.done, total: row.total });
  return {
    matchId: row.match_id,
    analyzer: row.analyzer,
    status: row.status,
    done: row.done,
    total: row.total,
    share,
    attempts: row.attempts,
    error: row.error,
    requestedAt: new Date(row.created_at),
    finishedAt: row.finished_at ? new Date(row.finished_at) : null,
    result: row.status === 'done' ? row.result : null,
  };
}
