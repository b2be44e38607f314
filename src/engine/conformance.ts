/**
 * Evaluates `scopa-conformance/1` rule vectors (shared/conformance/README.md)
 * against the engine. Pure: the runner script reads the files.
 */
import { RANK, cardCodes, parseCard } from './cards';
import type { Card } from './cards';
import { declarationsOf, initialTableScope } from './bonuses';
import type { CaptureValues } from './captures';
import { mustRedeal } from './deal';
import { resolveRuleset, sideCount } from './options';
import type { RulesetOptions } from './options';
import { legalPlaysOf } from './plays';
import { matchEnd, scoreRound } from './scoring';

export interface CaseFailure {
  id: string;
  expected: unknown;
  actual: unknown;
}

export interface ConformanceReport {
  malformed: string | null;
  passed: number;
  failures: CaseFailure[];
}

type Case = Record<string, unknown> & { id: string; kind: string; preset: unknown; options?: unknown; expect: unknown };

const REQUIRED: Record<string, string[]> = {
  legalPlays: ['table', 'hand'],
  roundScore: ['captured', 'scope'],
  redeal: ['table'],
  initialTable: ['table'],
  handBonus: ['hand'],
  matchEnd: ['totals'],
  rulesetError: [],
};

export function runConformance(text: string): ConformanceReport {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { malformed: `not JSON (${(err as Error).message})`, passed: 0, failures: [] };
  }
  const d = doc as { format?: unknown; cases?: unknown };
  if (!d || typeof d !== 'object' || d.format !== 'scopa-conformance/1') return { malformed: 'format is not scopa-conformance/1', passed: 0, failures: [] };
  if (!Array.isArray(d.cases)) return { malformed: 'cases is not a list', passed: 0, failures: [] };
  for (const [i, c] of (d.cases as unknown[]).entries()) {
    const problem = caseProblem(c);
    if (problem) return { malformed: `case ${i}: ${problem}`, passed: 0, failures: [] };
  }
  const failures: CaseFailure[] = [];
  let passed = 0;
  for (const c of d.cases as Case[]) {
    const actual = evaluate(c);
    if (sameAnswer(c.kind, c.expect, actual)) passed++;
    else failures.push({ id: c.id, expected: c.expect, actual });
  }
  return { malformed: null, passed, failures };
}

function caseProblem(c: unknown): string | null {
  if (!c || typeof c !== 'object' || Array.isArray(c)) return 'not an object';
  const k = c as Record<string, unknown>;
  if (typeof k.id !== 'string') return 'id missing';
  if (typeof k.kind !== 'string' || !(k.kind in REQUIRED)) return `${k.id}: unknown kind ${JSON.stringify(k.kind)}`;
  for (const field of ['preset', 'expect', ...REQUIRED[k.kind]]) if (!(field in k)) return `${k.id}: ${field} missing`;
  return null;
}

function cards(value: unknown): Card[] {
  if (!Array.isArray(value)) throw new TypeError('expected a list of cards');
  return value.map((code) => {
    const card = parseCard(code);
    if (card < 0) throw new TypeError(`bad card ${JSON.stringify(code)}`);
    return card;
  });
}

function evaluate(c: Case): unknown {
  const resolved = resolveRuleset(c.preset, c.options ?? {});
  if (c.kind === 'rulesetError') return resolved.ok ? { error: null } : { error: resolved.error.option };
  if (!resolved.ok) return { rulesetError: resolved.error.option, message: resolved.error.message };
  const options = resolved.ruleset.options;
  try {
    switch (c.kind) {
      case 'legalPlays':
        return legalPlaysOf(options, cards(c.hand), cards(c.table), c.lastPlay === true, captureValues(c.values)).map((p) => ({
          card: cardCodes([p.card])[0],
          capture: cardCodes(p.capture),
          scopa: p.scopa,
        }));
      case 'roundScore':
        return roundScore(options, c);
      case 'redeal':
        return mustRedeal(options, cards(c.table));
      case 'initialTable': {
        const table = cards(c.table);
        const redeal = mustRedeal(options, table);
        return { redeal, dealerScope: redeal ? 0 : initialTableScope(options, table) };
      }
      case 'handBonus':
        return declarationsOf(options, cards(c.hand));
      case 'matchEnd':
        return matchEnd(options, c.totals as number[], (c.allDenari as number | null | undefined) ?? null);
      default:
        return { error: `unknown kind ${c.kind}` };
    }
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** A case's `values` (card code to capture value), over every card's rank. */
function captureValues(value: unknown): CaptureValues {
  if (value === undefined || value === null) return RANK;
  if (typeof value !== 'object' || Array.isArray(value)) throw new TypeError('values is an object of card codes to capture values');
  const table = new Uint8Array(RANK);
  for (const [code, v] of Object.entries(value as Record<string, unknown>)) {
    const card = parseCard(code);
    if (card < 0) throw new TypeError(`bad card ${JSON.stringify(code)} in values`);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 10) throw new TypeError(`bad capture value ${JSON.stringify(v)} for ${code}`);
    table[card] = v;
  }
  return table;
}

function roundScore(options: RulesetOptions, c: Case): unknown {
  const piles = (c.captured as unknown[]).map(cards);
  if (piles.length !== sideCount(options)) throw new TypeError(`expected ${sideCount(options)} sides, got ${piles.length}`);
  const breakdown = scoreRound(options, piles, c.scope as number[]);
  const out: Record<string, unknown> = { points: breakdown.points, awards: breakdown.awards };
  if (breakdown.primiera) out.primiera = breakdown.primiera;
  return out;
}

const playKey = (p: { card: string; capture: string[]; scopa: boolean }) => `${p.card}|${[...p.capture].sort().join(',')}|${p.scopa}`;

function sameAnswer(kind: string, expected: unknown, actual: unknown): boolean {
  if (kind === 'handBonus') {
    // A set: the order of the declarations does not matter.
    if (!Array.isArray(expected) || !Array.isArray(actual)) return false;
    const key = (d: unknown) => canonical(d);
    return canonical(expected.map(key).sort()) === canonical(actual.map(key).sort());
  }
  if (kind === 'legalPlays') {
    if (!Array.isArray(expected) || !Array.isArray(actual)) return false;
    const a = actual.map(playKey).sort();
    const e = (expected as { card: string; capture: string[]; scopa?: boolean }[]).map((p) => playKey({ ...p, scopa: p.scopa ?? false })).sort();
    return JSON.stringify(a) === JSON.stringify(e);
  }
  return canonical(expected) === canonical(actual);
}

export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
