/**
 * An account's language (issue 47: the web client's language kept per
 * account): `language` of the account settings, one of en, it, fr, es, ar
 * or null (none chosen), over REST (GET and PATCH /v1/account) and GraphQL
 * (accountSettings, updateAccount). Set, read back over the other
 * transport, forgotten with null; a bad value is VALIDATION_FAILED naming
 * the field once, and changes nothing (the other setting of the same
 * request included).
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createTestApp } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(120_000);

describe('account language (e2e, PGlite)', () => {
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;
  const readRest = async (a: Account) => {
    const res = await http().get('/v1/account').set('authorization', auth(a));
    expect(res.status).toBe(200);
    return res.body as { acceptChallenges: string; language: string | null };
  };
  const readGql = async (a: Account) => (await gqlOk(app, a.token, '{ accountSettings { acceptChallenges language } }')).accountSettings;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('REST: none chosen at first; set, read back (over GraphQL too), changed, forgotten with null; other settings untouched', async () => {
    const ada = await register(app, 'lga');
    expect(await readRest(ada)).toEqual({ acceptChallenges: 'everyone', language: null });

    const set = await http().patch('/v1/account').set('authorization', auth(ada)).send({ language: 'it' });
    expect([set.status, set.body]).toEqual([200, { acceptChallenges: 'everyone', language: 'it' }]);
    expect(await readRest(ada)).toEqual({ acceptChallenges: 'everyone', language: 'it' });
    expect(await readGql(ada)).toEqual({ acceptChallenges: 'everyone', language: 'it' });

    // A change of the other setting keeps the language; a change of the language keeps the other.
    await http().patch('/v1/account').set('authorization', auth(ada)).send({ acceptChallenges: 'known' }).expect(200);
    expect(await readRest(ada)).toEqual({ acceptChallenges: 'known', language: 'it' });
    await http().patch('/v1/account').set('authorization', auth(ada)).send({ language: 'ar' }).expect(200);
    expect(await readRest(ada)).toEqual({ acceptChallenges: 'known', language: 'ar' });

    const forgot = await http().patch('/v1/account').set('authorization', auth(ada)).send({ language: null });
    expect([forgot.status, forgot.body]).toEqual([200, { acceptChallenges: 'known', language: null }]);
    expect(await readGql(ada)).toEqual({ acceptChallenges: 'known', language: null });
  });

  it('REST: a bad value is VALIDATION_FAILED naming the field once, and nothing changes', async () => {
    const bea = await register(app, 'lgb');
    await http().patch('/v1/account').set('authorization', auth(bea)).send({ language: 'fr' }).expect(200);
    for (const bad of ['klingon', 'IT', 'en-GB', '', 7, ['it']]) {
      const res = await http().patch('/v1/account').set('authorization', auth(bea)).send({ language: bad, acceptChallenges: 'none' });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.detail).toBe('language: one of en, it, fr, es, ar, or null');
      expect(res.body.detail.match(/language/g)).toHaveLength(1);
      expect(res.body.errors).toEqual([{ field: 'language', messages: ['one of en, it, fr, es, ar, or null'] }]);
    }
    expect(await readRest(bea)).toEqual({ acceptChallenges: 'everyone', language: 'fr' });
  });

  it('GraphQL: set, read back over REST, forgotten with null; absent leaves it; a bad value is refused and changes nothing', async () => {
    const cy = await register(app, 'lgc');
    expect(await readGql(cy)).toEqual({ acceptChallenges: 'everyone', language: null });

    const set = await gqlOk(app, cy.token, 'mutation { updateAccount(input: { language: es }) { acceptChallenges language } }');
    expect(set.updateAccount).toEqual({ acceptChallenges: 'everyone', language: 'es' });
    expect(await readRest(cy)).toEqual({ acceptChallenges: 'everyone', language: 'es' });

    // As a variable, the wire value is the string.
    const byVariable = await gqlOk(app, cy.token, 'mutation ($input: AccountSettingsInput!) { updateAccount(input: $input) { language } }', {
      input: { language: 'ar' },
    });
    expect(byVariable.updateAccount).toEqual({ language: 'ar' });

    // Absent: unchanged.
    await gqlOk(app, cy.token, 'mutation { updateAccount(input: { acceptChallenges: known }) { language } }');
    expect(await readRest(cy)).toEqual({ acceptChallenges: 'known', language: 'ar' });

    for (const [query, variables] of [
      ['mutation { updateAccount(input: { language: klingon, acceptChallenges: none }) { language } }', {}],
      ['mutation ($input: AccountSettingsInput!) { updateAccount(input: $input) { language } }', { input: { language: 'IT', acceptChallenges: 'none' } }],
      ['mutation { updateAccount(input: { language: "it" }) { language } }', {}],
    ] as const) {
      const bad = await gql(app, cy.token, query, variables);
      expect(errorCode(bad)).toBe('VALIDATION_FAILED');
      expect(bad.data?.updateAccount ?? null).toBeNull();
    }
    expect(await readRest(cy)).toEqual({ acceptChallenges: 'known', language: 'ar' });

    const forgot = await gqlOk(app, cy.token, 'mutation { updateAccount(input: { language: null }) { language } }');
    expect(forgot.updateAccount).toEqual({ language: null });
    expect(await readRest(cy)).toEqual({ acceptChallenges: 'known', language: null });
  });

  it('each account has its own language', async () => {
    const [dan, eve] = [await register(app, 'lgd'), await register(app, 'lge')];
    await http().patch('/v1/account').set('authorization', auth(dan)).send({ language: 'it' }).expect(200);
    expect((await readRest(eve)).language).toBeNull();
    expect((await readRest(dan)).language).toBe('it');
  });
});
