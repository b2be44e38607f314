/** The queue's settings from the configuration (ANALYSIS_* in src/config/variables.ts). */
import type { AppConfig } from '../config/config';
import type { AnalysisQueueOptions } from './analysis-queue';

export function analysisQueueOptions(config: AppConfig): AnalysisQueueOptions {
  return {
    retryLimit: config.ANALYSIS_RETRY_LIMIT,
    retryDelaySeconds: config.ANALYSIS_RETRY_DELAY_SECONDS,
    expireSeconds: config.ANALYSIS_JOB_TIMEOUT_SECONDS,
    pollingSeconds: config.ANALYSIS_POLL_SECONDS,
    maintenanceSeconds: config.ANALYSIS_MAINTENANCE_SECONDS,
  };
}
