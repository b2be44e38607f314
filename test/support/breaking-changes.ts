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
 *   request body property. An operation deprecated in the previous release
 *   may be removed. Keyed by `METHOD /path`.
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
    for (const m of METHODS) if (item[m]) ops.set(`${m.toUpperCase()} ${p}`, { ...item[m], parameters: [...(item.parameters ?? []), ...(item[m].parameters ?? [])] });
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
      if (q.required && !(op.parameters as Json[]).some((p) => p.name.toLowerCase() === q.name.toLowerCase() && p.in === q.in)) out.push({ key, message: `new required ${q.in} parameter ${q.name}` });
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

export async function openapiBreakingChanges(before: Json, after: Json): Promise<BreakingChange[]> {
  const result = await openapiDiff.diffSpecs({
    sourceSpec: { content: JSON.stringify(closedRequests(before)), location: 'previous release', format: 'openapi3' },
    destinationSpec: { content: JSON.stringify(closedRequests(after)), location: 'current', format: 'openapi3' },
  });
  const old = operations(before);
  const changes: BreakingChange[] = [];
  for (const d of result.breakingDifferencesFound ? result.breakingDifferences : []) {
    const key = keyOfLocation(d.sourceSpecEntityDetails[0]?.location ?? d.destinationSpecEntityDetails[0]?.location);
    const message = `${d.code}${d.details ? ` ${JSON.stringify(d.details).slice(0, 200)}` : ''}`;
    // a path removed: each of its operations is removed
    const keys = d.code === 'path.remove' ? [...old.keys()].filter((k) => k.endsWith(` ${key.slice(2)}`)) : [key];
    // removing what the previous release deprecated is the announced way to remove it
    for (const k of keys) if (!(/\.remove$/.test(d.code) && old.get(k)?.deprecated === true)) changes.push({ key: k, message });
  }
  return [...changes, ...parameterChanges(before, after)];
}

/** The keys a CHANGELOG section acknowledges: every `code span` under a "### Breaking" heading of `## Unreleased`. */
export function acknowledgedInChangelog(changelog: string): Set<string> {
  const unreleased = /^## Unreleased\b[^\n]*\n([\s\S]*?)(?=^## )/m.exec(changelog + '\n## ')?.[1] ?? '';
  const breaking = /^### Breaking\b[^\n]*\n([\s\S]*?)(?=^### |$(?![\s\S]))/m.exec(unreleased)?.[1] ?? '';
  return new Set([...breaking.matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}
