import { jest } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'yaml';
import { openApiYaml } from '../src/common/openapi';
import { createTestApp } from './support/app';

jest.setTimeout(120_000);

/**
 * The committed contracts are what the code builds: schema.graphql (the SDL
 * of the code-first schema) and openapi.yaml (from the REST decorators).
 * `npm run contracts` (UPDATE_CONTRACTS=1) rewrites both.
 */
describe('committed API contracts (e2e)', () => {
  const update = process.env.UPDATE_CONTRACTS === '1';
  const built = path.join(mkdtempSync(path.join(tmpdir(), 'scopa-schema-')), 'schema.graphql');
  let app: INestApplication;

  beforeAll(async () => {
    app = await createTestApp({ GRAPHQL_SCHEMA_FILE: built });
  });
  afterAll(async () => {
    delete process.env.GRAPHQL_SCHEMA_FILE;
    await app?.close();
  });

  it('schema.graphql is the schema the code builds', () => {
    const sdl = readFileSync(built, 'utf8');
    const file = path.join(process.cwd(), 'schema.graphql');
    if (update) writeFileSync(file, sdl);
    expect(existsSync(file) ? readFileSync(file, 'utf8') : '').toBe(sdl);
  });

  it('openapi.yaml is the document the code builds, and valid OpenAPI 3', async () => {
    const yaml = openApiYaml(app);
    const file = path.join(process.cwd(), 'openapi.yaml');
    if (update) writeFileSync(file, yaml);
    expect(readFileSync(file, 'utf8')).toBe(yaml);
    const result = await new Validator().validate(parse(yaml));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
