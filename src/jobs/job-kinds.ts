/**
 * Every kind of background job, declared once: one pg-boss queue per kind
 * (created by the migrations, see prisma/migrations/20261210000000_job_queue),
 * with the retry policy JobQueue.start sets on it. A job that fails
 * `retryLimit + 1` times is kept in state `failed` with its error (the dead
 * letters, GET /v1/admin/jobs?state=failed), never dropped.
 */
export interface JobPolicy {
  /** Retries after the first run. */
  retryLimit: number;
  /** First retry delay, seconds; doubled (with pg-boss's jitter) at each retry when retryBackoff. */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** A job still active after this is failed by timeout (its worker died or hangs) and retried. */
  expireInSeconds: number;
  /** singleton: one job of the kind active at a time across every worker, fetched in the order they were made (default standard). */
  queuePolicy?: 'standard' | 'singleton';
  /**
   * How often an idle worker of the kind looks for a job when the process that queues one wakes its own workers
   * (JobQueue.notify, after the commit): the poll only finds a job whose process died before running it, or a retry.
   * Default: JOB_POLL_SECONDS.
   */
  idlePollSeconds?: number;
  /**
   * Short jobs drained at once: a worker that ran one wakes the kind's workers of this process, and the second and
   * further workers poll only every 5 s. Not for the analyses, whose processes share the jobs by their polls.
   */
  drain?: boolean;
}

// A reaction takes milliseconds (a rating waits at most 10 s for the writes before it): 30 s active is a dead worker,
// and match-rating is a singleton queue, so its stuck job holds every rating until then.
const reaction: JobPolicy = { retryLimit: 10, retryDelaySeconds: 1, retryBackoff: true, expireInSeconds: 30 };
// Woken by the process whose transaction queued it (the appending instance, the round's last result).
const wokenReaction: JobPolicy = { ...reaction, idlePollSeconds: 5, drain: true };

export const JOB_KINDS = {
  /** A rated match's end taken into the ratings, in the order matches ended (src/ratings). */
  'match-rating': { ...wokenReaction, queuePolicy: 'singleton' },
  /** A tournament table's result recorded in its tournament's log (src/tournaments). */
  'tournament-result': wokenReaction,
  /** The next round of a tournament paired and its matches made, or the tournament ended (src/tournaments). */
  // past its transaction's own bound (30 s, TournamentsService's TX): a round of 256 takes about 1.5 s
  'tournament-round': { ...wokenReaction, expireInSeconds: 60 },
  /**
   * A turn deadline or a pending start reached (src/clocks). The process whose clock scan queued the job wakes its
   * workers at the deadline (JobQueue.wakeAt); their poll, every JOB_POLL_SECONDS, finds the jobs of a process that
   * stopped before then. A worker that ran one fetches again at once (several deadlines may fall due together).
   */
  'match-deadline': { ...reaction, drain: true },
  /** A player's correspondence turn clocks made to follow their vacation: paused at its start, resumed at its end or its `until` (src/vacations). */
  'vacation-clocks': reaction,
  /**
   * One attempt at delivering a webhook (src/webhooks). A failed send is not a retry of the job: the handler records
   * it and queues the next attempt (WEBHOOK_BACKOFF_MS...). The job is retried only when its worker died (expired)
   * or the database failed it.
   */
  // raised to WEBHOOK_TIMEOUT_MS and a margin when that is longer (src/webhooks/webhook-worker.service.ts)
  'webhook-delivery': { retryLimit: 5, retryDelaySeconds: 10, retryBackoff: true, expireInSeconds: 30, drain: true },
  /**
   * One notification to one Web Push subscription (src/push). A failed send (429, 5xx, no connection) fails the job:
   * pg-boss runs it again after 5 s, doubled at each retry; a 404 or 410 drops the subscription and completes it.
   */
  // raised to PUSH_TIMEOUT_MS and a margin when that is longer (src/push/push-delivery.service.ts)
  'push-delivery': { retryLimit: 6, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 30, drain: true },
  /** Post-game analyses (src/analysis; their policy comes from ANALYSIS_* variables). */
  analysis: { retryLimit: 3, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 900 },
  'analysis-large': { retryLimit: 3, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 900 },
} as const satisfies Record<string, JobPolicy>;

export type JobKind = keyof typeof JOB_KINDS;

export const JOB_KIND_NAMES = Object.keys(JOB_KINDS) as JobKind[];

export function isJobKind(name: string): name is JobKind {
  return Object.prototype.hasOwnProperty.call(JOB_KINDS, name);
}
