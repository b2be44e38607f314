import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createTestApp } from './support/app';

describe('browser-facing hardening (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('sends helmet headers and no X-Powered-By', async () => {
    const res = await request(app.getHttpServer()).get('/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(res.headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('answers CORS preflights for the API, exposing the headers clients need', async () => {
    const res = await request(app.getHttpServer())
      .options('/v1/matches')
      .set('Origin', 'https://client.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type,if-match');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toMatch(/If-Match/i);
    const get = await request(app.getHttpServer()).get('/v1/rulesets').set('Origin', 'https://client.example');
    expect(get.headers['access-control-expose-headers']).toMatch(/ETag/);
    expect(get.headers['access-control-expose-headers']).toMatch(/RateLimit-Remaining/);
  });
});
