import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AppModule } from '../src/app.module';
import { PrismaService } from '../src/database/prisma.service';
import { pgliteTemplate } from './support/pglite-template';

describe('health, readiness and metrics (e2e)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    // The app opens its database on init: here an in-memory PGlite from the migrated template (not ./data).
    const template = await pgliteTemplate();
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(PrismaService)
      .useFactory({ factory: () => new PrismaService({ dataDir: 'memory', loadDataDir: template }) })
      .compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it('returns 200 {"status":"ok"}', async () => {
    const res = await request(app.getHttpServer()).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('is ready when the database answers', async () => {
    const res = await request(app.getHttpServer()).get('/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
  });

  it('tags every response with a request id, keeping a sane one the client sent', async () => {
    const fresh = await request(app.getHttpServer()).get('/health');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await request(app.getHttpServer()).get('/health').set('X-Request-Id', 'client-42');
    expect(given.headers['x-request-id']).toBe('client-42');
    const hostile = await request(app.getHttpServer())
      .get('/health')
      .set('X-Request-Id', `<script>${'x'.repeat(200)}`);
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves Prometheus metrics', async () => {
    const res = await request(app.getHttpServer()).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    for (const name of [
      'scopa_plays_total',
      'scopa_play_latency_seconds',
      'scopa_subscriptions_open',
      'scopa_clock_expiries_total',
      'scopa_webhook_deliveries_total',
    ]) {
      expect(res.text).toContain(`# TYPE ${name}`);
    }
  });
});
