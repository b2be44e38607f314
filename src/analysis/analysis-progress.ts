/**
 * The progress of an analysis as published (src/realtime's pub/sub: through
 * Redis when REDIS_URL is set, so a subscriber on any instance sees a job
 * that a worker anywhere runs) and as the `analysisProgress` subscription
 * sends it.
 */
export type AnalysisStatus = 'queued' | 'running' | 'done' | 'failed';
export const ANALYSIS_STATUSES: readonly AnalysisStatus[] = ['queued', 'running', 'done', 'failed'];

export { analysisChannel } from '../realtime/channels';

export interface AnalysisProgressMessage {
  matchId: string;
  analyzer: string;
  status: AnalysisStatus;
  /** Decisions evaluated, out of `total` (0 until the job has read the log). */
  done: number;
  total: number;
  /** done / total, 0 to 1 (1 once done). */
  share: number;
}

export function progressOf(p: Omit<AnalysisProgressMessage, 'share'>): AnalysisProgressMessage {
  const share = p.status === 'done' ? 1 : p.total > 0 ? Math.round((p.done / p.total) * 1000) / 1000 : 0;
  return { ...p, share };
}
