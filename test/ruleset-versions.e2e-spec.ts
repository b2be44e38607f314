import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { PrismaService } from '../src/database/prisma.service';
import { createTestApp } from './support/app';
import { register } from './support/clients';
import { describeRulesetRace } from './rulesets/ruleset-race';

jest.setTimeout(120_000);

let app: INestApplication;

describeRulesetRace('PGlite, one instance', async () => {
  app = await createTestApp();
  return { targets: [app.getHttpServer()], saves: 24, creations: 12, close: () => app.close() };
});

describe('a used ruleset version, in the database itself', () => {
  let own: INestApplication;
  beforeAll(async () => {
    own = await createTestApp();
  });
  afterAll(async () => {
    await own?.close();
  });

  it('the database refuses to change a version once a match uses it, and leaves an unused one editable', async () => {
    const a = await register(own, 'frozen');
    const http = () => request(own.getHttpServer());
    const saved = await http().post('/v1/custom-rulesets').set('authorization', `Bearer ${a.token}`).send({ name: 'fixed', preset: 'scopa', overrides: { target: 3 } });
    expect(saved.status).toBe(201);
    const prisma = own.get(PrismaService);
    // unused: a plain update goes through (and is put back)
    await prisma.$executeRawUnsafe(`UPDATE rulesets SET options = options WHERE id = $1::uuid`, saved.body.id);
    const match = await http().post('/v1/matches').set('authorization', `Bearer ${a.token}`).send({ rulesetId: saved.body.id });
    expect(match.status).toBe(201);
    await expect(prisma.$executeRawUnsafe(`UPDATE rulesets SET overrides = '{"target": 7}'::jsonb WHERE id = $1::uuid`, saved.body.id)).rejects.toThrow(/used by a match/);
    await expect(prisma.$executeRawUnsafe(`UPDATE rulesets SET locked_at = NULL WHERE id = $1::uuid`, saved.body.id)).rejects.toThrow(/used by a match/);
    const kept = await http().get(`/v1/custom-rulesets/${saved.body.id}`).set('authorization', `Bearer ${a.token}`);
    expect(kept.body).toMatchObject({ version: 1, locked: true, options: { target: 3 } });
  });
});
