/** The analyses' queue settings from the configuration (ANALYSIS_* in src/config/variables.ts). */
import type { AppConfig } from '../config/config';
import type { AnalysisQueueOptions } from './analysis-queue';

export function analysisQueueOptions(config: AppConfig): AnalysisQueueOptions {
  return {
    policy: {
      retryLimit: config.ANALYSIS_RETRY_LIMIT,
      retryDelaySeconds: config.ANALYSIS_RETRY_DELAY_SECONDS,
      retryBackoff: true,
      expireInSeconds: config.ANALYSIS_JOB_TIMEOUT_SECONDS,
    },
    pollingSeconds: config.ANALYSIS_POLL_SECONDS,
  };
}
