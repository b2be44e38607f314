/**
 * The job queue's dead letters for an operator (GET /v1/admin/jobs, issue
 * 44) on PGlite: a job that failed for good is listed, with its error, for a
 * user of ADMIN_USERS only (403 for anyone else, 401 without credentials); a
 * bad query is VALIDATION_FAILED. Responses are checked against openapi.yaml.
 */
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { PrismaService } from '../src/database/prisma.service';
import { JobQueue } from '../src/jobs/job-queue';
import { jobId } from '../src/jobs/job-ids';
import { createTestApp } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';

describe('dead letters for the admin role (e2e, PGlite)', () => {
  let app: INestApplication;
  let admin: Account;
  let player: Account;
  const http = () => request(app.getHttpServer());
  const ENV = { JOB_WORKERS: '0', ADMIN_USERS: 'ops-admin' };

  beforeAll(async () => {
    app = await createTestApp(ENV);
    const res = await http().post('/v1/auth/register').send({ username: 'ops-admin', password: 'password-of-ops-admin' });
    expect(res.status).toBe(201);
    admin = { username: 'ops-admin', token: res.body.accessToken, id: res.body.account.id };
    player = await register(app, 'opsplayer');
  });
  afterAll(async () => {
    await app?.close();
    for (const k of Object.keys(ENV)) delete process.env[k];
  });

  it('lists a job that failed for good, with its error, to an admin only', async () => {
    // A tournament result for a match that does not exist: its handler fails every run.
    const jobs = app.get(JobQueue);
    await app.get(PrismaService).$executeRawUnsafe(`UPDATE pgboss.queue SET retry_limit = 0 WHERE name = 'tournament-result'`);
    const missing = '00000000-0000-4000-8000-000000000000';
    await jobs.send('tournament-result', { matchId: missing, seq: 9 }, { id: jobId('tournament-result', `${missing}:9`) });
    expect(await jobs.runDue('tournament-result')).toEqual(['failed']);

    const listed = await http().get('/v1/admin/jobs?state=failed').set('authorization', `Bearer ${admin.token}`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({
        id: jobId('tournament-result', `${missing}:9`),
        kind: 'tournament-result',
        state: 'failed',
        data: { matchId: missing, seq: 9 },
        retryCount: 0,
        retryLimit: 0,
      }),
    ]);
    expect(JSON.stringify(listed.body[0].error)).toMatch(/.+/);
    const byKind = await http().get('/v1/admin/jobs?state=failed&kind=match-rating').set('authorization', `Bearer ${admin.token}`);
    expect(byKind.status).toBe(200);
    expect(byKind.body).toEqual([]);

    const refused = await http().get('/v1/admin/jobs?state=failed').set('authorization', `Bearer ${player.token}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect((await http().get('/v1/admin/jobs?state=failed')).status).toBe(401);
  });

  it('refuses a state other than failed, an unknown kind and a bad limit, as VALIDATION_FAILED', async () => {
    for (const q of ['state=created', '', 'state=failed&kind=nope', 'state=failed&limit=0', 'state=failed&limit=abc', 'state=failed&offset=-1']) {
      const res = await http().get(`/v1/admin/jobs?${q}`).set('authorization', `Bearer ${admin.token}`);
      expect([res.status, res.body.code, q]).toEqual([400, 'VALIDATION_FAILED', q]);
    }
  });
});
