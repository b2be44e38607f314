/**
 * Requests generated from openapi.yaml: for every operation, its path and
 * query parameters, headers and JSON body drawn from their schemas, mutated
 * some of the time (arbitraries.ts).
 */
import fc from 'fast-check';
import { OBJECT_PROTOTYPE_KEYS, hostileString, hostileValue, maybeHostile, toJsonText } from './arbitraries';

type Schema = Record<string, any>;

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The raw body text (JSON, or not), when there is one. */
  body?: string;
  /** Which credential to send: an account's index, a forged token, or none. */
  auth: number | 'forged' | 'none';
  operationId: string;
}

export interface OpenApiFuzzContext {
  /** Ids that exist (matches, rulesets...), so that some requests reach past the NOT_FOUND. */
  knownIds: () => string[];
  accounts: number;
}

/** Operations the fuzzer leaves alone: they would end its own sessions, not test anything more. */
const SKIPPED = new Set(['logout', 'logoutAll', 'logoutEverywhere']);

function resolve(doc: Schema, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; s.$ref && i < 10; i++) s = doc.components.schemas[String(s.$ref).split('/').pop()!];
  return s;
}

/** Values of a schema; `depth` bounds recursion through $refs. */
export function fromSchema(doc: Schema, schema: Schema | undefined, ctx: OpenApiFuzzContext, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  if (depth > 4) return fc.constant(null);
  if (s.enum) return maybeHostile(fc.constantFrom(...(s.enum as unknown[])));
  if (s.oneOf || s.anyOf) return fc.oneof(...((s.oneOf ?? s.anyOf) as Schema[]).map((x) => fromSchema(doc, x, ctx, depth + 1)));
  switch (s.type) {
    case 'object': {
      const props = Object.entries((s.properties ?? {}) as Record<string, Schema>);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, p] of props) record[name] = fromSchema(doc, p, ctx, depth + 1);
      const known = props.length ? fc.record(record, { requiredKeys: (s.required ?? []) as string[] }) : fc.constant({});
      // Extra keys: hostile ones, often the names every object answers to (toString, __proto__...), kept as own keys of the JSON.
      const extra = fc.dictionary(fc.oneof(hostileString, fc.constantFrom(...OBJECT_PROTOTYPE_KEYS)), hostileValue, { maxKeys: 2 });
      return maybeHostile(
        fc.tuple(known, fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extra })).map(([a, b]) => ({ ...b, ...(a as object) })),
      );
    }
    case 'array':
      return maybeHostile(fc.array(fromSchema(doc, s.items, ctx, depth + 1), { maxLength: 5 }));
    case 'number':
    case 'integer':
      return maybeHostile(fc.oneof(fc.integer({ min: -2, max: 50 }), fc.constantFrom(s.minimum ?? 0, s.maximum ?? 100)));
    case 'boolean':
      return maybeHostile(fc.boolean());
    case 'string':
      return maybeHostile(stringLike(s, ctx));
    default:
      return hostileValue;
  }
}

function stringLike(s: Schema, ctx: OpenApiFuzzContext): fc.Arbitrary<string> {
  const examples = [s.example, ...(s.examples ?? [])].filter((x) => typeof x === 'string') as string[];
  return fc.oneof(
    fc.string({ minLength: 1, maxLength: 20 }),
    fc.constantFrom('scopa', 'scopone', 'PT1H', 'P1D', 'https://example.com/hook', ...examples),
    fc.constant(null).chain(() => (ctx.knownIds().length ? fc.constantFrom(...ctx.knownIds()) : fc.uuid())),
  );
}

/** Lone surrogates replaced (a URL cannot carry them). */
function wellFormed(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Encoded, except hostile percent sequences, which go as they are (a malformed escape must be refused, not crash). */
function pathSegment(value: string): string {
  return value.startsWith('%') ? value : encodeURIComponent(wellFormed(value));
}

function param(doc: Schema, p: Schema, ctx: OpenApiFuzzContext): fc.Arbitrary<string> {
  const typed = fromSchema(doc, p.schema, ctx).map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')));
  if (p.name === 'id') {
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant(null).chain(() => (ctx.knownIds().length ? fc.constantFrom(...ctx.knownIds()) : fc.uuid())) },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 2, arbitrary: hostileString },
    );
  }
  return typed;
}

/** One arbitrary over every operation of the document. */
export function openApiRequests(doc: Schema, ctx: OpenApiFuzzContext): fc.Arbitrary<FuzzRequest> {
  const operations: fc.Arbitrary<FuzzRequest>[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Schema>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method) || SKIPPED.has(op.operationId)) continue;
      const params = (op.parameters ?? []) as Schema[];
      const pathParams = params.filter((p) => p.in === 'path');
      const queryParams = params.filter((p) => p.in === 'query');
      const bodySchema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      const record = {
        path: fc.tuple(...pathParams.map((p) => param(doc, p, ctx))).map((values) => {
          let out = path;
          pathParams.forEach((p, i) => (out = out.replace(`{${p.name}}`, pathSegment(values[i]))));
          return out;
        }),
        query: fc.tuple(...queryParams.map((p) => fc.option(param(doc, p, ctx), { nil: undefined }))).map((values) => {
          const q = new URLSearchParams();
          queryParams.forEach((p, i) => values[i] !== undefined && q.set(p.name, wellFormed(values[i] as string)));
          return q.toString();
        }),
        body: bodySchema
          ? fc.oneof(
              { weight: 8, arbitrary: fromSchema(doc, bodySchema, ctx).map(toJsonText) },
              { weight: 1, arbitrary: fc.constantFrom('', '{', 'null', '"x"', '[1,2]', '{"a":1}{', '\u0000') },
            )
          : fc.constant(undefined),
        headers: fc.record(
          {
            'if-match': fc.oneof(fc.constantFrom('"1"', '"2"', '*', '"-1"', '""', 'W/"3"', '"99999999999999999999"'), hostileString),
            'idempotency-key': fc.oneof(fc.constantFrom('k1', 'seq4:seat0', 'clock:1'), hostileString),
          },
          { requiredKeys: [] },
        ),
        auth: fc.oneof(
          { weight: 6, arbitrary: fc.integer({ min: 0, max: ctx.accounts - 1 }) },
          { weight: 1, arbitrary: fc.constant('forged' as const) },
          { weight: 1, arbitrary: fc.constant('none' as const) },
        ),
      };
      operations.push(
        fc.record(record).map(({ path: p, query, body, headers, auth }) => {
          const h: Record<string, string> = {};
          // A header value cannot carry every code point: keep what fetch accepts.
          for (const [k, v] of Object.entries(headers)) if (/^[\t\x20-\x7e]*$/.test(v as string)) h[k] = v as string;
          if (body !== undefined) h['content-type'] = 'application/json';
          return { method: method.toUpperCase(), path: query ? `${p}?${query}` : p, headers: h, body, auth, operationId: String(op.operationId) };
        }),
      );
    }
  }
  return fc.oneof(...operations);
}
