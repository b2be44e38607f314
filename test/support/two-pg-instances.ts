/**
 * Two in-process instances of the service on one fresh PostgreSQL database,
 * for the suites that race requests through both (no Redis: the database
 * alone arbitrates) or fan out between them (REDIS_URL in `env`). `env` is
 * both instances' settings, `only` what one of them sets on top. Call inside
 * a `describe`: it registers the beforeAll/afterAll that start and stop them;
 * `a` and `b` are set once beforeAll has run.
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { freshPgDatabase } from '../store/helpers';
import { startInstance } from './instances';

type Instance = Awaited<ReturnType<typeof startInstance>>;

export interface TwoPgInstances {
  readonly a: Instance;
  readonly b: Instance;
  /** A new account registered through `app`: its username, its access token and its `Bearer` authorization header. */
  register(app: INestApplication, prefix: string): Promise<{ username: string; token: string; auth: string }>;
  /** Requests through instance a for even `i`, b for odd. */
  via(i: number): ReturnType<typeof request>;
  /** The database both run on (for a script run beside them). */
  databaseUrl(): string;
}

export function useTwoPgInstances(env: Record<string, string>, only: { a?: Record<string, string>; b?: Record<string, string> } = {}): TwoPgInstances {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    db = await freshPgDatabase();
    a = await startInstance(db.url, { ...env, ...only.a, INSTANCE_ID: 'a' });
    b = await startInstance(db.url, { ...env, ...only.b, INSTANCE_ID: 'b' });
  });
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await db?.drop();
  });

  const suffix = () => Math.random().toString(36).slice(2, 8);
  return {
    get a() {
      return a;
    },
    get b() {
      return b;
    },
    async register(app, prefix) {
      const username = `${prefix}${suffix()}`;
      const res = await request(app.getHttpServer())
        .post('/v1/auth/register')
        .send({ username, password: `pw-${username}-long` });
      expect(res.status).toBe(201);
      const token = res.body.accessToken as string;
      return { username, token, auth: `Bearer ${token}` };
    },
    via: (i) => request((i % 2 ? b : a).app.getHttpServer()),
    databaseUrl: () => db.url,
  };
}
