/**
 * GraphiQL at /graphiql: the page and every asset it loads come from the
 * service itself (the build of graphiql/, made here if missing), none from
 * another origin, under the same CSP as every other page.
 */
import { jest } from '@jest/globals';
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { graphiqlDir } from '../src/web/graphiql';
import { createTestApp } from './support/app';
import { loadConfig } from '../src/config/config';

jest.setTimeout(300_000);

describe('GraphiQL at /graphiql (e2e)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    if (!existsSync(path.join(graphiqlDir(loadConfig()), 'index.html'))) execSync('npm run build:graphiql', { stdio: 'inherit' });
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves the page at /graphiql and /graphiql/, with the CSP of the other routes', async () => {
    for (const url of ['/graphiql', '/graphiql/']) {
      const res = await request(app.getHttpServer()).get(url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<div id="graphiql">');
      const csp = res.headers['content-security-policy'];
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toContain('unsafe-eval');
    }
  });

  it('every script, style and worker it loads is a local file the service serves', async () => {
    const page = (await request(app.getHttpServer()).get('/graphiql/')).text;
    const refs = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ref).toMatch(/^\/graphiql\/assets\//);
    // the files the bundle loads at run time (chunks, workers, fonts) are in the build too
    const assets = readdirSync(path.join(graphiqlDir(loadConfig()), 'assets'));
    expect(assets.some((f) => /worker.*\.js$/.test(f))).toBe(true);
    for (const ref of refs) {
      const res = await request(app.getHttpServer()).get(ref);
      expect({ ref, status: res.status }).toEqual({ ref, status: 200 });
    }
    // nothing in the page or its entry script loads from a CDN
    const entry = readFileSync(
      path.join(graphiqlDir(loadConfig()), refs.find((r) => r.endsWith('.js') && r.includes('index'))!.replace('/graphiql/', '')),
      'utf8',
    );
    expect(page + entry).not.toMatch(/(unpkg\.com|jsdelivr\.net|esm\.sh|cdnjs)/);
  });

  it('leaves the API alone: /graphql, /v1 and unknown /graphiql files answer as before', async () => {
    expect((await request(app.getHttpServer()).get('/graphiql/assets/nope.js')).status).toBe(404);
    const gql = await request(app.getHttpServer()).post('/graphql').send({ query: '{ rulesets { id } }' });
    expect(gql.status).toBe(200);
    expect(gql.body.data.rulesets.length).toBeGreaterThan(0);
  });
});
