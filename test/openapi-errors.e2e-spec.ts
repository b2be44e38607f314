/**
 * openapi.yaml tells the truth about errors and headers: every operation
 * declares its problem+json error responses, its security and its headers
 * from the route's metadata, and what the service really answers (status,
 * body, headers) is what the operation declares, checked with a JSON Schema
 * validator against the document's own schemas.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { DEFAULT_SCOPE, REQUIRED_SCOPE, SESSION_ONLY } from '../src/common/principal';
import { ERROR_CODES } from '../src/common/domain-error';
import { httpStatusOf } from '../src/common/error-mapping';
import { DEFAULT_SCOPE_OF_ROUTES, REQUIRED_SCOPE_KEY, SESSION_ONLY_KEY, openApiDocument, routeContracts } from '../src/common/openapi';
import { createTestApp } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(120_000);

type Json = Record<string, any>;

/** OpenAPI 3.0 schema -> JSON Schema (nullable, example) for ajv. */
function jsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(jsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'example' || k === 'nullable') continue;
    out[k] = k === '$ref' ? String(v).replace('#/components/schemas/', '#/definitions/') : jsonSchema(v);
  }
  if ((node as Json).nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

describe('openapi.yaml: errors, headers and security are true (e2e)', () => {
  let app: INestApplication;
  let doc: Json;
  let alice: Account;
  let ajv: Ajv;
  const ops = new Map<string, Json>();

  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT: '600' });
    doc = openApiDocument(app) as Json;
    for (const item of Object.values(doc.paths as Json)) for (const op of Object.values(item as Json)) ops.set((op as Json).operationId, op as Json);
    alice = await register(app, 'oas');
    // with the formats (date-time, uri...): without them ajv ignores every `format` of the document
    ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  });
  afterAll(async () => {
    await app?.close();
  });

  /** The response the operation declares for `status`, with the body checked against its schema. */
  function expectDeclared(operationId: string, res: request.Response): Json {
    const declared = ops.get(operationId)!.responses[String(res.status)];
    expect({ operationId, status: res.status, declared: declared !== undefined }).toEqual({ operationId, status: res.status, declared: true });
    if (res.status >= 400) {
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      const schema = declared.content['application/problem+json'].schema;
      const validate = ajv.compile({ ...(jsonSchema(schema) as Json), definitions: jsonSchema(doc.components.schemas) });
      const body = JSON.parse(res.text);
      expect({ body, errors: validate(body) ? null : validate.errors }).toEqual({ body, errors: null });
    }
    return declared;
  }

  it('the auth metadata keys restated in common are those of src/common/principal.ts', () => {
    expect([REQUIRED_SCOPE_KEY, SESSION_ONLY_KEY, DEFAULT_SCOPE_OF_ROUTES]).toEqual([REQUIRED_SCOPE, SESSION_ONLY, DEFAULT_SCOPE]);
  });

  it('every operation declares problem+json errors for every code its route implies, and its security', () => {
    const routes = routeContracts(app);
    expect(ops.size).toBeGreaterThan(30);
    for (const [id, op] of ops) {
      const route = routes.get(id)!;
      const errors = Object.entries(op.responses as Record<string, Json>).filter(([s]) => Number(s) >= 400);
      if (route.rateLimited || !route.isPublic) expect({ id, errors: errors.length > 0 }).toEqual({ id, errors: true });
      for (const [status, response] of errors) {
        expect({ id, status, media: Object.keys(response.content) }).toEqual({ id, status, media: ['application/problem+json'] });
        // the codes named in the description are those of this status
        const codes = /: ([A-Z_, ]+)\.$/.exec(response.description)![1].split(', ');
        for (const code of codes) expect({ id, code, status: httpStatusOf(code as never) }).toEqual({ id, code, status: Number(status) });
      }
      if (route.rateLimited)
        expect({ id, headers: Object.keys(op.responses['429'].headers) }).toEqual({ id, headers: expect.arrayContaining(['Retry-After', 'RateLimit-Reset']) });
      expect({ id, security: op.security }).toEqual({
        id,
        security: route.isPublic ? [] : route.sessionOnly ? [{ session: [] }] : [{ session: [] }, { apiToken: [] }],
      });
      if (!route.isPublic) expect(op.responses['401']).toBeDefined();
    }
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiToken', 'session']);
    // every code the service has is a status of the Problem schema's code enum
    expect(doc.components.schemas.Problem.properties.code.enum).toEqual([...ERROR_CODES]);
  });

  it('If-Match is declared exactly where a handler reads it, ETag where the match seq is sent', () => {
    const ifMatch = [...ops].filter(([, op]) => (op.parameters ?? []).some((p: Json) => p.name === 'If-Match')).map(([id]) => id);
    expect(ifMatch.sort()).toEqual(['abort', 'declareHand', 'play', 'resign', 'setClientSeed']);
    const etag = [...ops].filter(([, op]) => Object.values(op.responses as Json).some((r: any) => r.headers?.ETag)).map(([id]) => id);
    expect(etag.sort()).toEqual(['abort', 'createMatch', 'declareHand', 'getMatch', 'joinMatch', 'play', 'resign', 'setClientSeed', 'startMatch']);
  });

  it('real answers are declared: 401, 404, 400 (with the fields), 400 INVALID_RULESET (with option), 201 with ETag and RateLimit-*', async () => {
    const http = request(app.getHttpServer());
    const anonymous = await http.get('/v1/matches/nope');
    expect(anonymous.status).toBe(401);
    expectDeclared('getMatch', anonymous);

    const missing = await http.get('/v1/matches/00000000-0000-4000-8000-000000000000').set('authorization', `Bearer ${alice.token}`);
    expect(missing.status).toBe(404);
    expectDeclared('getMatch', missing);

    const invalid = await http.post('/v1/matches').set('authorization', `Bearer ${alice.token}`).send({ preset: 'scopa', seats: 'all' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors?.[0]?.field).toBe('seats');
    expectDeclared('createMatch', invalid);

    const ruleset = await http
      .post('/v1/matches')
      .set('authorization', `Bearer ${alice.token}`)
      .send({ preset: 'scopa', overrides: { target: -3 } });
    expect(ruleset.status).toBe(400);
    expect(ruleset.body).toMatchObject({ code: 'INVALID_RULESET', option: 'target' });
    expectDeclared('createMatch', ruleset);

    const created = await http.post('/v1/matches').set('authorization', `Bearer ${alice.token}`).send({ preset: 'scopa' });
    expect(created.status).toBe(201);
    const ok = expectDeclared('createMatch', created);
    for (const h of Object.keys(ok.headers)) expect({ h, sent: created.headers[h.toLowerCase()] !== undefined }).toEqual({ h, sent: true });
  });

  it('real answers are declared: 422 ILLEGAL_PLAY with reason, 412 VERSION_CONFLICT on a stale If-Match, 400 on a malformed one, 403 NOT_SEATED', async () => {
    const http = request(app.getHttpServer());
    const auth = { authorization: `Bearer ${alice.token}` };
    const created = await http
      .post('/v1/matches')
      .set(auth)
      .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'random' }] });
    const id = created.body.id as string;
    expect((await http.post(`/v1/matches/${id}/start`).set(auth).send({})).status).toBe(200);
    const legal = await http.get(`/v1/matches/${id}/legal-plays`).set(auth);
    const match = await http.get(`/v1/matches/${id}`).set(auth);
    const mine = new Set<string>([...match.body.view.hand, ...match.body.view.table]);
    const notMine = ['1D', '2D', '3D', '4D', '5D', '6D', '7D', '8D', '9D', '10D', '1C', '2C', '3C', '4C', '5C', '6C', '7C', '8C', '9C', '10C'].find(
      (c) => !mine.has(c),
    )!;

    const illegal = await http.post(`/v1/matches/${id}/plays`).set(auth).send({ card: notMine, capture: [] });
    if (legal.body.plays.length > 0) {
      expect(illegal.status).toBe(422);
      expect(illegal.body).toMatchObject({ code: 'ILLEGAL_PLAY', reason: 'CARD_NOT_IN_HAND' });
    } else {
      expect(illegal.body.code).toBe('NOT_YOUR_TURN');
    }
    expectDeclared('play', illegal);

    const stale = await http
      .post(`/v1/matches/${id}/plays`)
      .set(auth)
      .set('If-Match', `"${match.body.seq - 1}"`)
      .send({ card: notMine, capture: [] });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 'VERSION_CONFLICT', currentSeq: match.body.seq });
    expectDeclared('play', stale);

    const badTag = await http.post(`/v1/matches/${id}/resign`).set(auth).set('If-Match', 'yesterday').send({});
    expect(badTag.status).toBe(400);
    expectDeclared('resign', badTag);

    const bob = await register(app, 'oasb');
    const stranger = await http.post(`/v1/matches/${id}/plays`).set('authorization', `Bearer ${bob.token}`).send({ card: notMine, capture: [] });
    expect(stranger.status).toBe(403);
    expect(stranger.body.code).toBe('NOT_SEATED');
    expectDeclared('play', stranger);
  });

  it('a token without the scope gets 403 with requiredScope; a session-only route refuses a token; both declared', async () => {
    const http = request(app.getHttpServer());
    const made = await http
      .post('/v1/tokens')
      .set('authorization', `Bearer ${alice.token}`)
      .send({ name: 'ro', scopes: ['read'] });
    expect(made.status).toBe(201);
    const token = made.body.token as string;
    const refused = await http.post('/v1/matches').set('authorization', `Bearer ${token}`).send({ preset: 'scopa' });
    expect(refused.status).toBe(403);
    // `read` is an alias of profile:read + match:read: creating a match needs the fine scope match:play, which the operation declares
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'match:play' });
    expect(ops.get('createMatch')!['x-required-scope']).toBe('match:play');
    expectDeclared('createMatch', refused);
    // the same token reads matches (match:read, the scope of an operation without @RequireScope) and account settings (profile:read)
    expect(ops.get('listMyMatches')!['x-required-scope']).toBe('match:read');
    expect((await http.get('/v1/matches').set('authorization', `Bearer ${token}`)).status).toBe(200);
    expect(ops.get('accountSettings')!['x-required-scope']).toBe('profile:read');
    expect((await http.get('/v1/account').set('authorization', `Bearer ${token}`)).status).toBe(200);
    const fine = await http
      .post('/v1/tokens')
      .set('authorization', `Bearer ${alice.token}`)
      .send({ name: 'challenges', scopes: ['challenge:write'] });
    expect(fine.status).toBe(201);
    const noProfile = await http.get('/v1/account').set('authorization', `Bearer ${fine.body.token}`);
    expect(noProfile.status).toBe(403);
    expect(noProfile.body).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'profile:read' });
    expectDeclared('accountSettings', noProfile);
    const sessionOnly = await http.get('/v1/tokens').set('authorization', `Bearer ${token}`);
    expect(sessionOnly.status).toBe(403);
    expectDeclared('listApiTokens', sessionOnly);
  });

  it('429 carries Retry-After and the RateLimit-* headers, and a body with limit/remaining/reset/retryAfter', async () => {
    const limited = await createTestApp({ RATE_LIMIT: '3' });
    try {
      const http = request(limited.getHttpServer());
      let res: request.Response | undefined;
      for (let i = 0; i < 6; i++) {
        res = await http.get('/v1/rulesets');
        if (res.status === 429) break;
      }
      expect(res!.status).toBe(429);
      const declared = expectDeclared('listPresets', res!);
      for (const h of Object.keys(declared.headers)) expect({ h, sent: res!.headers[h.toLowerCase()] !== undefined }).toEqual({ h, sent: true });
      expect(Number(res!.headers['retry-after'])).toBe(res!.body.retryAfter);
    } finally {
      await limited.close();
      process.env.RATE_LIMIT = '600';
    }
  });
});
