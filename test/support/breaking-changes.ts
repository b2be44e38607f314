/**
 * Breaking changes between two releases of the public contracts.
 *
 * - GraphQL: @graphql-inspector/core's diff; its BREAKING changes, except the
 *   removal of a field deprecated in the previous release
 *   (DiffRule.suppressRemovalOfDeprecatedField). Keyed by the change's path
 *   (`Type.field`, `Type.field.arg`, `Type`).
 * - OpenAPI: openapi-diff (paths and operations removed, request bodies
 *   narrowed, response bodies widened, status codes...) over request schemas
 *   closed as the service treats them (see closedRequests), plus what it does not
 *   look at, compared here: a query/path/header parameter removed, made
 *   required, or its type or enum narrowed, and an enum value removed from a
 *   request body property. JSON bodies are compared once per distinct pair
 *   and by parts (see openapiBreakingChanges), null spelled any of the
 *   contracts' three ways counting as the same. openapi-diff does not look
 *   at enum values in bodies (json-schema-diff ignores `enum`): a response
 *   enum gaining a value is not caught. An operation deprecated in the
 *   previous release may be removed. Keyed by `METHOD /path`.
 */
import { CriticalityLevel, DiffRule, diff } from '@graphql-inspector/core';
import type { GraphQLSchema } from 'graphql';
import openapiDiff from 'openapi-diff';

export interface BreakingChange {
  /** What a CHANGELOG entry names to acknowledge it: a GraphQL path, or `METHOD /path`. */
  key: string;
  message: string;
}

export async function graphqlBreakingChanges(before: GraphQLSchema, after: GraphQLSchema): Promise<BreakingChange[]> {
  const changes = await diff(before, after, [DiffRule.suppressRemovalOfDeprecatedField]);
  return changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking).map((c) => ({ key: c.path ?? c.type, message: c.message }));
}

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function operations(doc: Json): Map<string, Json> {
  const ops = new Map<string, Json>();
  for (const [p, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const m of METHODS)
      if (item[m]) ops.set(`${m.toUpperCase()} ${p}`, { ...item[m], parameters: [...(item.parameters ?? []), ...(item[m].parameters ?? [])] });
  }
  return ops;
}

/** `paths./v1/x.post...` (openapi-diff's locations) -> `POST /v1/x`. */
function keyOfLocation(location: string | undefined): string {
  const m = /^paths\.(\/[^.]*)\.(get|put|post|delete|patch|head|options)(?:\.|$)/.exec(location ?? '');
  if (m) return `${m[2].toUpperCase()} ${m[1]}`;
  const p = /^paths\.(\/.*)$/.exec(location ?? '');
  return p ? `* ${p[1]}` : (location ?? 'openapi');
}

const resolve = (doc: Json, s: Json | undefined): Json | undefined => {
  let node = s;
  for (let i = 0; node?.$ref && i < 10; i++) node = doc.components?.schemas?.[String(node.$ref).split('/').pop()!];
  return node;
};
const typeOf = (doc: Json, s: Json | undefined): string => JSON.stringify(resolve(doc, s)?.type ?? null);
const enumOf = (doc: Json, s: Json | undefined): unknown[] | null => resolve(doc, s)?.enum ?? resolve(doc, s)?.items?.enum ?? null;

function parameterChanges(before: Json, after: Json): BreakingChange[] {
  const out: BreakingChange[] = [];
  const now = operations(after);
  for (const [key, op] of operations(before)) {
    const next = now.get(key);
    if (!next) continue; // a removed operation: openapi-diff reports it
    for (const p of op.parameters as Json[]) {
      const q = (next.parameters as Json[]).find((x) => x.name.toLowerCase() === p.name.toLowerCase() && x.in === p.in);
      if (!q) out.push({ key, message: `${p.in} parameter ${p.name} removed` });
      else {
        if (q.required && !p.required) out.push({ key, message: `${p.in} parameter ${p.name} made required` });
        if (typeOf(after, q.schema) !== typeOf(before, p.schema)) out.push({ key, message: `${p.in} parameter ${p.name} changed type` });
        const [e0, e1] = [enumOf(before, p.schema), enumOf(after, q.schema)];
        const lost = e1 ? (e0 ?? ['(any)']).filter((v) => !e1.includes(v)) : [];
        if (lost.length) out.push({ key, message: `${p.in} parameter ${p.name} no longer takes ${lost.join(', ')}` });
      }
    }
    for (const q of next.parameters as Json[]) {
      if (q.required && !(op.parameters as Json[]).some((p) => p.name.toLowerCase() === q.name.toLowerCase() && p.in === q.in))
        out.push({ key, message: `new required ${q.in} parameter ${q.name}` });
    }
    // enum values a request body property no longer takes
    const bodyOf = (doc: Json, o: Json) => resolve(doc, o.requestBody?.content?.['application/json']?.schema);
    const [b0, b1] = [bodyOf(before, op), bodyOf(after, next)];
    for (const [name, prop] of Object.entries((b0?.properties ?? {}) as Record<string, Json>)) {
      const [e0, e1] = [enumOf(before, prop), enumOf(after, b1?.properties?.[name])];
      const lost = e0 && e1 ? e0.filter((v) => !e1.includes(v)) : [];
      if (lost.length) out.push({ key, message: `request body ${name} no longer takes ${lost.join(', ')}` });
    }
  }
  return out;
}

/**
 * The document with its request body schemas closed (`additionalProperties:
 * false` where unset), as the service treats them: the validation pipe refuses
 * unknown properties (forbidNonWhitelisted). Without it, openapi-diff would
 * call a new optional input property breaking (any value was "allowed" before).
 */
function closedRequests(doc: Json): Json {
  const out = structuredClone(doc);
  const schemas = (out.components?.schemas ?? {}) as Record<string, Json>;
  const seen = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string') {
      const name = ref.split('/').pop()!;
      if (!seen.has(name) && schemas[name]) {
        seen.add(name);
        walk(schemas[name]);
      }
      return;
    }
    const n = node as Json;
    if (n.properties && n.additionalProperties === undefined) n.additionalProperties = false;
    for (const v of Object.values(n)) walk(v);
  };
  for (const item of Object.values((out.paths ?? {}) as Record<string, Json>)) {
    for (const m of METHODS) if (item[m]?.requestBody) walk(item[m].requestBody);
  }
  return out;
}

/**
 * The documents without the bodies of their 4xx/5xx responses. Each is a
 * `oneOf` of the problem documents an operation may answer with (one per error
 * code), and openapi-diff compares every branch of a `oneOf` with every other:
 * with the codes every operation now declares, the whole comparison ran for
 * over ten minutes (measured: 11 s without them). What an operation may answer
 * is still pinned: the statuses it declares are compared, and
 * test/openapi-errors.e2e-spec.ts checks the problem documents themselves.
 */
function withoutErrorBodies<T>(doc: T): T {
  const out = structuredClone(doc) as Json;
  for (const item of Object.values((out.paths ?? {}) as Json))
    for (const op of Object.values(item as Json))
      if (op && typeof op === 'object' && (op as Json).responses)
        for (const [status, response] of Object.entries((op as Json).responses as Json))
          if (/^[45]/.test(status) && response && typeof response === 'object') delete (response as Json).content;
  return out as T;
}

/** One JSON body of an operation: its request body, or the body of one of its responses. */
interface BodySlot {
  key: string;
  /** `request` or a status code. */
  slot: string;
}

const JSON_MEDIA = 'application/json';
const jsonBodyOf = (node: Json | undefined): Json | undefined => node?.content?.[JSON_MEDIA]?.schema;

/** The names of the component schemas `schema` reaches, transitively. */
function reachableSchemas(doc: Json, schema: unknown): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (!names.has(name)) {
        names.add(name);
        walk(doc.components?.schemas?.[name]);
      }
      return;
    }
    for (const v of Object.values(node as Json)) walk(v);
  };
  walk(schema);
  return names;
}

/**
 * A schema with what it reaches, as a standalone value: the schema and the
 * component schemas it references (by name, sorted), so that two schemas
 * that mean the same compare equal as text.
 */
function closure(doc: Json, schema: Json): Json {
  const names = [...reachableSchemas(doc, schema)].sort();
  return { schema: unannotated(schema), schemas: Object.fromEntries(names.map((n) => [n, unannotated(doc.components.schemas[n])])) };
}

/** Words about a value, not constraints on it: json-schema-diff ignores them, and without them more pairs are equal as text. */
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'externalDocs', 'xml']);
function unannotated(node: unknown): any {
  if (Array.isArray(node)) return node.map(unannotated);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node as Json)
      .filter(([k]) => !ANNOTATIONS.has(k))
      .map(([k, v]) => [k, k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, x]) => [p, unannotated(x)])) : unannotated(v)]),
  );
}

const deref = (doc: Json, s: Json | undefined): Json | undefined => resolve(doc, s);
const combined = (s: Json): boolean => ['oneOf', 'anyOf', 'allOf', 'not'].some((k) => k in s);
const plainObject = (s: Json | undefined): s is Json => !!s && s.type === 'object' && !!s.properties && !combined(s);
const plainArray = (s: Json | undefined): s is Json => !!s && s.type === 'array' && !!s.items && !combined(s);
/** What an object says of a property it does not list: any value (open), none (closed: its shell says so), or a schema. */
const unlisted = (s: Json): Json | null => (s.additionalProperties === false ? null : typeof s.additionalProperties === 'object' ? s.additionalProperties : {});

const isNull = (doc: Json, s: Json | undefined): boolean => {
  const r = deref(doc, s);
  return !!r && (r.type === 'null' || (Array.isArray(r.enum) && r.enum.length === 1 && r.enum[0] === null));
};

/**
 * A schema as "null or not" and what it admits besides null. The contracts
 * spell a nullable value three ways (OpenAPI 3.0's `nullable: true`; a
 * `$ref` under `allOf` with `nullable`, as 0.1.0 did; a `oneOf` of the
 * schema and `null`, as now): the same meaning, compared as the same.
 * Absent (no schema) admits anything, null included.
 */
function nonNull(doc: Json, s: Json | undefined): { nullable: boolean; schema: Json } {
  const r = deref(doc, s);
  if (!r) return { nullable: true, schema: {} };
  // no type and nothing else that would exclude null: any value, null included
  if (r.type === undefined && !['oneOf', 'anyOf', 'allOf', 'not', 'enum'].some((k) => k in r)) return { nullable: true, schema: r };
  for (const k of ['oneOf', 'anyOf'])
    if (Array.isArray(r[k]) && r[k].length === 2 && r[k].some((x: Json) => isNull(doc, x)) && !r[k].every((x: Json) => isNull(doc, x)))
      return {
        nullable: true,
        schema: nonNull(
          doc,
          r[k].find((x: Json) => !isNull(doc, x)),
        ).schema,
      };
  if (Array.isArray(r.allOf) && r.allOf.length === 1 && !r.properties) {
    const inner = nonNull(doc, r.allOf[0]);
    return { nullable: inner.nullable || r.nullable === true, schema: inner.schema };
  }
  if (r.nullable === true) {
    const { nullable: _, ...rest } = r;
    return { nullable: true, schema: rest };
  }
  return { nullable: false, schema: r };
}

/** A part of a body pair: two schemas to compare, or whether each admits null. */
type Part = { source: Json; destination: Json } | { nullBefore: boolean; nullAfter: boolean; at: string };

/**
 * The parts whose differences make up those of `x` (in `b`) and `y` (in
 * `a`). Whether each admits null is one part; two plain objects (no
 * oneOf/anyOf/allOf) differ where their shells differ (type, required,
 * which properties they list, additionalProperties: the properties
 * themselves as any value) or where a property's values differ; two plain
 * arrays likewise by shell and items. A value one admits and the other does
 * not shows in one of these parts, so the verdict is the one of the whole
 * pair; but each part is small, where json-schema-diff's cost grows much
 * faster than the size of what it compares (intersections and complements
 * of every union inside: a Match's body took seconds, and comparing it
 * with a copy lacking one property did not end in 13 minutes).
 */
function parts(b: Json, x: Json | undefined, a: Json, y: Json | undefined, out: Part[], at = ''): void {
  const [nx, ny] = [nonNull(b, x), nonNull(a, y)];
  if (nx.nullable !== ny.nullable) out.push({ nullBefore: nx.nullable, nullAfter: ny.nullable, at: at || '(body)' });
  const [rx, ry] = [nx.schema, ny.schema];
  if (plainObject(rx) && plainObject(ry)) {
    const shell = (s: Json): Json => ({ ...s, properties: Object.fromEntries(Object.keys(s.properties).map((k) => [k, {}])) });
    out.push({ source: closure(b, shell(rx)), destination: closure(a, shell(ry)) });
    for (const k of new Set([...Object.keys(rx.properties), ...Object.keys(ry.properties)])) {
      const [px, py] = [rx.properties[k] ?? unlisted(rx), ry.properties[k] ?? unlisted(ry)];
      if (px && py) parts(b, px, a, py, out, `${at}.${k}`); // a property one side does not allow: the shells differ
    }
    return;
  }
  if (plainArray(rx) && plainArray(ry)) {
    out.push({ source: closure(b, { ...rx, items: {} }), destination: closure(a, { ...ry, items: {} }) });
    return parts(b, rx.items, a, ry.items, out, `${at}[]`);
  }
  // both admit null or neither does (compared above): what they admit besides it
  out.push({ source: closure(b, rx), destination: closure(a, ry) });
}

/** A document of one operation whose only body is `closure` (as request body or as the 200 response's). */
function oneBodySpec(part: Json, slot: string): string {
  const body = { content: { [JSON_MEDIA]: { schema: part.schema } } };
  const op =
    slot === 'request' ? { requestBody: body, responses: { '204': { description: 'none' } } } : { responses: { '200': { description: 'body', ...body } } };
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'body', version: '0' }, paths: { '/body': { post: op } }, components: { schemas: part.schemas } });
}

/**
 * The documents with their JSON body schemas taken out (compared apart, once
 * per distinct pair; see openapiBreakingChanges), and the component schemas
 * nothing left refers to (parameters may).
 */
function withoutJsonBodies(doc: Json): Json {
  const out = structuredClone(doc);
  const prune = (): void => {
    const kept = reachableSchemas(out, { ...out, components: { ...out.components, schemas: {} } });
    if (out.components?.schemas) out.components.schemas = Object.fromEntries(Object.entries(out.components.schemas as Json).filter(([n]) => kept.has(n)));
  };
  for (const item of Object.values((out.paths ?? {}) as Json))
    for (const m of METHODS) {
      const op = (item as Json)[m];
      if (!op) continue;
      if (jsonBodyOf(op.requestBody)) op.requestBody.content[JSON_MEDIA] = {};
      for (const response of Object.values((op.responses ?? {}) as Json)) if (jsonBodyOf(response as Json)) (response as Json).content[JSON_MEDIA] = {};
    }
  prune();
  return out;
}

interface Difference {
  code: string;
  details?: unknown;
  sourceSpecEntityDetails: { location?: string }[];
  destinationSpecEntityDetails: { location?: string }[];
}

async function breakingDifferences(source: string, destination: string): Promise<Difference[]> {
  const result = await openapiDiff.diffSpecs({
    sourceSpec: { content: source, location: 'previous release', format: 'openapi3' },
    destinationSpec: { content: destination, location: 'current', format: 'openapi3' },
  });
  return result.breakingDifferencesFound ? (result.breakingDifferences as Difference[]) : [];
}

/** Body comparisons already made, by the text of the pair: the same bodies recur across operations and calls. */
const bodyDiffs = new Map<string, Promise<Difference[]>>();

/**
 * openapi-diff over the whole documents, but with each distinct pair of JSON
 * bodies compared once. openapi-diff compares bodies as sets of JSON values
 * (json-schema-diff: intersections and complements of the schemas), which
 * costs seconds for one of the larger bodies (a Match, with its nullable and
 * union members) on a loaded machine; it repeated that for every operation
 * answering the same body (a Match: nine of them), each time with every
 * component schema of the document attached, and it does it even when the
 * two bodies are the same. So: the structure (paths, operations, statuses,
 * headers) is compared with the JSON bodies taken out; each body pair is
 * compared, as a document of one operation holding only that body and the
 * component schemas it reaches, only if the two differ, and once for every
 * operation that has it; and a body is compared by its parts (see parts),
 * with its words (descriptions, examples) left out. Same engine; measured on
 * the current contracts against 0.1.0 outside jest on a busy machine: 37 to
 * 73 s before, 8 s after (4.5 s of it the structure), and a copy of the
 * contract lacking one Match property no longer runs for over 13 minutes.
 */
export async function openapiBreakingChanges(before: Json, after: Json): Promise<BreakingChange[]> {
  const [b, a] = [closedRequests(withoutErrorBodies(before)), closedRequests(withoutErrorBodies(after))];
  const old = operations(before);
  const changes: BreakingChange[] = [];
  const add = (d: Difference, key: string): void => {
    const message = `${d.code}${d.details ? ` ${JSON.stringify(d.details).slice(0, 200)}` : ''}`;
    // a path removed: each of its operations is removed
    const keys = d.code === 'path.remove' ? [...old.keys()].filter((k) => k.endsWith(` ${key.slice(2)}`)) : [key];
    // removing what the previous release deprecated is the announced way to remove it
    for (const k of keys) if (!(/\.remove$/.test(d.code) && old.get(k)?.deprecated === true)) changes.push({ key: k, message });
  };

  const structural = await breakingDifferences(JSON.stringify(withoutJsonBodies(b)), JSON.stringify(withoutJsonBodies(a)));
  for (const d of structural) add(d, keyOfLocation(d.sourceSpecEntityDetails[0]?.location ?? d.destinationSpecEntityDetails[0]?.location));

  // the bodies of the operations and statuses both documents have
  const pairs = new Map<string, { source: string; destination: string; slots: BodySlot[] }>();
  const [opsBefore, opsAfter] = [operations(b), operations(a)];
  for (const [key, op] of opsBefore) {
    const next = opsAfter.get(key);
    if (!next) continue;
    const slots: [string, Json | undefined, Json | undefined][] = [['request', jsonBodyOf(op.requestBody), jsonBodyOf(next.requestBody)]];
    for (const [status, response] of Object.entries((op.responses ?? {}) as Json))
      if (next.responses?.[status]) slots.push([status, jsonBodyOf(response as Json), jsonBodyOf(next.responses[status])]);
    for (const [slot, x, y] of slots) {
      if (!x && !y) continue;
      const kind = slot === 'request' ? 'request' : 'response';
      const found: Part[] = [];
      parts(b, x, a, y, found);
      for (const part of found) {
        if ('nullBefore' in part) {
          // null is a value like any other: a response that may now be null, a request that may no longer be
          if (kind === 'response' && part.nullAfter)
            add({ code: 'response.body.scope.add', details: `${part.at} may be null`, sourceSpecEntityDetails: [], destinationSpecEntityDetails: [] }, key);
          if (kind === 'request' && part.nullBefore)
            add(
              { code: 'request.body.scope.remove', details: `${part.at} may no longer be null`, sourceSpecEntityDetails: [], destinationSpecEntityDetails: [] },
              key,
            );
          continue;
        }
        const [source, destination] = [oneBodySpec(part.source, kind), oneBodySpec(part.destination, kind)];
        if (source === destination) continue; // the same: nothing to find
        const id = `${source}\u0000${destination}`;
        const pair = pairs.get(id) ?? { source, destination, slots: [] };
        if (!pair.slots.some((s) => s.key === key)) pair.slots.push({ key, slot });
        pairs.set(id, pair);
      }
    }
  }
  for (const [id, pair] of pairs) {
    let found = bodyDiffs.get(id);
    if (!found) bodyDiffs.set(id, (found = breakingDifferences(pair.source, pair.destination)));
    for (const d of await found) for (const { key } of pair.slots) add(d, key);
  }
  return [...changes, ...parameterChanges(before, after)];
}

/** The keys a CHANGELOG section acknowledges: every `code span` under a "### Breaking" heading of `## Unreleased`. */
export function acknowledgedInChangelog(changelog: string): Set<string> {
  const unreleased = /^## Unreleased\b[^\n]*\n([\s\S]*?)(?=^## )/m.exec(changelog + '\n## ')?.[1] ?? '';
  const breaking = /^### Breaking\b[^\n]*\n([\s\S]*?)(?=^### |$(?![\s\S]))/m.exec(unreleased)?.[1] ?? '';
  return new Set([...breaking.matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}
