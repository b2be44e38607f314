import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AppModule } from '../src/app.module';
import { PrismaService } from '../src/database/prisma.service';
import { pgliteTemplate } from '../src/database/template';

describe('GET /health (e2e)', () => {
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
});
