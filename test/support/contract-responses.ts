/**
 * Every REST response a test receives is checked against openapi.yaml (issue
 * 26, item 8): a response that disagrees with the contract fails the test that
 * made it. Loaded for every test file (jest.config.mjs, setupFilesAfterEnv).
 *
 * Responses are recorded as they arrive, from supertest (every suite's
 * `request(app.getHttpServer())`) and from the global fetch (suites that talk
 * to a listening instance, the SDK), and validated after each test (and after
 * the file's hooks) with openapi-backend: the route gives the operation, and
 * the response must have a status the operation declares, a media type
 * declared for that status, and a JSON body (application/json or
 * application/problem+json) that validates against its schema. Responses of
 * routes outside the document (GraphQL, OAuth, static files) are not checked.
 *
 * CONTRACT_RESPONSES=off turns it off (to look at a failing suite's own
 * assertions first); CI never sets it.
 */
import { afterAll, afterEach, expect } from '@jest/globals';
import Test from 'supertest/lib/test.js';

/** test/support/contract-validator.cjs, loaded outside jest's module system by the test environment (test/support/environment.cjs). */
const validator = (globalThis as unknown as { __contractValidator: () => unknown }).__contractValidator() as {
  check(seen: { method: string; url: string; status: number; contentType: string; text: string | null }): Promise<string[]>;
  JSON_TYPES: string[];
};

interface Seen {
  method: string;
  url: string;
  status: number;
  contentType: string;
  text: string | null;
}

const JSON_TYPES = validator.JSON_TYPES;
const pending: Seen[] = [];

// The suites under test/ talk to the service; unit specs beside the code (src/, sdk/src/) may answer a REST path from a stand-in server.
const serviceSuite = /[\\/]test[\\/]/.test(expect.getState().testPath ?? '');
const enabled = process.env.CONTRACT_RESPONSES !== 'off' && serviceSuite;

function record(method: string, url: string, status: number, contentType: string, text: string | null): void {
  if (!enabled) return;
  const u = new URL(url, 'http://localhost');
  // Only this service's REST routes; everything it documents is under these.
  if (!/^\/(v1\/|health$|metrics$)/.test(u.pathname)) return;
  pending.push({ method: method.toLowerCase(), url: u.pathname + u.search, status, contentType, text });
}

/** Validates what arrived since the last call; throws with every kind of disagreement (how often, and one example). */
export async function expectResponsesMatchContract(): Promise<void> {
  const batch = pending.splice(0);
  const kinds = new Map<string, { count: number; example: string }>();
  for (const seen of batch) {
    for (const problem of await validator.check(seen)) {
      const kind = kinds.get(problem) ?? {
        count: 0,
        example: `${seen.method.toUpperCase()} ${seen.url} -> ${seen.status}: ${(seen.text ?? '').slice(0, 300)}`,
      };
      kind.count++;
      kinds.set(problem, kind);
    }
  }
  if (kinds.size > 0) {
    const lines = [...kinds].map(([problem, k]) => `${problem} (${k.count}x)\n      e.g. ${k.example}`);
    throw new Error(`responses that disagree with openapi.yaml:\n  ${lines.join('\n  ')}`);
  }
}

// supertest: every request of a suite goes through Test#assert with its response.
const proto = (Test as unknown as { prototype: { assert: (err: unknown, res: any, fn: unknown) => void } }).prototype;
const assert = proto.assert;
proto.assert = function (this: { method: string; url: string }, err: unknown, res: any, fn: unknown): void {
  if (res && typeof res.status === 'number') {
    const text = typeof res.text === 'string' ? res.text : null;
    record(this.method, res.req?.path ?? this.url, res.status, String(res.headers?.['content-type'] ?? ''), text);
  }
  return assert.call(this, err, res, fn);
};

// fetch: JSON bodies are read from a clone; streams (NDJSON, SSE) are left alone (their media type is still checked).
const realFetch = globalThis.fetch;
globalThis.fetch = async function (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]): Promise<Response> {
  const res = await realFetch(input, init);
  try {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET');
    const u = new URL(url);
    if (u.hostname === '127.0.0.1' || u.hostname === 'localhost') {
      const contentType = res.headers.get('content-type') ?? '';
      const isJson = JSON_TYPES.includes(contentType.split(';')[0].trim().toLowerCase());
      if (isJson) {
        const text = await res.clone().text();
        record(method, u.pathname + u.search, res.status, contentType, text);
      } else if (method.toUpperCase() !== 'HEAD') {
        record(method, u.pathname + u.search, res.status, contentType, contentType ? 'stream' : null);
      }
    }
  } catch {
    // A response the test reads itself in a way a clone cannot follow: its own assertions judge it.
  }
  return res;
};

afterEach(expectResponsesMatchContract);
afterAll(expectResponsesMatchContract);
