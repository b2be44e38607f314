/**
 * A round's advance is off the player's request (issue 44): the play that
 * ends a round's last game answers with its own append only; the result and
 * the next round's pairing are jobs ('tournament-result', then
 * 'tournament-round' queued in the result's transaction), and the round is
 * paired once however often its job runs. Tournament reads wait for those
 * jobs (the read barrier). Here the process runs no workers (JOB_WORKERS=0):
 * the test runs each job itself, so it sees the state in between.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createTestApp } from './support/app';
import { register } from './support/clients';
import type { Account } from './support/clients';
import { JobQueue } from '../src/jobs/job-queue';
import { jobId } from '../src/jobs/job-ids';
import { PrismaService } from '../src/database/prisma.service';
import { TournamentsService, roundJobKey } from '../src/tournaments/tournaments.service';
import { auditTournament } from '../src/tournaments/tournament-audit';

jest.setTimeout(120_000);

describe('tournament rounds as jobs (e2e, PGlite, no workers)', () => {
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const before = process.env.JOB_WORKERS;

  beforeAll(async () => {
    app = await createTestApp({ CLIENT_SEED_WINDOW: '0', CLOCK_POLL_MS: '0', WEBHOOK_POLL_MS: '0', JOB_WORKERS: '0' });
  });
  afterAll(async () => {
    await app.close();
    if (before === undefined) delete process.env.JOB_WORKERS;
    else process.env.JOB_WORKERS = before;
  });

  const post = async (who: Account, path: string, status = 200) => {
    const res = await http().post(path).set('authorization', `Bearer ${who.token}`).send({});
    if (res.status !== status) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  /** The log as stored, read without the read barrier. */
  const log = async (id: string) => app.get(TournamentsService).log.events(app.get(PrismaService), id);
  const count = (events: { type: string; payload: { round?: number } }[], type: string, round: number) =>
    events.filter((e) => e.type === type && e.payload.round === round).length;

  it("the play ending a round's last game answers before its result and the next round exist; the round job pairs once, run twice or at once", async () => {
    const field: Account[] = [];
    for (let i = 0; i < 4; i++) field.push(await register(app, 'rj'));
    const who = new Map(field.map((p) => [p.username, p]));
    const created = (
      await http()
        .post('/v1/tournaments')
        .set('authorization', `Bearer ${field[0].token}`)
        .send({ name: 'Jobs', format: 'swiss', preset: 'scopa', overrides: { target: 1 }, rounds: 2 })
    ).body as { id: string };
    const id = created.id;
    for (const p of field) await post(p, `/v1/tournaments/${id}/join`);
    // The start pairs round 1 in its own transaction: its answer shows it.
    expect(await post(field[0], `/v1/tournaments/${id}/start`)).toMatchObject({ status: 'started', currentRound: 1 });
    const svc = app.get(TournamentsService);
    const jobs = app.get(JobQueue);
    const r1 = await svc.round(id, 1);
    expect(r1.tables).toHaveLength(2);
    const [first, last] = r1.tables;

    await post(who.get(first.players[1])!, `/v1/matches/${first.matchId}/resign`);
    expect(await jobs.runDue('tournament-result')).toEqual(['completed']);
    expect(count(await log(id), 'MatchResultRecorded', 1)).toBe(1);

    // The last game of the round: its answer is the match's end, and nothing of the tournament has moved yet.
    const ended = await post(who.get(last.players[1])!, `/v1/matches/${last.matchId}/resign`);
    expect(ended.status).toBe('over');
    let events = await log(id);
    expect(count(events, 'MatchResultRecorded', 1)).toBe(1);
    expect(count(events, 'RoundPaired', 2)).toBe(0);
    const resultJob = jobId('tournament-result', `${last.matchId}:${ended.seq}`);
    expect(await jobs.state('tournament-result', resultJob)).toBe('created');

    // A read waits for the jobs (here run by the test) and then shows round 2.
    const reading = http()
      .get(`/v1/tournaments/${id}`)
      .then((r) => r.body as { currentRound: number });
    await new Promise((r) => setTimeout(r, 100));

    // The result job records the result and queues the round's job, in one transaction: still no pairing.
    expect(await jobs.runDue('tournament-result')).toEqual(['completed']);
    events = await log(id);
    expect(count(events, 'MatchResultRecorded', 1)).toBe(2);
    expect(count(events, 'RoundEnded', 1)).toBe(0);
    const roundJob = jobId('tournament-round', roundJobKey(id, 1));
    expect(await jobs.state('tournament-round', roundJob)).toBe('created');

    // The round job's handler, twice at once and once more after: one RoundEnded, one RoundPaired, one match per table.
    const runs = await Promise.all([svc.advanceRound(id, 1), svc.advanceRound(id, 1)]);
    expect(runs.sort()).toEqual([false, true]);
    expect(await svc.advanceRound(id, 1)).toBe(false);
    expect(await jobs.runDue('tournament-round')).toEqual(['completed']);
    events = await log(id);
    expect(count(events, 'RoundEnded', 1)).toBe(1);
    expect(count(events, 'RoundPaired', 2)).toBe(1);
    expect((await reading).currentRound).toBe(2);
    const r2 = await svc.round(id, 2);
    expect(new Set(r2.tables.map((x) => x.matchId)).size).toBe(2);

    // Round 2, the last: its job ends the tournament, once.
    for (const x of r2.tables) await post(who.get(x.players[1])!, `/v1/matches/${x.matchId}/resign`);
    expect(count(await log(id), 'MatchResultRecorded', 2)).toBe(0);
    expect(await jobs.runDue('tournament-result')).toEqual(['completed', 'completed']);
    expect(await jobs.runDue('tournament-round')).toEqual(['completed']);
    expect(await svc.advanceRound(id, 2)).toBe(false);
    events = await log(id);
    expect(events.filter((e) => e.type === 'TournamentEnded')).toHaveLength(1);
    expect(await svc.get(id)).toMatchObject({ status: 'finished', endReason: 'completed', currentRound: 2 });
    expect(auditTournament((await http().get(`/v1/tournaments/${id}/export`)).text).problems).toEqual([]);
  });

  it('a read whose jobs nobody runs answers after its bound, with what is there', async () => {
    const field: Account[] = [];
    for (let i = 0; i < 2; i++) field.push(await register(app, 'rb'));
    const id = (
      await http()
        .post('/v1/tournaments')
        .set('authorization', `Bearer ${field[0].token}`)
        .send({ name: 'Bound', format: 'swiss', preset: 'scopa', overrides: { target: 1 }, rounds: 1 })
    ).body.id as string;
    for (const p of field) await post(p, `/v1/tournaments/${id}/join`);
    await post(field[0], `/v1/tournaments/${id}/start`);
    const svc = app.get(TournamentsService);
    const [table] = (await svc.round(id, 1)).tables;
    const loser = field.find((p) => p.username === table.players[1])!;
    await post(loser, `/v1/matches/${table.matchId}/resign`);
    const t0 = Date.now();
    await svc.settle(id, 300);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    expect(count(await log(id), 'MatchResultRecorded', 1)).toBe(0);
    // once the jobs ran, the read answers at once
    await app.get(JobQueue).runDue('tournament-result');
    await app.get(JobQueue).runDue('tournament-round');
    const t1 = Date.now();
    expect(await svc.get(id)).toMatchObject({ status: 'finished' });
    expect(Date.now() - t1).toBeLessThan(1000);
  });
});
