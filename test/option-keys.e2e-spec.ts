/**
 * Option overrides are checked by name, and only by their own names: a key
 * that is a member of Object.prototype (toString, constructor, __proto__...)
 * is an unknown option like any other, refused with INVALID_RULESET naming
 * it, wherever options are read (create match, seek, challenge, saved
 * ruleset; REST and GraphQL). Before, class-transformer dropped such keys
 * silently and the request succeeded.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import request from 'supertest';
import { OPTION_NAMES } from '../src/engine/options';
import { createTestApp } from './support/app';
import { errorCode, gql, register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(180_000);

export const PROTOTYPE_KEYS = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString'];

describe('option keys (e2e)', () => {
  let app: INestApplication;
  let alice: Account;
  let bob: Account;
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT: '1000000' });
    alice = await register(app, 'optk');
    bob = await register(app, 'optk');
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A JSON body whose `options`/`overrides` object has `key` as an own property (JSON.parse keeps __proto__ as one). */
  const body = (fields: Record<string, unknown>, field: string, key: string): string =>
    `${JSON.stringify(fields).slice(0, -1)},${JSON.stringify(field)}:{${JSON.stringify(key)}:1}}`;

  const restRoutes: { name: string; path: string; fields: () => Record<string, unknown>; field: string }[] = [
    { name: 'create match', path: '/v1/matches', fields: () => ({ preset: 'scopa' }), field: 'overrides' },
    { name: 'seek', path: '/v1/seeks', fields: () => ({ preset: 'scopa' }), field: 'overrides' },
    { name: 'challenge', path: '/v1/challenges', fields: () => ({ username: bob.username, preset: 'scopa' }), field: 'overrides' },
    { name: 'save ruleset', path: '/v1/custom-rulesets', fields: () => ({ name: 'r', preset: 'scopa' }), field: 'overrides' },
  ];

  it('every REST input that reads options refuses an option key of Object.prototype, as it refuses foo', async () => {
    const unknownKey = fc.oneof(
      fc.constantFrom(...PROTOTYPE_KEYS, 'foo'),
      fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !(OPTION_NAMES as readonly string[]).includes(k)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...restRoutes), unknownKey, async (route, key) => {
        const res = await http()
          .post(route.path)
          .set('authorization', auth(alice))
          .set('content-type', 'application/json')
          .send(body(route.fields(), route.field, key));
        expect({ key, status: res.status, code: res.body.code }).toEqual({ key, status: 400, code: 'INVALID_RULESET' });
        expect(res.body.option).toBe(key);
      }),
      { numRuns: 60, examples: restRoutes.flatMap((r) => PROTOTYPE_KEYS.map((k) => [r, k] as [typeof r, string])) },
    );
  });

  it('over GraphQL too (variables and literals)', async () => {
    const ops = [
      { name: 'createMatch', query: 'mutation($o: JSON) { createMatch(input: { preset: "scopa", overrides: $o }) { id } }' },
      { name: 'createSeek', query: 'mutation($o: JSON) { createSeek(input: { preset: "scopa", overrides: $o }) { id } }' },
      { name: 'challenge', query: `mutation($o: JSON) { challenge(input: { username: "${bob.username}", preset: "scopa", overrides: $o }) { id } }` },
    ];
    for (const op of ops) {
      for (const key of PROTOTYPE_KEYS) {
        const r = await gql(app, alice.token, op.query, { o: JSON.parse(`{${JSON.stringify(key)}:1}`) });
        expect({ op: op.name, key, code: errorCode(r), option: r.errors?.[0]?.extensions?.option }).toEqual({
          op: op.name,
          key,
          code: 'INVALID_RULESET',
          option: key,
        });
      }
    }
  });
});
