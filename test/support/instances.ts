import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/app.setup';
import { PrismaService } from '../../src/database/prisma.service';
import { listenOnLoopback } from './app';

/**
 * One service instance on a shared PostgreSQL database, listening on a free
 * port: several of these in one process behave as separate replicas (own
 * pools, own Redis connections, own caches).
 */
export async function startInstance(databaseUrl: string, env: Record<string, string>): Promise<{ app: INestApplication; http: string; ws: string }> {
  process.env.JWT_SECRET ??= 'test-secret-for-e2e';
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(PrismaService)
      .useFactory({ factory: () => new PrismaService({ url: databaseUrl, poolSize: 5 }) })
      .compile();
    const app = configureApp(moduleRef.createNestApplication({ logger: ['error'], bodyParser: false }));
    await app.init();
    const { http, ws } = await listenOnLoopback(app);
    return { app, http, ws };
  } finally {
    // the instance read its settings at construction; leave the process as it was
    for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key];
    Object.assign(process.env, saved);
  }
}
