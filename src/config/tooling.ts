/**
 * Variables that only the scripts, benchmarks, tests and the example bot
 * read (never the service): declared here so that the Environment
 * table has one source to be checked against (test/config.e2e-spec.ts), and
 * so that a new one read under scripts/, bench/, test/ or examples/ cannot
 * go undeclared. The service's own are in ./variables.ts.
 */
export interface ToolingVariable {
  /** The default as the Environment table writes it (null: unset or required). */
  readonly default: string | null;
  /** Who reads it. */
  readonly readBy: string;
}

export const TOOLING_VARIABLES = {
  SCOPA_URL: { default: 'http://localhost:3000', readBy: 'examples/bot' },
  SCOPA_TOKEN: { default: null, readBy: 'examples/bot' },
  SCOPA_POLL_MS: { default: '1000', readBy: 'examples/bot' },
  BENCH_MATCHES: { default: '200', readBy: 'bench:api' },
  BENCH_WARMUP: { default: '200', readBy: 'bench:api' },
  BENCH_ACCOUNTS: { default: '40', readBy: 'bench:api, bench:embedded' },
  BENCH_TARGET: { default: '1', readBy: 'bench:api, bench:embedded' },
  BENCH_RATE: { default: '500', readBy: 'bench:api' },
  BENCH_TRANSPORT: { default: null, readBy: 'bench:api' },
  BENCH_ONLY: { default: null, readBy: 'bench:api' },
  BENCH_SLOW_MS: { default: null, readBy: 'bench:api' },
  BENCH_NODE_ARGS: { default: null, readBy: 'bench:api, bench:export, bench:embedded' },
  BENCH_EMBEDDED_MATCHES: { default: '200', readBy: 'bench:embedded' },
  BENCH_EMBEDDED_CONCURRENCY: { default: '20', readBy: 'bench:embedded' },
  BENCH_EVENTS: { default: '20000', readBy: 'bench:store' },
  BENCH_EXPORT_MATCHES: { default: '10000', readBy: 'bench:export' },
  BENCH_EXPORT_PLAYS: { default: '2', readBy: 'bench:export' },
  BENCH_ANALYSIS_JOBS: { default: '40', readBy: 'bench:analysis' },
  BENCH_ANALYSIS_MATCHES: { default: '3', readBy: 'bench:analysis' },
  BENCH_PLAYERS: { default: '256', readBy: 'bench:tournament' },
  BENCH_ROUNDS: { default: '8', readBy: 'bench:tournament' },
  BENCH_PLIES: { default: '4', readBy: 'bench:tournament' },
  BENCH_ROUND_TIMEOUT_MS: { default: '120000', readBy: 'bench:tournament' },
  BENCH_CONNECTIONS: { default: '20000', readBy: 'bench:connections' },
  BENCH_CLIENT_PROCESSES: { default: null, readBy: 'bench:connections' },
  BENCH_IDLE_S: { default: '30', readBy: 'bench:connections' },
  BENCH_SAMPLE_MATCHES: { default: '50', readBy: 'bench:connections' },
  BENCH_PLAYS_PER_MATCH: { default: '8', readBy: 'bench:connections' },
  BENCH_PORT: { default: null, readBy: 'bench:connections, bench:chat' },
  BENCH_CHAT_SUBSCRIBERS: { default: '100', readBy: 'bench:chat' },
  BENCH_CHAT_MESSAGES: { default: '200', readBy: 'bench:chat' },
  CLUSTER_INSTANCE_PORTS: { default: '3001,3002', readBy: 'npm run cluster' },
  JEST_SUITE: { default: 'default', readBy: 'jest.config.mjs' },
  UPDATE_CONTRACTS: { default: null, readBy: 'test/contract.e2e-spec.ts (npm run contracts)' },
  CHROMIUM_PATH: { default: '/usr/bin/chromium', readBy: 'npm run test:browser' },
  CRASH_SEED: { default: '1', readBy: 'the crash test' },
  MATCHES: { default: '20', readBy: 'the crash test' },
  CRASH_DEBUG: { default: null, readBy: 'test/challenge-crash.redis-spec.ts' },
  FUZZ_SEED: { default: '20261123', readBy: 'the fuzz suites' },
  FUZZ_RUNS: { default: '3000', readBy: 'the fuzz suites' },
  FUZZ_SECONDS: { default: '120', readBy: 'the fuzz suites' },
  CONTRACT_RESPONSES: { default: null, readBy: 'test/support/contract-responses.ts' },
  PUSH_TEST_ENDPOINT: { default: null, readBy: 'test/support/push-send-once.ts (test/push.e2e-spec.ts)' },
  PUSH_TEST_P256DH: { default: null, readBy: 'test/support/push-send-once.ts (test/push.e2e-spec.ts)' },
  PUSH_TEST_AUTH: { default: null, readBy: 'test/support/push-send-once.ts (test/push.e2e-spec.ts)' },
} as const satisfies Record<string, ToolingVariable>;
