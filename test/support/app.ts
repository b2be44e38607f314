import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/app.setup';
import { PrismaService } from '../../src/database/prisma.service';
import { pgliteTemplate } from './db-template';

/** A full application, as main.ts builds it, on its own in-memory PGlite database. */
export async function createTestApp(env: Record<string, string> = {}): Promise<INestApplication> {
  process.env.JWT_SECRET ??= 'test-secret-for-e2e';
  Object.assign(process.env, env);
  const template = await pgliteTemplate();
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(PrismaService)
    .useFactory({ factory: () => new PrismaService({ dataDir: 'memory', loadDataDir: template }) })
    .compile();
  const app = configureApp(moduleRef.createNestApplication({ logger: ['error'], bodyParser: false }));
  await app.init();
  return app;
}

/** Listens on a free loopback port: the port, the service's base URL and its graphql-ws endpoint. */
export async function listenOnLoopback(app: INestApplication): Promise<{ port: number; http: string; ws: string }> {
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { port, http: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}/graphql` };
}
