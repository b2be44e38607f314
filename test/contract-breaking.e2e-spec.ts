/**
 * No breaking change to the public API without an announcement: the
 * committed contracts against the latest release's (contracts/releases/),
 * each breaking change listed under "Breaking" of "Unreleased" in
 * CHANGELOG.md, or preceded by a deprecation in that release.
 */
import { jest } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { buildSchema } from 'graphql';
import { parse } from 'yaml';
import { acknowledgedInChangelog, graphqlBreakingChanges, openapiBreakingChanges } from './support/breaking-changes';
import type { BreakingChange } from './support/breaking-changes';

jest.setTimeout(60_000);

type Json = Record<string, any>;
const root = process.cwd();
const read = (...p: string[]): string => readFileSync(path.join(root, ...p), 'utf8');

const semver = (v: string): number[] => v.split('.').map(Number);
const latestRelease = (): string =>
  readdirSync(path.join(root, 'contracts', 'releases'))
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
    .sort((a, b) => {
      const [x, y] = [semver(a), semver(b)];
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
    })
    .pop()!;

/** The document with only the paths starting with one of `prefixes` (fewer operations to compare). */
function subset(doc: Json, prefixes: string[]): Json {
  const out = structuredClone(doc);
  out.paths = Object.fromEntries(Object.entries(out.paths as Json).filter(([p]) => prefixes.some((x) => p.startsWith(x))));
  return out;
}

const unannounced = (changes: BreakingChange[], acknowledged: Set<string>): string[] =>
  changes.filter((c) => !acknowledged.has(c.key)).map((c) => `${c.key}: ${c.message}`);

describe('breaking changes of the public API', () => {
  const release = latestRelease();
  const acknowledged = acknowledgedInChangelog(read('CHANGELOG.md'));
  const schemaBefore = buildSchema(read('contracts', 'releases', release, 'schema.graphql'));
  const schemaNow = buildSchema(read('schema.graphql'));
  const docBefore = parse(read('contracts', 'releases', release, 'openapi.yaml')) as Json;
  const docNow = parse(read('openapi.yaml')) as Json;

  it(`schema.graphql: none since ${release} that CHANGELOG.md does not announce`, async () => {
    expect(unannounced(await graphqlBreakingChanges(schemaBefore, schemaNow), acknowledged)).toEqual([]);
  });

  it(`openapi.yaml: none since ${release} that CHANGELOG.md does not announce`, async () => {
    expect(unannounced(await openapiBreakingChanges(docBefore, docNow), acknowledged)).toEqual([]);
  });

  it('CHANGELOG.md acknowledges only what is under Breaking of Unreleased', () => {
    const text = '# C\n\n## Unreleased\n\n### Breaking\n\n- `Match.seq` gone\n\n### Added\n\n- `Match.other`\n\n## 0.1.0\n\n### Breaking\n\n- `Match.old`\n';
    expect([...acknowledgedInChangelog(text)]).toEqual(['Match.seq']);
  });

  describe('a mutated copy of the current contracts is caught', () => {
    it('GraphQL: a field removed, an argument removed, a field changing type', async () => {
      const sdl = read('schema.graphql')
        .replace(/\n {2}"""Seq of the last event this view includes \(the ETag of REST\)\."""\n {2}seq: Int!/, '')
        .replace(/legalPlays\(\n[\s\S]*?\): LegalPlays!/, 'legalPlays: LegalPlays!')
        .replace(/(type Account \{[\s\S]*?username: )String!/, '$1Int!');
      const changes = await graphqlBreakingChanges(schemaNow, buildSchema(sdl));
      expect(changes.map((c) => c.key).sort()).toEqual(['Account.username', 'Query.legalPlays.matchId', 'Match.seq'].sort());
      expect(unannounced(changes, acknowledged)).toHaveLength(3);
    });

    it('GraphQL: removing a field deprecated in the previous release is allowed', async () => {
      const deprecated = read('schema.graphql').replace(
        /(type Account \{[\s\S]*?)createdAt: DateTime!/,
        '$1createdAt: DateTime! @deprecated(reason: "gone soon")',
      );
      const removed = deprecated.replace(/(type Account \{[\s\S]*?)\n {2}"""[^\n]*"""\n {2}createdAt: DateTime! @deprecated\(reason: "gone soon"\)/, '$1');
      expect(removed).not.toEqual(deprecated);
      expect(await graphqlBreakingChanges(buildSchema(deprecated), buildSchema(removed))).toEqual([]);
    });

    it('OpenAPI: an operation removed, a response property removed, a parameter removed, a request enum narrowed', async () => {
      const base = subset(docNow, ['/v1/matches']);
      const mutated = structuredClone(base);
      delete mutated.paths['/v1/matches/{id}/plays'];
      delete mutated.components.schemas.MatchModel.properties.seq;
      mutated.components.schemas.MatchModel.required = mutated.components.schemas.MatchModel.required.filter((r: string) => r !== 'seq');
      mutated.paths['/v1/matches'].get.parameters = mutated.paths['/v1/matches'].get.parameters.filter((p: Json) => p.name !== 'myTurn');
      mutated.components.schemas.CreateMatchInput.properties.onExpiry.enum = ['autoPlay'];
      const keys = new Set((await openapiBreakingChanges(base, mutated)).map((c) => c.key));
      // every operation answering a Match loses its seq (abort and declarations too: the whole-body comparison
      // before missed declarations); the rematch operations answer a RematchOffer
      expect(keys).toEqual(
        new Set([
          'POST /v1/matches/{id}/plays',
          'GET /v1/matches/{id}',
          'GET /v1/matches',
          'POST /v1/matches',
          'POST /v1/matches/{id}/join',
          'POST /v1/matches/{id}/start',
          'POST /v1/matches/{id}/resign',
          'POST /v1/matches/{id}/client-seed',
          'POST /v1/matches/{id}/abort',
          'POST /v1/matches/{id}/declarations',
        ]),
      );
    });

    it('OpenAPI: additions are not breaking: an optional input property, an output property, an operation', async () => {
      const base = subset(docNow, ['/v1/matches']);
      const added = structuredClone(base);
      added.components.schemas.CreateMatchInput.properties.visibility = { type: 'string', enum: ['public', 'private'] };
      added.components.schemas.MatchModel.properties.visibility = { type: 'string' };
      added.paths['/v1/matches'].put = structuredClone(added.paths['/v1/matches'].post);
      added.paths['/v1/matches'].put.operationId = 'replaceMatch';
      expect(await openapiBreakingChanges(base, added)).toEqual([]);
      // while a new required input property is
      added.components.schemas.CreateMatchInput.required = [...(added.components.schemas.CreateMatchInput.required ?? []), 'visibility'];
      expect((await openapiBreakingChanges(base, added)).map((c) => c.key)).toContain('POST /v1/matches');
    });

    it('OpenAPI: null is a value: a response that may now be null is caught; the same nullability spelled another way is not', async () => {
      const base = subset(docNow, ['/v1/matches/{id}/audit', '/v1/matches/{id}/declarations']);
      const nullable = structuredClone(base);
      nullable.components.schemas.MatchModel.properties.seq = { type: 'number', nullable: true };
      expect((await openapiBreakingChanges(base, nullable)).map((c) => c.key)).toEqual(['POST /v1/matches/{id}/declarations']);
      // `oneOf: [X, null]` (now) and `nullable` over `allOf: [X]` (0.1.0) mean the same
      const respelled = structuredClone(base);
      const reveal = respelled.components.schemas.MatchModel.properties.reveal;
      expect(reveal.oneOf).toHaveLength(2);
      respelled.components.schemas.MatchModel.properties.reveal = { nullable: true, type: 'object', allOf: [reveal.oneOf[0]] };
      expect(await openapiBreakingChanges(base, respelled)).toEqual([]);
    });

    it('OpenAPI: removing an operation deprecated in the previous release is allowed', async () => {
      const deprecated = subset(docNow, ['/v1/webhooks']);
      deprecated.paths['/v1/webhooks/{id}'].delete.deprecated = true;
      const removed = structuredClone(deprecated);
      delete removed.paths['/v1/webhooks/{id}'];
      expect(await openapiBreakingChanges(deprecated, removed)).toEqual([]);
      delete deprecated.paths['/v1/webhooks/{id}'].delete.deprecated;
      expect((await openapiBreakingChanges(deprecated, removed)).map((c) => c.key)).toEqual(['DELETE /v1/webhooks/{id}']);
    });
  });
});
