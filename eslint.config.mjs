// ESLint: typescript-eslint with type information, the layers (eslint-plugin-boundaries), and
// Prettier's formatting left to Prettier (eslint-config-prettier). docs/development.md "Lint and format".
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const TS = ['**/*.ts', '**/*.mts', '**/*.cts'];
const JS = ['**/*.js', '**/*.mjs', '**/*.cjs'];
const TESTS = ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/*.pg-spec.ts', '**/*.redis-spec.ts', '**/*.browser-spec.ts', 'test/**'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      'dist-bench/**',
      'docs-site/**',
      'coverage/**',
      'test-artifacts/**',
      'src/database/generated/**',
      'sdk/dist/**',
      'sdk/src/generated/**',
      'web/dist/**',
      'graphiql/**',
      'examples/**',
      'prisma/**',
      'contracts/**',
      'deploy/**',
      'docs/**',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
  },
  { files: JS, ...tseslint.configs.disableTypeChecked },
  // Errors rethrown with a message of their own carry what matters in it (eslint 10's new rule).
  { rules: { 'preserve-caught-error': 'off' } },
  { files: ['web/**'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: TS,
    rules: {
      // Stylistic on this codebase: Nest hooks and interface methods are async without awaiting.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-base-to-string': 'off', // String(unknown) where a driver error's fields are read
      '@typescript-eslint/no-unsafe-enum-comparison': 'off', // graphql-js kinds compared with their strings
      '@typescript-eslint/unbound-method': 'off', // arrow-valued members typed as methods (release, announce)
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-expressions': ['error', { allowTernary: true, allowShortCircuit: true }],
      // Untyped edges (pg rows, GraphQL extensions, parsed JSON, pg-boss) are read as they come; the
      // engine below keeps these rules.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      'no-fallthrough': ['error', { allowEmptyCase: true }],
      'no-useless-assignment': 'off',
      'require-yield': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests and benches read untyped bodies (supertest, JSON files) and spy on methods.
    files: [...TESTS, 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/await-thenable': 'off',
    },
  },
  // The web client renders event payloads it reads as records of any.
  { files: ['web/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // The browser suites log what they saw, on purpose and one line each.
  { files: ['test/**/*.browser-spec.ts'], rules: { 'no-console': 'error' } },
  {
    // The rules engine runs in browsers and in the audit tool: fully typed, and no environment.
    files: ['src/engine/**/*.ts'],
    ignores: TESTS,
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'the engine reads no environment' },
        { name: 'require', message: 'the engine imports only its files and @noble/hashes' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'time enters the engine as data' },
        { object: 'Math', property: 'random', message: 'randomness enters the engine as a seed' },
        { object: 'performance', property: 'now', message: 'time enters the engine as data' },
      ],
    },
  },
  layers(),
  prettier,
);

/**
 * The layers, by eslint-plugin-boundaries on the resolved imports of every source file under src/
 * (tests exempt). Each file is an element typed by its folder; a policy that matches later wins.
 * Folder cycles stay in src/layering.spec.ts (a rule on folders, not files).
 */
function layers() {
  const TRANSPORT_PACKAGES = ['@nestjs/graphql', '@nestjs/apollo', '@nestjs/swagger', '@nestjs/platform-express', 'express', 'graphql', 'graphql-ws', 'ws'];
  const feature = (name) => ({ element: { type: 'feature', captured: { feature: name } } });
  return {
    files: ['src/**/*.ts'],
    ignores: TESTS,
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.js', '.json'] } },
      'boundaries/legacy-templates': false,
      // Every local file is known, so that an import of test/ or sdk/ from src/engine is seen too.
      'boundaries/include': ['src/**', 'test/**', 'bench/**', 'scripts/**', 'sdk/src/**', 'web/src/**'],
      'boundaries/ignore': TESTS.filter((pattern) => pattern !== 'test/**'),
      // Elements are folders (the first that matches); files within them get categories.
      'boundaries/elements': [
        { type: 'engine-bots', pattern: 'src/engine/bots', partialMatch: false },
        { type: 'engine', pattern: 'src/engine', partialMatch: false },
        { type: 'feature', pattern: 'src/*', partialMatch: false, capture: ['feature'] },
      ],
      'boundaries/files': [
        // The engine's public barrel and test driver may reach the bots; its core may not.
        { category: 'engine-entry', pattern: 'src/engine/{index,testing}.ts' },
        { category: 'transport', pattern: 'src/*/*.{controller,resolver}.ts' },
        { category: 'transport-target', pattern: 'src/*/*.{service,model,input}.ts' },
        { category: 'caller-decorators', pattern: 'src/common/principal.ts' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          checkAllOrigins: true,
          checkInternals: true,
          checkUnknownLocals: true,
          policies: [
            {
              from: { element: { type: 'engine*' } },
              disallow: {
                to: [
                  { element: { type: '!engine*' } },
                  { element: { isUnknown: true }, module: { origin: 'local' } },
                  { module: { origin: ['external', 'core'], source: '!@noble/hashes' } },
                ],
              },
              message: 'src/engine imports nothing outside src/engine but @noble/hashes',
            },
            {
              // The rules must not change with a bot's tuning.
              from: { element: { type: 'engine' } },
              disallow: { to: { element: { type: 'engine-bots' } } },
              message: 'the engine core never imports src/engine/bots (only index.ts and testing.ts may)',
            },
            { from: { file: { categories: 'engine-entry' } }, allow: { to: { element: { type: 'engine-bots' } } } },
            {
              // What composes features is the root's (src/app.setup.ts, src/app.module.ts).
              from: feature('common'),
              disallow: {
                to: [
                  { element: { type: 'feature', captured: { feature: '!{common,config}' } } },
                  { element: { isUnknown: true }, module: { origin: 'local' } },
                ],
              },
              message: 'src/common imports no feature: only src/config and the engine',
            },
            {
              from: [feature('match-store'), feature('match-formats'), feature('stream-store')],
              disallow: { to: [{ file: { categories: 'transport' } }, feature('graphql'), { module: { origin: 'external', source: TRANSPORT_PACKAGES } }] },
              message: 'the stores and the formats of the logs (src/match-store, src/match-formats, src/stream-store) import no transport code',
            },
            {
              from: { file: { categories: 'transport' } },
              disallow: { to: { module: { origin: 'local' } } },
              message: "a controller or resolver imports only its own folder's services, models and inputs, src/common/principal.ts and src/common",
            },
            {
              from: { file: { categories: 'transport' } },
              allow: {
                to: [
                  feature('common'),
                  { file: { categories: 'caller-decorators' } },
                  { element: { type: 'feature', captured: { feature: '{{ from.element.captured.feature }}' } }, file: { categories: 'transport-target' } },
                ],
              },
            },
          ],
        },
      ],
    },
  };
}
