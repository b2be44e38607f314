/**
 * The reactions to a match's end are jobs committed with the append (issue
 * 44), on PGlite through the public API, with no job worker in the process
 * (JOB_WORKERS=0: as if it were killed right after answering the play):
 * - the rated match's end leaves its rating job, and nothing is lost: a
 *   worker run later applies it, once (running it again changes nothing);
 * - ratings follow the order the matches ended, even when the earlier
 *   match's job is left behind (waiting for a retry) and the later one runs
 *   first.
 */
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { PrismaService } from '../src/database/prisma.service';
import { JobQueue } from '../src/jobs/job-queue';
import { jobId } from '../src/jobs/job-ids';
import { RatingsRecorder } from '../src/ratings/ratings-recorder.service';
import { createTestApp } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { playOneCardEach } from './support/play';

describe('durable reactions to a match end (e2e, PGlite, no worker)', () => {
  let app: INestApplication;
  const ENV = { RATE_LIMIT: '1000000', JOB_WORKERS: '0' };
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  beforeAll(async () => {
    app = await createTestApp(ENV);
  });
  afterAll(async () => {
    await app?.close();
    for (const k of Object.keys(ENV)) delete process.env[k];
  });

  async function ratedMatchEnded(a: Account, b: Account): Promise<{ id: string; seq: number }> {
    const created = await http()
      .post('/v1/matches')
      .set('authorization', auth(a))
      .send({ preset: 'scopa', rated: true, seats: [{ type: 'creator' }, { type: 'reserved', username: b.username }] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await http().post(`/v1/matches/${id}/join`).set('authorization', auth(b)).send({})).status).toBe(200);
    expect((await http().post(`/v1/matches/${id}/start`).set('authorization', auth(a)).send({})).status).toBe(200);
    await playOneCardEach(app, [a, b], id);
    const resigned = await http().post(`/v1/matches/${id}/resign`).set('authorization', auth(b)).send({});
    expect(resigned.status).toBe(200);
    expect(resigned.body.status).toBe('over');
    return { id, seq: resigned.body.seq as number };
  }

  const changes = async (id: string, who: Account) =>
    (await http().get(`/v1/matches/${id}`).set('authorization', auth(who))).body.ratingChanges as { player: string; ratingBefore: number }[] | null;

  it('leaves the rating as a job when no worker runs; a later run applies it exactly once', async () => {
    const [ann, bob] = [await register(app, 'dra'), await register(app, 'drb')];
    const m = await ratedMatchEnded(ann, bob);
    const jobs = app.get(JobQueue);
    const id = jobId('match-rating', `${m.id}:${m.seq}`);
    expect(await jobs.state('match-rating', id)).toBe('created');
    expect(await changes(m.id, ann)).toBeNull();

    expect(await jobs.runDue('match-rating')).toEqual(['completed']);
    const after = await changes(m.id, ann);
    expect(after).toHaveLength(2);
    await app.get(RatingsRecorder).run({ id, name: 'match-rating', data: { matchId: m.id, seq: m.seq }, retryCount: 0, retryLimit: 10, createdOn: new Date() });
    expect(await changes(m.id, ann)).toEqual(after);
    const rows = await app.get(PrismaService).$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM rating_changes WHERE match_id = $1::uuid', m.id);
    expect(rows[0].n).toBe(2);
  });

  it('rates in the order the matches ended, even when the later job runs first', async () => {
    const [ann, bob] = [await register(app, 'drc'), await register(app, 'drd')];
    const first = await ratedMatchEnded(ann, bob);
    const second = await ratedMatchEnded(ann, bob);
    const prisma = app.get(PrismaService);
    // The first match's job failed once and waits for its retry: the second one is fetched first.
    await prisma.$executeRawUnsafe(
      `UPDATE pgboss.job SET state = 'retry', start_after = now() + interval '1 hour' WHERE name = 'match-rating' AND id = $1::uuid`,
      jobId('match-rating', `${first.id}:${first.seq}`),
    );
    expect(await app.get(JobQueue).runDue('match-rating')).toEqual(['completed']);
    const a = (await changes(first.id, ann))!.find((c) => c.player === ann.username)!;
    const b = (await changes(second.id, ann))!.find((c) => c.player === ann.username)!;
    expect(a.ratingBefore).toBe(1500);
    expect(b.ratingBefore).not.toBe(1500); // the second match was rated after the first
  });
});
