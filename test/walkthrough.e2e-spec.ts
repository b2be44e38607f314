/**
 * The getting-started guide (docs/getting-started.md), run as written: every
 * fenced `sh` block of the page, in order, in one bash session against a
 * running instance (its URL put in place of http://localhost:3000), with the
 * guide's own curl, jq and openssl. Only the blocks marked "not run by the
 * test" are left out (they start the service and the bot, which run until
 * stopped), and they are pinned here so that no other block slips out. Then
 * the service is asked what the commands did: both matches over, audited
 * sound, the export written, the bot's token working. The GraphQL operations
 * the guide shows for GraphiQL are validated against the schema.
 */
import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import type { INestApplication } from '@nestjs/common';
import { createTestApp, listenOnLoopback } from './support/app';

jest.setTimeout(600_000);

const root = process.cwd();
const GUIDE = path.join(root, 'docs', 'getting-started.md');
const NOT_RUN = /^<!-- walkthrough: not run by the test\b/;

interface Block {
  lang: string;
  code: string;
  run: boolean;
}

/** The guide's fenced blocks, in order; a block right after a "not run by the test" marker is not run. */
function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^```\s*$/.test(lines[j]); j++) body.push(lines[j]);
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === '') k--;
    blocks.push({ lang: open[1], code: body.join('\n'), run: !(k >= 0 && NOT_RUN.test(lines[k])) });
    i = j;
  }
  return blocks;
}

function bash(script: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 540_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('docs/getting-started.md, run as written', () => {
  const guide = readFileSync(GUIDE, 'utf8');
  const blocks = blocksOf(guide);
  const shell = blocks.filter((b) => b.lang === 'sh');

  it('is linked from the README Quick start, which keeps the commands a newcomer types', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
    expect(quickStart).toContain('npm install && npm start');
    expect(quickStart).toContain('npm test');
    expect(quickStart).toContain('(docs/getting-started.md)');
  });

  it('leaves out only the two blocks that start long-running processes', () => {
    const skipped = shell.filter((b) => !b.run);
    expect(skipped).toHaveLength(2);
    expect(skipped[0].code).toContain('npm install && npm start');
    expect(skipped[1].code).toContain('npm start -w @scopa/example-bot');
    expect(shell.filter((b) => b.run).length).toBeGreaterThanOrEqual(7);
  });

  it('shows GraphQL operations that the schema accepts', () => {
    const schema = buildSchema(readFileSync(path.join(root, 'schema.graphql'), 'utf8'));
    const documents = blocks.filter((b) => b.lang === 'graphql');
    expect(documents.length).toBeGreaterThan(0);
    for (const { code } of documents) expect(validate(schema, parse(code)).map((e) => e.message)).toEqual([]);
  });

  describe('against a running service', () => {
    let app: INestApplication;
    let base: string;
    let dir: string;
    let run: { code: number; stdout: string; stderr: string };
    let found: Record<string, string>;

    beforeAll(async () => {
      // the defaults a newcomer has (rate limits included), on an empty database
      app = await createTestApp();
      base = (await listenOnLoopback(app)).http;
      dir = mkdtempSync(path.join(tmpdir(), 'walkthrough-'));
      const commands = shell
        .filter((b) => b.run)
        .map((b) => b.code)
        .join('\n')
        .replaceAll('http://localhost:3000', base);
      expect(commands).not.toContain('localhost:3000');
      // what the commands left in their variables, for the checks below (printed after them, not part of the guide)
      const probe = `printf '\\nWALKTHROUGH %s\\n' "$(jq -nc --arg A "$A" --arg M "$M" --arg C "$C" --arg G "$G" --arg TOKEN "$TOKEN" '$ARGS.named')"`;
      run = await bash(`set -euo pipefail\n${commands}\n${probe}\n`, dir);
      const line = run.stdout.split('\n').find((l) => l.startsWith('WALKTHROUGH '));
      found = line ? (JSON.parse(line.slice('WALKTHROUGH '.length)) as Record<string, string>) : {};
    });

    afterAll(async () => {
      await app?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const get = async (url: string, token: string) => {
      const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as any };
    };

    it('runs every command without an error', () => {
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).not.toMatch(/"errors"/);
    });

    it('plays the REST match to its end, with the retry and the stale If-Match the guide shows', async () => {
      expect(run.stdout).toContain('{"status":412,"code":"VERSION_CONFLICT"}');
      const match = await get(`/v1/matches/${found.M}`, found.A);
      expect(match.status).toBe(200);
      expect(match.body.status).toBe('over');
      expect(match.body.view.clientSeeds.every((s: string | null) => typeof s === 'string')).toBe(true);
      expect((await get(`/v1/matches/${found.M}/audit`, found.A)).body).toMatchObject({ sound: true, checked: 'chain+rules' });
      // the export the guide writes: its header, then one line per event
      const lines = readFileSync(path.join(dir, 'match.jsonl'), 'utf8').trim().split('\n');
      expect(JSON.parse(lines[0])).toMatchObject({ format: 'scopa-match/2', matchId: found.M, seed: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(lines.length - 1).toBe(match.body.seq);
    });

    it('plays the GraphQL match to its end, both client seeds given, started by startMatch', async () => {
      const match = await get(`/v1/matches/${found.G}`, found.C);
      expect(match.body.status).toBe('over');
      expect(match.body.view.clientSeeds).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/), expect.stringMatching(/^[0-9a-f]{64}$/)]);
      const events = await get(`/v1/matches/${found.G}/events`, found.C);
      const started = (events.body as { type: string; actor: string }[]).find((e: { type: string }) => e.type === 'MatchStarted');
      expect(started).toMatchObject({ actor: 'carol' });
      expect(run.stdout).toContain('"audit":{"sound":true,"checked":"chain+rules"}');
    });

    it("gives the bot's account an API token with the scopes the bot needs", async () => {
      expect(found.TOKEN).toMatch(/^scopa_pat_/);
      const me = await get('/v1/me', found.TOKEN);
      expect(me.status).toBe(200);
      expect(JSON.stringify(me.body)).toContain('"robo"');
      // what the bot does at each poll: its challenges (challenge:write)
      expect((await get('/v1/challenges', found.TOKEN)).status).toBe(200);
    });
  });
});
