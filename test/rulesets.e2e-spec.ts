import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { PRESETS, PRESET_IDS } from '../src/engine';
import { createTestApp } from './support/app';

jest.setTimeout(60_000);

describe('rulesets (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('REST: GET /v1/rulesets lists every preset with resolved options and sources', async () => {
    const res = await request(app.getHttpServer()).get('/v1/rulesets');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { id: string }) => p.id)).toEqual([...PRESET_IDS]);
    for (const p of res.body) {
      expect(p.options).toEqual(PRESETS[p.id as keyof typeof PRESETS].defaults);
      expect(p.sources).toEqual(PRESETS[p.id as keyof typeof PRESETS].sources);
      expect(p.name).toEqual(expect.any(String));
      expect(p.summary.split('\n')).toHaveLength(2);
    }
    expect(res.body.find((p: { id: string }) => p.id === 'scopa-d-assi').name).toBe("Scopa d'assi");
  });

  it('GraphQL: rulesets query, the same figures', async () => {
    const res = await request(app.getHttpServer())
      .post('/graphql')
      .send({ query: '{ rulesets { id name summary sources players options { players teams handSize target redealKings primiera } } }' });
    expect(res.status).toBe(200);
    expect(res.body.data.rulesets).toHaveLength(PRESET_IDS.length);
    const scopone = res.body.data.rulesets.find((p: { id: string }) => p.id === 'scopone');
    expect(scopone.options).toMatchObject({ players: 4, teams: true, handSize: 9 });
    expect(scopone).toMatchObject({ name: 'Scopone', summary: expect.stringContaining('partnerships') });
  });

  it('unknown preset: 404 problem+json', async () => {
    const res = await request(app.getHttpServer()).get('/v1/rulesets/nope');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
