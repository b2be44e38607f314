import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createTestApp } from './support/app';
import { errorCode, gql, gqlOk, register, uniqueName } from './support/clients';

jest.setTimeout(60_000);

describe('accounts, sessions and API tokens (e2e)', () => {
  let app: INestApplication;
  let http: () => ReturnType<typeof request>;
  beforeAll(async () => {
    app = await createTestApp();
    http = () => request(app.getHttpServer());
  });
  afterAll(async () => {
    await app?.close();
  });

  it('registers and logs in over REST; me needs the token', async () => {
    const username = uniqueName('Alice');
    const reg = await http().post('/v1/auth/register').send({ username, password: 'a long password' });
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({ tokenType: 'Bearer', account: { username: username.toLowerCase() } });
    expect(reg.body).not.toHaveProperty('account.passwordHash');
    const dup = await http().post('/v1/auth/register').send({ username: username.toUpperCase(), password: 'another password' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('CONFLICT');

    const bad = await http().post('/v1/auth/login').send({ username, password: 'wrong password' });
    expect(bad.status).toBe(401);
    expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    const unknown = await http()
      .post('/v1/auth/login')
      .send({ username: 'nobody-' + username, password: 'wrong password' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.detail).toBe(bad.body.detail);

    const login = await http().post('/v1/auth/login').send({ username, password: 'a long password' });
    expect(login.status).toBe(200);
    const me = await http().get('/v1/me').set('authorization', `Bearer ${login.body.accessToken}`);
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(username.toLowerCase());
    const anon = await http().get('/v1/me');
    expect(anon.status).toBe(401);
    expect(anon.body).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  });

  it('a wrong password on login is a 401 whatever its length (REST and GraphQL); registration still enforces the policy', async () => {
    const username = uniqueName('len');
    expect((await http().post('/v1/auth/register').send({ username, password: 'a long password' })).status).toBe(201);
    const LOGIN = 'mutation($i: CredentialsInput!) { login(input: $i) { accessToken } }';
    for (const password of ['', 'x', 'short', 'y'.repeat(201), 'z'.repeat(5000)]) {
      for (const who of [username, 'nobody-' + username]) {
        const res = await http().post('/v1/auth/login').send({ username: who, password });
        expect({ length: password.length, status: res.status, code: res.body.code, detail: res.body.detail }).toEqual({
          length: password.length,
          status: 401,
          code: 'UNAUTHENTICATED',
          detail: 'wrong username or password',
        });
        const viaGql = await gql(app, null, LOGIN, { i: { username: who, password } });
        expect({ length: password.length, code: errorCode(viaGql) }).toEqual({ length: password.length, code: 'UNAUTHENTICATED' });
      }
    }
    // The policy is the registration's: too short or too long is VALIDATION_FAILED naming the password, on both transports.
    const REGISTER = 'mutation($i: CredentialsInput!) { register(input: $i) { accessToken } }';
    for (const password of ['short', 'y'.repeat(201)]) {
      const res = await http()
        .post('/v1/auth/register')
        .send({ username: uniqueName('pol'), password });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.detail).toMatch(/password/);
      const viaGql = await gql(app, null, REGISTER, { i: { username: uniqueName('pol'), password } });
      expect(errorCode(viaGql)).toBe('VALIDATION_FAILED');
      expect(viaGql.errors![0].message).toMatch(/password/);
    }
    expect(
      (
        await http()
          .post('/v1/auth/register')
          .send({ username: uniqueName('pol'), password: 'y'.repeat(200) })
      ).status,
    ).toBe(201);
  });

  it('a refused username is named once in the message, on both transports', async () => {
    const res = await http().post('/v1/auth/register').send({ username: 'ab', password: 'long enough password' });
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(res.body.detail).toBe('username: 3 to 32 of a-z 0-9 _ . - (not starting with . or -)');
    expect(res.body.errors).toEqual([{ field: 'username', messages: ['3 to 32 of a-z 0-9 _ . - (not starting with . or -)'] }]);
    const viaGql = await gql(app, null, 'mutation($i: CredentialsInput!) { register(input: $i) { accessToken } }', {
      i: { username: 'ab', password: 'long enough password' },
    });
    expect(viaGql.errors![0].message).toBe('username: 3 to 32 of a-z 0-9 _ . - (not starting with . or -)');
  });

  it('registers, logs in and reads me over GraphQL', async () => {
    const username = uniqueName('bob');
    const reg = await gqlOk(app, null, 'mutation($i: CredentialsInput!) { register(input: $i) { accessToken account { username } } }', {
      i: { username, password: 'bob password' },
    });
    const me = await gqlOk(app, reg.register.accessToken, '{ me { id username } }');
    expect(me.me.username).toBe(username);
    const anon = await gql(app, null, '{ me { id } }');
    expect(errorCode(anon)).toBe('UNAUTHENTICATED');
    const short = await gql(app, null, 'mutation($i: CredentialsInput!) { register(input: $i) { accessToken } }', { i: { username, password: 'x' } });
    expect(errorCode(short)).toBe('VALIDATION_FAILED');
  });

  it('refuses forged and expired JWTs', async () => {
    const a = await register(app, 'eve');
    const payload = jwt.decode(a.token) as Record<string, unknown>;
    const forged = jwt.sign({ sub: payload.sub, usr: payload.usr }, 'not-the-secret', { issuer: 'scopa-service', expiresIn: 3600 });
    const expired = jwt.sign({ sub: payload.sub, usr: payload.usr, exp: Math.floor(Date.now() / 1000) - 10 }, process.env.JWT_SECRET!, {
      issuer: 'scopa-service',
    });
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`;
    for (const token of [forged, expired, none, 'garbage', a.token + 'x']) {
      const res = await http().get('/v1/me').set('authorization', `Bearer ${token}`);
      expect(res.status).toBe(401);
      expect(errorCode(await gql(app, token, '{ me { id } }'))).toBe('UNAUTHENTICATED');
    }
  });

  it('API tokens: created with scopes, listed without secrets, revoked; session-only management', async () => {
    const a = await register(app, 'carol');
    const created = await http()
      .post('/v1/tokens')
      .set('authorization', `Bearer ${a.token}`)
      .send({ name: 'reader', scopes: ['read'] });
    expect(created.status).toBe(201);
    const pat: string = created.body.token;
    expect(pat).toMatch(/^scopa_pat_/);

    const me = await http().get('/v1/me').set('authorization', `Bearer ${pat}`);
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(a.username);

    // a token cannot manage tokens
    const escalate = await http()
      .post('/v1/tokens')
      .set('authorization', `Bearer ${pat}`)
      .send({ name: 'x', scopes: ['play'] });
    expect(escalate.status).toBe(403);

    const list = await gqlOk(app, a.token, '{ apiTokens { id name scopes revokedAt } }');
    expect(list.apiTokens).toEqual([{ id: created.body.apiToken.id, name: 'reader', scopes: ['read'], revokedAt: null }]);
    expect(JSON.stringify(list)).not.toContain(pat);

    const other = await register(app, 'mallory');
    const steal = await http().delete(`/v1/tokens/${created.body.apiToken.id}`).set('authorization', `Bearer ${other.token}`);
    expect(steal.status).toBe(404);

    const revoked = await gqlOk(app, a.token, 'mutation($id: ID!) { revokeApiToken(id: $id) { revokedAt } }', { id: created.body.apiToken.id });
    expect(revoked.revokeApiToken.revokedAt).not.toBeNull();
    const after = await http().get('/v1/me').set('authorization', `Bearer ${pat}`);
    expect(after.status).toBe(401);

    const badScopes = await http()
      .post('/v1/tokens')
      .set('authorization', `Bearer ${a.token}`)
      .send({ name: 'x', scopes: ['admin'] });
    expect(badScopes.status).toBe(400);
    expect(badScopes.body.code).toBe('VALIDATION_FAILED');
  });

  it('custom rulesets: validated by the engine, shareable by id, versioned', async () => {
    const a = await register(app, 'dave');
    const b = await register(app, 'erin');
    const bad = await http()
      .post('/v1/custom-rulesets')
      .set('authorization', `Bearer ${a.token}`)
      .send({ name: 'broken', preset: 'scopa', overrides: { handSize: 7 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_RULESET', option: 'handSize' });
    const saved = await http()
      .post('/v1/custom-rulesets')
      .set('authorization', `Bearer ${a.token}`)
      .send({ name: 'quick', preset: 'scopa', overrides: { target: 3 } });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ name: 'quick', version: 1, owner: a.username, locked: false, options: { target: 3, players: 2 } });
    const shared = await gqlOk(app, b.token, 'query($id: ID!) { customRuleset(id: $id) { id owner options { target } } }', { id: saved.body.id });
    expect(shared.customRuleset).toEqual({ id: saved.body.id, owner: a.username, options: { target: 3 } });
    const edited = await http()
      .post('/v1/custom-rulesets')
      .set('authorization', `Bearer ${a.token}`)
      .send({ name: 'quick', preset: 'scopa', overrides: { target: 5 } });
    expect(edited.body).toMatchObject({ id: saved.body.id, version: 1, options: { target: 5 } });
    const missing = await http().get('/v1/custom-rulesets/not-a-uuid').set('authorization', `Bearer ${a.token}`);
    expect(missing.status).toBe(404);
  });

  it('errors: unknown route 404, malformed JSON 400, oversized body 413, all problem+json', async () => {
    const unknown = await http().get('/v1/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/application\/problem\+json/);
    const malformed = await http().post('/v1/auth/login').set('content-type', 'application/json').send('{"username": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('VALIDATION_FAILED');
    const huge = await http()
      .post('/v1/auth/login')
      .send({ username: 'x', password: 'y'.repeat(200_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE');
    const extra = await http().post('/v1/auth/login').send({ username: 'someone', password: 'long enough', admin: true });
    expect(extra.status).toBe(400);
    const gqlHuge = await gql(app, null, `{ rulesets { id } } # ${'x'.repeat(200_000)}`);
    expect(gqlHuge.status).toBe(413);
  });

  it('GraphQL: depth and complexity limits, syntax errors are VALIDATION_FAILED', async () => {
    const deep = await gql(app, null, `{ __schema { types { fields { type { ${'ofType { '.repeat(14)} name ${'} '.repeat(14)} } } } } }`);
    expect(deep.status).toBe(400);
    expect(errorCode(deep)).toBe('VALIDATION_FAILED');
    const introspection = await gql(
      app,
      null,
      `{ __schema { types { name fields { name type { name ofType { name ofType { name ofType { name ofType { name ofType { name ofType { name ofType { name } } } } } } } } } } } }`,
    );
    expect(introspection.status).toBe(200);
    const syntax = await gql(app, null, '{ rulesets { id ');
    expect(syntax.status).toBe(400);
    expect(errorCode(syntax)).toBe('VALIDATION_FAILED');
    const aliases = Array.from({ length: 150 }, (_, i) => `a${i}: rulesets { id sources players options { players teams handSize tableSize target } }`).join(
      ' ',
    );
    const complex = await gql(app, null, `{ ${aliases} }`);
    expect(complex.status).toBe(400);
    expect(errorCode(complex)).toBe('VALIDATION_FAILED');
  });
});
