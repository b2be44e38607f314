import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DomainError } from '../src/common/domain-error';
import { PrismaService } from '../src/database/prisma.service';
import { MatchStore } from '../src/match-store/match-store';
import { CustomRulesetsService } from '../src/rulesets/custom-rulesets.service';
import { createTestApp } from './support/app';
import { register } from './support/clients';
import { describeRulesetRace } from './rulesets/ruleset-race';

jest.setTimeout(120_000);

let app: INestApplication;

describeRulesetRace('PGlite, one instance', async () => {
  app = await createTestApp();
  return { targets: [app.getHttpServer()], saves: 24, creations: 12, spreadMs: 400, close: () => app.close() };
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
    const saved = await http()
      .post('/v1/custom-rulesets')
      .set('authorization', `Bearer ${a.token}`)
      .send({ name: 'fixed', preset: 'scopa', overrides: { target: 3 } });
    expect(saved.status).toBe(201);
    const prisma = own.get(PrismaService);
    // unused: a plain update goes through (and is put back)
    await prisma.$executeRawUnsafe(`UPDATE rulesets SET options = options WHERE id = $1::uuid`, saved.body.id);
    const match = await http().post('/v1/matches').set('authorization', `Bearer ${a.token}`).send({ rulesetId: saved.body.id });
    expect(match.status).toBe(201);
    await expect(prisma.$executeRawUnsafe(`UPDATE rulesets SET overrides = '{"target": 7}'::jsonb WHERE id = $1::uuid`, saved.body.id)).rejects.toThrow(
      /used by a match/,
    );
    await expect(prisma.$executeRawUnsafe(`UPDATE rulesets SET locked_at = NULL WHERE id = $1::uuid`, saved.body.id)).rejects.toThrow(/used by a match/);
    const kept = await http().get(`/v1/custom-rulesets/${saved.body.id}`).set('authorization', `Bearer ${a.token}`);
    expect(kept.body).toMatchObject({ version: 1, locked: true, options: { target: 3 } });
  });

  it('the create statement writes a match from a ruleset only if the version still holds what was resolved, and locks it', async () => {
    const a = await register(own, 'stale');
    const saved = await request(own.getHttpServer())
      .post('/v1/custom-rulesets')
      .set('authorization', `Bearer ${a.token}`)
      .send({ name: 'stale', preset: 'scopa', overrides: { target: 3 } });
    const prisma = own.get(PrismaService);
    const store = new MatchStore(prisma);
    const matches = async () => (await prisma.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM matches'))[0].n;
    const before = await matches();
    // resolved as target 5, but the version holds target 3 (a save edited it after the read)
    const stale = { id: saved.body.id, preset: 'scopa', overrides: { target: 5 } };
    const refused = await store
      .create({ preset: 'scopa', overrides: stale.overrides, seats: [{ player: a.username }], createdBy: a.username, ruleset: stale })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'CONFLICT', details: { rulesetChanged: true } });
    expect(await matches()).toBe(before);
    expect((await request(own.getHttpServer()).get(`/v1/custom-rulesets/${saved.body.id}`).set('authorization', `Bearer ${a.token}`)).body.locked).toBe(false);
    const fresh = { id: saved.body.id, preset: 'scopa', overrides: { target: 3 } };
    const created = await store.create({ preset: 'scopa', overrides: fresh.overrides, seats: [{ player: a.username }], createdBy: a.username, ruleset: fresh });
    expect(await matches()).toBe(before + 1);
    expect((await store.get(created.matchId)).rulesetId).toBe(saved.body.id);
    expect((await request(own.getHttpServer()).get(`/v1/custom-rulesets/${saved.body.id}`).set('authorization', `Bearer ${a.token}`)).body.locked).toBe(true);
    // once locked, the same version still creates matches (the statement finds it locked and unchanged)
    await expect(
      store.create({ preset: 'scopa', overrides: fresh.overrides, seats: [{ player: a.username }], createdBy: a.username, ruleset: fresh }),
    ).resolves.toMatchObject({ seq: 1 });
  });

  it('a creation that keeps losing to edits freezes the version, then plays it as frozen', async () => {
    const a = await register(own, 'churn');
    const saved = await request(own.getHttpServer())
      .post('/v1/custom-rulesets')
      .set('authorization', `Bearer ${a.token}`)
      .send({ name: 'churn', preset: 'scopa', overrides: { target: 3 } });
    const rulesets = own.get(CustomRulesetsService);
    const seen: { locked: boolean; target: unknown }[] = [];
    const result = await rulesets.forMatch(saved.body.id, async (ruleset) => {
      const row = (await rulesets.get(ruleset.id)) as { locked: boolean };
      seen.push({ locked: row.locked, target: ruleset.overrides.target });
      // three losses in a row, as under a burst of in-place edits; the fourth attempt gets through
      if (seen.length <= 3) throw new DomainError('CONFLICT', 'ruleset changed', { rulesetChanged: true });
      return 'created';
    });
    expect(result).toBe('created');
    expect(seen).toEqual([
      { locked: false, target: 3 },
      { locked: false, target: 3 },
      { locked: false, target: 3 },
      { locked: true, target: 3 },
    ]);
    // any other error goes straight back to the caller, after one attempt
    let calls = 0;
    await expect(
      rulesets.forMatch(saved.body.id, async () => {
        calls++;
        throw new DomainError('VALIDATION_FAILED', 'bad seats');
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(calls).toBe(1);
  });
});
