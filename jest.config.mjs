// jest runs in ESM mode (see package.json "test"): Nest 12 packages are ESM-only
// and jest on Node 20 cannot require(esm). Code under test must not use
// __dirname (absent in ESM) nor import.meta (absent in the CommonJS build).
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      keepClassNames: true,
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

// Default run (npm test): unit specs + e2e specs. Suites needing a real
// PostgreSQL / Redis / browser are named *.pg-spec.ts, *.redis-spec.ts,
// *.browser-spec.ts and run only with JEST_SUITE=pg|redis|browser
// (npm run test:pg / test:redis / test:browser); the HA topology's failover
// suite, *.ha-spec.ts, with JEST_SUITE=ha (npm run test:ha).
const suite = process.env.JEST_SUITE ?? 'default';
const suites = {
  default: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/sdk/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  pg: ['<rootDir>/{src,test}/**/*.pg-spec.ts'],
  redis: ['<rootDir>/{src,test}/**/*.redis-spec.ts'],
  browser: ['<rootDir>/{src,test}/**/*.browser-spec.ts'],
  ha: ['<rootDir>/test/**/*.ha-spec.ts'],
};
const testMatch = suites[suite];
if (!testMatch) throw new Error(`JEST_SUITE=${suite}: expected one of ${Object.keys(suites).join(', ')}`);

/** @type {import('jest').Config} */
export default {
  rootDir: '.',
  // jest's node environment, able to load the contract validator (see the file).
  testEnvironment: '<rootDir>/test/support/environment.cjs',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  // Relative imports are extensionless (see docs/development.md, "Code"); a '.js' suffix
  // (ESM style) is mapped back to the .ts source so that it works too.
  // The SDK (an npm workspace) is tested from its sources: `@scopa/sdk` is sdk/src
  // (test/sdk-package.e2e-spec.ts checks the built package separately).
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1', '^@scopa/sdk$': '<rootDir>/sdk/src/index.ts' },
  testMatch,
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  modulePathIgnorePatterns: ['<rootDir>/sdk/dist/', '<rootDir>/docs-site/'],
  setupFiles: ['<rootDir>/test/support/env.ts'],
  // Every REST response of every suite is checked against openapi.yaml (issue 26): a disagreement fails the test.
  setupFilesAfterEnv: ['<rootDir>/test/support/contract-responses.ts'],
  // Booting an app with its database takes seconds on a busy 2-core machine.
  testTimeout: 60_000,
  // Every suite's modules stay on the heap of the process that ran it (jest's
  // ESM mode under --experimental-vm-modules): some 60 MB a suite, so a whole
  // run in one process grew to several GB, and its full collections stalled
  // the timing checks of later suites by seconds. With a limit, jest runs the
  // suites in a worker process and replaces it once its heap passes the limit.
  workerIdleMemoryLimit: '500MB',
};
