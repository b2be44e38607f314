/**
 * The fuzz run against one listening instance: REST requests from
 * openapi.yaml and GraphQL operations from schema.graphql, seeded and bounded
 * in count and time. Collects every answer that breaks the service's promises
 * (a 5xx, an INTERNAL error, /health not answering) and the matches it
 * touched, for the caller to audit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { buildSchema } from 'graphql';
import { parse as parseYaml } from 'yaml';
import { graphqlOperations } from './graphql-operations';
import { openApiRequests } from './openapi-requests';
import { OPTION_NAMES } from '../../src/engine/options';
import { maxAnonymousCost, maxCost, operationCharge } from '../../src/limits/request-cost';
import { Kind, parse } from 'graphql';
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { loadConfig } from '../../src/config/config';

export interface FuzzOptions {
  baseUrl: string;
  seed: number;
  /** Requests at most (REST and GraphQL together). */
  runs: number;
  /** Time bound: the run stops sending after this long. */
  seconds: number;
  /** Requests in flight at once. */
  concurrency?: number;
}

export interface Finding {
  what: string;
  status: number;
  body: string;
}

export interface FuzzReport {
  sent: number;
  findings: Finding[];
  /** Matches created or known during the run: each must still audit sound. */
  matchIds: string[];
  /** The slowest /health answer seen while the run went on (ms). */
  slowestHealthMs: number;
  healthFailures: number;
  statuses: Record<string, number>;
  /** A session of one of the run's accounts (the audit needs a caller). */
  token: string;
}

const FORGED_TOKENS = [
  'eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ4IiwidXNlcm5hbWUiOiJ4In0.',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
  'scopa_pat_' + 'A'.repeat(40),
  'a.b.c',
];

/** Operations that answer a live NDJSON stream (src/streams/): held open until the client goes away. */
const LIVE_STREAMS = new Set(['streamEvents', 'streamMatch', 'streamLobby']);

/** A JSON body whose `overrides` object has an own key that is no option (an answer below 300 to it is a finding: it must be refused, as `foo` is). */
function acceptsUnknownOption(body: string | undefined): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    return false;
  }
  const overrides = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>).overrides : undefined;
  if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides)) return false;
  return Object.keys(overrides).some((k) => !(OPTION_NAMES as readonly string[]).includes(k));
}

/**
 * The budget a document's answer must keep to: its cost (src/limits/request-cost.ts, with its variables), and the budget of its
 * caller (anonymous or not); undefined when it does not parse (GraphQL says why).
 */
function costOf(schema: GraphQLSchema, query: string, variables: Record<string, unknown>, anonymous: boolean): { cost: number; budget: number } | undefined {
  let doc;
  try {
    doc = parse(query);
  } catch {
    return undefined;
  }
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const fragments = new Map(doc.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  if (ops.length !== 1) return undefined;
  const charge = operationCharge(schema, ops[0], fragments, Infinity, Infinity, variables);
  return anonymous ? { cost: charge.cost - charge.authCost, budget: maxAnonymousCost(loadConfig()) } : { cost: charge.cost, budget: maxCost(loadConfig()) };
}

/** A JSON body with a `__proto__`, `constructor` or `prototype` member somewhere (option overrides aside: their keys are the engine's to name): it must be refused, as any unknown member is. */
function hasPrototypeMember(body: string | undefined): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    return false;
  }
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== 'object') return false;
    if (Array.isArray(v)) return v.some(walk);
    return Object.keys(v).some((k) => ['__proto__', 'constructor', 'prototype'].includes(k) || (k !== 'overrides' && walk((v as Record<string, unknown>)[k])));
  };
  return walk(parsed);
}

async function json(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return { text, body: JSON.parse(text) };
  } catch {
    return { text, body: null };
  }
}

async function setUp(baseUrl: string, accounts: number): Promise<{ tokens: string[]; matchIds: string[]; otherIds: string[] }> {
  const tokens: string[] = [];
  const suffix = Math.random().toString(36).slice(2, 8);
  for (let i = 0; i < accounts; i++) {
    const username = `fuzz${i}${suffix}`;
    const res = await fetch(`${baseUrl}/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: `password-${username}` }),
    });
    const { body, text } = await json(res);
    if (res.status !== 201) throw new Error(`fuzz set-up: register ${res.status} ${text}`);
    tokens.push(body.accessToken);
  }
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const out = await json(res);
    if (res.status >= 300) throw new Error(`fuzz set-up: ${method} ${path} ${res.status} ${out.text}`);
    return out.body;
  };
  // An open match, one in play against a bot, one over (resigned), one with a human opponent in play.
  const open = await call('POST', '/v1/matches', tokens[0], { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
  const vsBot = await call('POST', '/v1/matches', tokens[0], { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'random' }] });
  await call('POST', `/v1/matches/${vsBot.id}/start`, tokens[0], {});
  const over = await call('POST', '/v1/matches', tokens[1], { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
  await call('POST', `/v1/matches/${over.id}/start`, tokens[1], {});
  await call('POST', `/v1/matches/${over.id}/resign`, tokens[1], {});
  const duel = await call('POST', '/v1/matches', tokens[0], { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] });
  await call('POST', `/v1/matches/${duel.id}/join`, tokens[1], {});
  await call('POST', `/v1/matches/${duel.id}/start`, tokens[0], {});
  const ruleset = await call('POST', '/v1/custom-rulesets', tokens[2], { name: `fuzz${suffix}`, preset: 'scopa', overrides: { target: 3 } }).catch(() => null);
  // A started tournament, for its standings, players and rounds (the lists GraphQL prices, src/limits/request-cost.ts).
  const tournament = await call('POST', '/v1/tournaments', tokens[0], {
    name: `fuzz${suffix}`,
    format: 'swiss',
    preset: 'scopa',
    overrides: { target: 1 },
    rounds: 2,
  });
  for (const token of tokens) await call('POST', `/v1/tournaments/${tournament.id}/join`, token, {});
  await call('POST', `/v1/tournaments/${tournament.id}/start`, tokens[0], {});
  return { tokens, matchIds: [open.id, vsBot.id, over.id, duel.id], otherIds: [...(ruleset?.id ? [ruleset.id] : []), tournament.id] };
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const root = process.cwd();
  const doc = parseYaml(readFileSync(join(root, 'openapi.yaml'), 'utf8'));
  const schema = buildSchema(readFileSync(join(root, 'schema.graphql'), 'utf8'));
  const accounts = 3;
  const { tokens, matchIds, otherIds } = await setUp(options.baseUrl, accounts);
  const knownMatches = new Set(matchIds);
  const knownIds = () => [...knownMatches, ...otherIds];

  const requests = fc.sample(openApiRequests(doc, { knownIds, accounts }), { seed: options.seed, numRuns: Math.ceil(options.runs / 2) });
  const operations = fc.sample(graphqlOperations(schema, { knownIds }), { seed: options.seed + 1, numRuns: Math.floor(options.runs / 2) });

  const report: FuzzReport = { sent: 0, findings: [], matchIds: [], slowestHealthMs: 0, healthFailures: 0, statuses: {}, token: tokens[0] };
  const count = (status: number) => (report.statuses[status] = (report.statuses[status] ?? 0) + 1);
  const remember = (value: unknown) => {
    // A created match, over REST ({id, seq, status, view}) or GraphQL (createMatch { id ... }).
    const v = value as { id?: unknown; view?: unknown } | null;
    if (v && typeof v.id === 'string' && v.view !== undefined && knownMatches.size < 60) knownMatches.add(v.id);
  };
  const bearer = (auth: number | 'forged' | 'none', i: number): Record<string, string> =>
    auth === 'none' ? {} : { authorization: `Bearer ${auth === 'forged' ? FORGED_TOKENS[i % FORGED_TOKENS.length] : tokens[auth]}` };

  const jobs: (() => Promise<void>)[] = [];
  const n = Math.max(requests.length, operations.length);
  for (let i = 0; i < n; i++) {
    const r = requests[i];
    if (r) {
      jobs.push(async () => {
        let res: Response;
        try {
          res = await fetch(`${options.baseUrl}${r.path}`, { method: r.method, headers: { ...r.headers, ...bearer(r.auth, i) }, body: r.body });
        } catch (err) {
          // fetch itself refused to send it (a header or URL it cannot carry): not the service's answer.
          if (err instanceof TypeError && !/fetch failed/.test(err.message)) return;
          report.findings.push({ what: `${r.method} ${r.path} (${r.operationId})`, status: 0, body: String((err as Error).cause ?? err) });
          return;
        }
        // A live stream that opened never ends by itself: its status is the answer; the client then goes away.
        if (LIVE_STREAMS.has(r.operationId) && res.status === 200) {
          count(res.status);
          await res.body?.cancel();
          return;
        }
        const out = await json(res);
        count(res.status);
        if (res.status >= 500)
          report.findings.push({
            what: `${r.method} ${r.path.slice(0, 200)} body=${(r.body ?? '').slice(0, 300)}`,
            status: res.status,
            body: out.text.slice(0, 500),
          });
        if (res.status < 300 && acceptsUnknownOption(r.body))
          report.findings.push({
            what: `${r.method} ${r.path} accepted an unknown option: ${(r.body ?? '').slice(0, 300)}`,
            status: res.status,
            body: out.text.slice(0, 300),
          });
        if (res.status < 300 && hasPrototypeMember(r.body))
          report.findings.push({
            what: `${r.method} ${r.path} accepted a prototype member: ${(r.body ?? '').slice(0, 300)}`,
            status: res.status,
            body: out.text.slice(0, 300),
          });
        if (r.method === 'POST' && res.status === 201) remember(out.body);
      });
    }
    const op = operations[i];
    if (op) {
      jobs.push(async () => {
        const auth = i % 7 === 0 ? 'none' : i % 11 === 0 ? 'forged' : i % accounts;
        const res = await fetch(`${options.baseUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...bearer(auth, i) },
          body: JSON.stringify({ query: op.query, variables: op.variables }),
        });
        const out = await json(res);
        count(res.status);
        const internal = (out.body?.errors ?? []).some((e: any) => e?.extensions?.code === 'INTERNAL' || e?.extensions?.code === 'INTERNAL_SERVER_ERROR');
        if (res.status >= 500 || internal) {
          report.findings.push({
            what: `GraphQL ${op.field}: ${op.query.slice(0, 300)} variables=${JSON.stringify(op.variables).slice(0, 300)}`,
            status: res.status,
            body: out.text.slice(0, 500),
          });
        }
        // A document over its caller's budget never runs: no field of it answers.
        const priced = auth === 'forged' ? undefined : costOf(schema, op.query, op.variables, auth === 'none');
        if (priced && priced.cost > priced.budget && out.body?.data && Object.values(out.body.data).some((v) => v !== null)) {
          report.findings.push({
            what: `GraphQL ${op.field} ran over its budget (${priced.cost} > ${priced.budget}): ${op.query.slice(0, 300)}`,
            status: res.status,
            body: out.text.slice(0, 300),
          });
        }
        if (out.body?.data) for (const v of Object.values(out.body.data)) remember(v);
      });
    }
  }

  // /health is asked all along: it must keep answering, and quickly.
  let running = true;
  const healthWatch = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${options.baseUrl}/health`, { signal: AbortSignal.timeout(5_000) });
        if (!res.ok) report.healthFailures++;
        await res.arrayBuffer();
      } catch {
        report.healthFailures++;
      }
      report.slowestHealthMs = Math.max(report.slowestHealthMs, performance.now() - t0);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();

  const deadline = Date.now() + options.seconds * 1000;
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && Date.now() < deadline) {
      const job = jobs[next++];
      report.sent++;
      await job();
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  } finally {
    running = false;
    await healthWatch;
  }
  report.matchIds = [...knownMatches];
  return report;
}

/** The audit of each match: a list of the unsound ones (empty when all are sound). */
export async function unsoundMatches(baseUrl: string, token: string, matchIds: string[]): Promise<string[]> {
  const bad: string[] = [];
  for (const id of matchIds) {
    const res = await fetch(`${baseUrl}/v1/matches/${id}/audit`, { headers: { authorization: `Bearer ${token}` } });
    const { body, text } = await json(res);
    if (res.status !== 200 || body?.sound !== true) bad.push(`${id}: ${res.status} ${text.slice(0, 300)}`);
  }
  return bad;
}
