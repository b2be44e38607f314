/** What both fuzz suites (PGlite and PostgreSQL) run and assert. */
import { runFuzz, unsoundMatches } from './run-fuzz';
import type { FuzzOptions } from './run-fuzz';

/** Limits high enough that the run tests the API, not the rate limiter (which answers 429, never 5xx, anyway). */
export const FUZZ_ENV: Record<string, string> = {
  RATE_LIMIT: '1000000',
  CLOCK_POLL_MS: '0',
  BOT_SWEEP_MS: '0',
};

export function fuzzSettings(defaultRuns: number): Omit<FuzzOptions, 'baseUrl'> {
  return {
    seed: Number(process.env.FUZZ_SEED ?? 20261123),
    runs: Number(process.env.FUZZ_RUNS ?? defaultRuns),
    seconds: Number(process.env.FUZZ_SECONDS ?? 120),
  };
}

export async function expectFuzzClean(baseUrl: string, settings: Omit<FuzzOptions, 'baseUrl'>): Promise<void> {
  const report = await runFuzz({ baseUrl, ...settings });
  // Printed so that a CI log shows what the run covered.
  console.log(
    `fuzz seed=${settings.seed} sent=${report.sent} statuses=${JSON.stringify(report.statuses)} slowest_health_ms=${report.slowestHealthMs.toFixed(1)} matches=${report.matchIds.length}`,
  );
  expect(report.sent).toBeGreaterThan(Math.min(settings.runs, 300));
  expect(report.findings).toEqual([]);
  expect(report.healthFailures).toBe(0);
  const health = await fetch(`${baseUrl}/health`);
  expect(health.status).toBe(200);
  expect(await unsoundMatches(baseUrl, report.token, report.matchIds)).toEqual([]);
}
