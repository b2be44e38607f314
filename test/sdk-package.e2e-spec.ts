/**
 * The SDK as a package: its generated files are what the committed contracts
 * give (regenerated into a temp folder and compared: `npm run contracts`
 * rewrites them), and its build (`npm run build -w @scopa/sdk`: tsc to ESM and
 * CommonJS with declarations) loads through the package's exports with
 * `import` and with `require`, and talks to a real instance from both.
 */
import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { INestApplication } from '@nestjs/common';
import { createTestApp, listenOnLoopback } from './support/app';

jest.setTimeout(300_000);

const run = promisify(execFile);
const root = process.cwd();
const sdk = path.join(root, 'sdk');

function files(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? files(path.join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`]))
    .sort();
}

describe('@scopa/sdk package', () => {
  it("its generated client is up to date with openapi.yaml, schema.graphql and the engine's round breakdown (run `npm run contracts`)", async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'scopa-sdk-gen-'));
    try {
      await run(process.execPath, [path.join(sdk, 'scripts', 'generate.mjs'), out], { cwd: sdk });
      const committed = path.join(sdk, 'src', 'generated');
      expect(files(committed)).toEqual(files(out));
      for (const file of files(out)) {
        const fresh = readFileSync(path.join(out, file), 'utf8');
        const current = readFileSync(path.join(committed, file), 'utf8');
        if (current !== fresh) throw new Error(`sdk/src/generated/${file} is out of date with the contracts: run npm run contracts`);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  describe('built to ESM and CommonJS', () => {
    let app: INestApplication;
    let base: string;

    beforeAll(async () => {
      await run('npm', ['run', 'build', '-w', '@scopa/sdk'], { cwd: root });
      app = await createTestApp({ RATE_LIMIT: '100000' });
      base = (await listenOnLoopback(app)).http;
    });
    afterAll(async () => {
      await app?.close();
    });

    it('has type declarations beside each format', () => {
      for (const format of ['esm', 'cjs']) {
        expect(existsSync(path.join(sdk, 'dist', format, 'index.js'))).toBe(true);
        expect(existsSync(path.join(sdk, 'dist', format, 'index.d.ts'))).toBe(true);
      }
      const pkg = JSON.parse(readFileSync(path.join(sdk, 'package.json'), 'utf8'));
      expect(pkg.exports['.'].import.types).toBe('./dist/esm/index.d.ts');
      expect(pkg.exports['.'].require.types).toBe('./dist/cjs/index.d.ts');
    });

    it('its declarations type a consumer, from ESM and from CommonJS (tsc, module nodenext)', async () => {
      // inside node_modules/.cache so that `@scopa/sdk` resolves as for any dependent package
      const dir = mkdtempSync(path.join(root, 'node_modules', '.cache', 'sdk-consumer-'));
      try {
        const code = (kind: string) => `import { ScopaClient, ScopaError, PlayDocument, scoredRounds } from '@scopa/sdk';
import type { AwardName, Match, LiveMatchEvent, PlayMutationVariables, RoundBreakdown } from '@scopa/sdk';
export async function check${kind}(client: ScopaClient): Promise<number> {
  const match: Match = await client.getMatch('id');
  // The round breakdown's shape is the engine's (src/engine/round-breakdown.ts, shipped in the package).
  const breakdown: RoundBreakdown | undefined = scoredRounds(match.view)[0]?.breakdown;
  const award: AwardName = 'piccola';
  const piccola: number | null | undefined = breakdown?.awards[award];
  // @ts-expect-error no such award
  const none = breakdown?.awards['napola'];
  const vars: PlayMutationVariables = { matchId: match.id, input: { card: '7D', capture: [] } };
  await client.graphql(PlayDocument, vars);
  for await (const live of client.follow(match.id, match.seq + 1)) { const e: LiveMatchEvent = live; return e.event.seq; }
  // @ts-expect-error a play needs a card code and its captures
  await client.play(match.id, { card: 7 });
  const err = new ScopaError({ code: 'X', message: 'x', status: 400 });
  return err.status + match.seq + (piccola ?? 0) + (breakdown?.bonusScope?.[0] ?? 0) + (none ?? 0);
}
`;
        writeFileSync(path.join(dir, 'esm.mts'), code('Esm'));
        writeFileSync(path.join(dir, 'cjs.cts'), code('Cjs'));
        writeFileSync(
          path.join(dir, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: {
              module: 'nodenext',
              moduleResolution: 'nodenext',
              target: 'es2022',
              lib: ['es2022', 'dom'],
              strict: true,
              noEmit: true,
              types: [],
            },
            files: ['esm.mts', 'cjs.cts'],
          }),
        );
        await run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: dir });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    // Each script loads the package by its name (node_modules/@scopa/sdk, the workspace link),
    // lists the presets over REST (public) and gets a typed error from GraphQL (anonymous).
    const body = `
      const client = new ScopaClient({ baseUrl: process.argv[1] });
      const presets = await client.rest.GET('/v1/rulesets');
      let code;
      try { await client.graphql(MatchDocument, { id: '00000000-0000-4000-8000-000000000000' }); }
      catch (e) { code = e instanceof ScopaError ? e.code : 'not a ScopaError: ' + e; }
      console.log(JSON.stringify({ presets: presets.data.map((p) => p.id), code }));`;

    it('loads with import (ESM)', async () => {
      const script = `import { ScopaClient, ScopaError, MatchDocument } from '@scopa/sdk';\n${body}`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, base], { cwd: root });
      const out = JSON.parse(stdout);
      expect(out.presets).toContain('scopa');
      expect(out.code).toBe('UNAUTHENTICATED'); // anonymous: a typed refusal
    });

    it('loads with require (CommonJS)', async () => {
      const script = `const { ScopaClient, ScopaError, MatchDocument } = require('@scopa/sdk');\n(async () => {${body}})().catch((e) => { console.error(e); process.exit(1); });`;
      const { stdout } = await run(process.execPath, ['-e', script, base], { cwd: root });
      const out = JSON.parse(stdout);
      expect(out.presets).toContain('scopa');
      expect(out.code).toBe('UNAUTHENTICATED'); // anonymous: a typed refusal
    });
  });
});
