/**
 * The after-append pipeline is the one reaction path: no other file
 * registers on the store's hooks, and its steps run in the declared order.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AFTER_APPEND_STEPS, AfterAppend, SQL_STEP } from './after-append';
import type { CommandResult } from '../match-store/match-store';
import { TournamentReactions } from '../tournaments/tournament-reactions';
import { sources, withoutComments } from '../../test/support/sources';

const ROOT = process.cwd();
const SRC = join(ROOT, 'src');
const code = (file: string) => withoutComments(readFileSync(file, 'utf8'));

it('no file but src/reactions/after-append.ts registers on MatchStore.onAppended or onCommand, and it does once each', () => {
  const registrations: string[] = [];
  for (const file of sources(SRC)) {
    for (const m of code(file).matchAll(/\.\s*(onAppended|onCommand)\s*\(/g)) registrations.push(`${relative(SRC, file)}: ${m[1]}`);
  }
  expect(registrations.sort()).toEqual(['reactions/after-append.ts: onAppended', 'reactions/after-append.ts: onCommand']);
});

it('declares the order of the steps', () => {
  expect(AFTER_APPEND_STEPS).toEqual([
    'clockAndOutbox',
    'metrics',
    'turnNotices',
    'lifecycleNotices',
    'lobby',
    'ratings',
    'tournaments',
    'pendingStart',
    'botTurns',
    'vacations',
  ]);
});

function pipeline(calls: string[], fail: string | null = null) {
  const step = (name: string) => async () => {
    calls.push(`${name}:start`);
    await new Promise((r) => setTimeout(r, 5));
    calls.push(`${name}:end`);
    if (name === fail) throw new Error('boom');
  };
  const hooks: string[] = [];
  const store = {
    onAppended: () => (hooks.push('onAppended'), () => undefined),
    onCommand: () => (hooks.push('onCommand'), () => undefined),
  };
  const p = new AfterAppend(
    store as never,
    { record: () => calls.push('metrics') } as never,
    { publishQuietly: step('turnNotices') } as never,
    { afterAppend: step('lifecycleNotices') } as never,
    { publishChange: step('lobby') } as never,
    { appended: () => void calls.push('ratings') } as never,
    { afterAppend: step('pendingStart') } as never,
    { replyTo: step('botTurns') } as never,
    // the real step, on a queue that records the wake-up: it decides itself which appends concern it
    new TournamentReactions({ notify: (kind: string) => void calls.push(`tournaments:${kind}`) } as never, { peek: () => undefined } as never, {} as never),
    { matchAppended: step('vacations') } as never,
  );
  return { p, hooks };
}

const result = (actor: string | null, type = 'CardPlayed'): CommandResult =>
  ({
    matchId: 'm',
    seq: 3,
    replayed: false,
    events: [{ matchId: 'm', seq: 3, type, actor, payload: type === 'MatchEnded' ? { winner: 0, totals: [11, 3], reason: 'points' } : {}, time: new Date() }],
  }) as unknown as CommandResult;

it('runs the in-process steps one after the other in the declared order', async () => {
  const calls: string[] = [];
  const { p, hooks } = pipeline(calls);
  p.onModuleInit();
  expect(hooks.sort()).toEqual(['onAppended', 'onCommand']);
  expect(p.order()).toEqual(AFTER_APPEND_STEPS.slice(2));
  await p.react(result('alice'));
  expect(calls).toEqual([
    'turnNotices:start',
    'turnNotices:end',
    'lifecycleNotices:start',
    'lifecycleNotices:end',
    'lobby:start',
    'lobby:end',
    'ratings',
    'pendingStart:start',
    'pendingStart:end',
    'botTurns:start',
    'botTurns:end',
    'vacations:start',
    'vacations:end',
  ]);
});

it('the tournaments step (after ratings, before pendingStart) only wakes the result worker, unawaited, for an append that ends a match', async () => {
  const calls: string[] = [];
  const { p } = pipeline(calls);
  await p.react(result('alice', 'MatchEnded'));
  expect(calls.filter((c) => !c.endsWith(':start'))).toEqual([
    'turnNotices:end',
    'lifecycleNotices:end',
    'lobby:end',
    'ratings',
    'tournaments:tournament-result',
    'pendingStart:end',
    'botTurns:end',
    'vacations:end',
  ]);
  calls.length = 0;
  await p.react(result('alice'));
  expect(calls.filter((c) => c.startsWith('tournaments'))).toEqual([]);
});

it("a step's failure is its own: the next steps run", async () => {
  const calls: string[] = [];
  const { p } = pipeline(calls, 'lobby');
  await p.react(result('alice'));
  expect(calls.filter((c) => !c.endsWith(':start'))).toEqual([
    'turnNotices:end',
    'lifecycleNotices:end',
    'lobby:end',
    'ratings',
    'pendingStart:end',
    'botTurns:end',
    'vacations:end',
  ]);
});

it("a bot's own append drives no new bot turn", async () => {
  const calls: string[] = [];
  const { p } = pipeline(calls);
  await p.react(result('bot:easy:1'));
  expect(calls).not.toContain('botTurns:start');
  expect(calls).toContain('pendingStart:end');
});

it('records the metrics of every command outcome, refused ones included', () => {
  const calls: string[] = [];
  const { p } = pipeline(calls);
  p.commanded({ command: 'play', rejected: 'NOT_YOUR_TURN' });
  expect(calls).toEqual(['metrics']);
});

it('names the SQL step: the trigger, and the migrations that define it and last replace it', () => {
  const dir = join(ROOT, 'prisma/migrations');
  const defining = readdirSync(dir)
    .filter((m) => statSync(join(dir, m)).isDirectory())
    .sort()
    .map((m) => `prisma/migrations/${m}/migration.sql`)
    .filter((f) => readFileSync(join(ROOT, f), 'utf8').includes(`FUNCTION "${SQL_STEP.function}"`));
  expect(defining[0]).toBe(SQL_STEP.definedIn);
  expect(defining[defining.length - 1]).toBe(SQL_STEP.lastReplacedIn);
  expect(readFileSync(join(ROOT, SQL_STEP.definedIn), 'utf8')).toContain(`CREATE TRIGGER "${SQL_STEP.trigger}"`);
  const doc = readFileSync(join(SRC, 'reactions/after-append.ts'), 'utf8');
  expect(doc).toContain(SQL_STEP.definedIn);
  expect(doc).toContain(SQL_STEP.lastReplacedIn);
});
