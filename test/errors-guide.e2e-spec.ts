/**
 * The error guide (docs/errors.md) names every code once, with its HTTP
 * status, and a problem document's `type` is the code's section of that
 * guide as the service renders it (/docs/guides/errors.html), not a URL of
 * a domain nobody serves.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { slugger } from '../scripts/render-guides.mjs';
import { ERROR_CODES } from '../src/common/domain-error';
import { httpStatusOf, problemType } from '../src/common/error-mapping';
import { createTestApp } from './support/app';

const guide = readFileSync(path.join(process.cwd(), 'docs', 'errors.md'), 'utf8');
/** Each `### CODE` heading with the first word of its paragraph. */
const sections = [...guide.matchAll(/^### (\S+)\n(\d{3})\. /gm)].map((m) => ({ code: m[1], status: Number(m[2]) }));

it('every error code has one section with its HTTP status, and the guide has no other', () => {
  expect(sections.map((s) => s.code).sort()).toEqual([...ERROR_CODES].sort());
  for (const { code, status } of sections) expect({ code, status }).toEqual({ code, status: httpStatusOf(code as (typeof ERROR_CODES)[number]) });
});

it("each code's problem type is the rendered guide's anchor of its section", () => {
  const slug = slugger();
  const anchors = new Set([...guide.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
  for (const code of ERROR_CODES) {
    const type = problemType(code);
    expect(type.startsWith('/docs/guides/errors.html#')).toBe(true);
    expect(anchors.has(type.split('#')[1])).toBe(true);
  }
});

describe('over HTTP', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a refusal answers that type', async () => {
    const res = await request(app.getHttpServer()).get('/v1/rulesets/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', type: '/docs/guides/errors.html#not_found' });
  });
});
