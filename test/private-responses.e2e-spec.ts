/**
 * No account sees another's answer through a browser's cache: a match's
 * answer holds the caller's own hand and carries the match's seq as its
 * ETag, the same for every caller. Every answer of the API is private to its
 * caller and varies by Authorization, so that a browser keeps one per
 * credential and never revalidates one account's view for the next account
 * signed in on it (src/common/private-responses.ts).
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createTestApp } from './support/app';
import { register } from './support/clients';

jest.setTimeout(120_000);

describe('private answers (e2e, PGlite)', () => {
  let app: INestApplication;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  // Kept by no shared cache, and revalidated by the browser's (or not kept at all: no-store, as Apollo answers).
  const isPrivate = (res: request.Response) => {
    expect(['private, no-cache', 'no-store']).toContain(res.headers['cache-control']);
    expect(String(res.headers.vary ?? '').toLowerCase()).toContain('authorization');
  };

  it("a match's view (its ETag the seq, its hand the caller's) is private to the caller, varying by Authorization; so are GraphQL and errors", async () => {
    const ann = await register(app, 'pra');
    const created = await http()
      .post('/v1/matches')
      .set('authorization', `Bearer ${ann.token}`)
      .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'bot', bot: 'greedy' }] });
    expect(created.status).toBe(201);
    const read = await http().get(`/v1/matches/${created.body.id}`).set('authorization', `Bearer ${ann.token}`);
    expect(read.status).toBe(200);
    expect(read.headers.etag).toBe(`"${read.body.seq}"`);
    expect(read.headers['cache-control']).toBe('private, no-cache');
    isPrivate(read);
    isPrivate(await http().post('/graphql').set('authorization', `Bearer ${ann.token}`).send({ query: '{ me { username } }' }));
    isPrivate(await http().get('/v1/matches/0b9f2c1e-5d3a-4c8e-9f1a-2b3c4d5e6f70').set('authorization', `Bearer ${ann.token}`));
  });

  it('a public answer outside the API (the export keys) keeps its own Cache-Control', async () => {
    const keys = await http().get('/.well-known/scopa-keys.json');
    expect(keys.status).toBe(200);
    expect(keys.headers['cache-control']).toBe('public, max-age=300');
  });
});
