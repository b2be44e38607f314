/**
 * Vacations for correspondence play (docs/async-play.md "Vacations") over the
 * public API, one instance on PGlite. The clock is driven by hand
 * (CLOCK_POLL_MS = 0: each poll() is one tick of the clock scan and its
 * deadline jobs), and a day is made short the way the clock tests do it: the
 * test moves the deadline of a P1D turn a few seconds ahead in its
 * match_clocks row. The vacation's own jobs ('vacation-clocks') run on the
 * job queue's workers, at its until.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ClockSchedulerService } from '../src/clocks/clock-scheduler.service';
import { PrismaService } from '../src/database/prisma.service';
import { auditJsonl } from '../src/match-formats/export';
import { createTestApp } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(180_000);

const ENV = { CLOCK_POLL_MS: '0', WEBHOOK_POLL_MS: '0', BOT_SWEEP_MS: '0', JOB_POLL_SECONDS: '0.5', VACATION_DAYS_PER_YEAR: '30' };
const DAY_MS = 86_400_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('vacations (e2e, PGlite, one instance)', () => {
  let app: INestApplication;
  let prisma: PrismaService;
  let clocks: ClockSchedulerService;
  const saved: Record<string, string | undefined> = {};
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  beforeAll(async () => {
    for (const k of Object.keys(ENV)) saved[k] = process.env[k];
    app = await createTestApp(ENV);
    prisma = app.get(PrismaService);
    clocks = app.get(ClockSchedulerService);
  });
  afterAll(async () => {
    await app?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  async function call(method: 'get' | 'post' | 'delete', who: Account, path: string, body?: object, ifMatch?: number): Promise<request.Response> {
    let req = http()[method](path).set('authorization', auth(who));
    if (ifMatch !== undefined) req = req.set('if-match', `"${ifMatch}"`);
    return body ? req.send(body) : req;
  }
  async function ok(method: 'get' | 'post' | 'delete', who: Account, path: string, body?: object, ifMatch?: number): Promise<any> {
    const res = await call(method, who, path, body, ifMatch);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  }
  const get = (who: Account, id: string) => ok('get', who, `/v1/matches/${id}`);
  async function events(who: Account, id: string, fromSeq = 1): Promise<any[]> {
    return ok('get', who, `/v1/matches/${id}/events?fromSeq=${fromSeq}&limit=1000`);
  }
  async function playOne(who: Account, id: string): Promise<any> {
    const legal = await ok('get', who, `/v1/matches/${id}/legal-plays`);
    const p = legal.plays.find((x: any) => x.capture.length > 0) ?? legal.plays[0];
    return ok('post', who, `/v1/matches/${id}/plays`, { card: p.card, capture: p.capture }, legal.seq);
  }
  /** A two-player match between a and b, started, with `first` to move. */
  async function duel(a: Account, b: Account, settings: Record<string, unknown>, first: Account): Promise<any> {
    const m = await ok('post', a, '/v1/matches', { preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: b.username }], ...settings });
    await ok('post', b, `/v1/matches/${m.id}/join`);
    await ok('post', a, `/v1/matches/${m.id}/start`);
    const other = first === a ? b : a;
    const v = await get(other, m.id);
    if (v.view.turn === v.view.viewer) await playOne(other, m.id);
    return get(first, m.id);
  }
  async function clockRow(id: string): Promise<{ seat: number; seq: number; deadline: Date | null; remaining_ms: number | null } | undefined> {
    const rows = await prisma.$queryRawUnsafe<any[]>(
      'SELECT seat, seq, deadline, remaining_ms::double precision AS remaining_ms FROM match_clocks WHERE match_id = $1::uuid',
      id,
    );
    return rows[0];
  }
  /** The turn's deadline moved to `ms` from now: a short day. */
  const deadlineIn = (id: string, ms: number) =>
    prisma.$executeRawUnsafe(`UPDATE match_clocks SET deadline = now() + make_interval(secs => $2::double precision / 1000) WHERE match_id = $1::uuid`, id, ms);
  const startVacation = (who: Account, untilMs: number) => call('post', who, '/v1/account/vacation', { until: new Date(Date.now() + untilMs).toISOString() });

  it('a correspondence clock stands still while its player is on vacation, resumes at its until with the time it had left, then expires as usual; live clocks run on; the log audits as sound', async () => {
    const a = await register(app, 'va');
    const b = await register(app, 'vb');
    const corr = await duel(a, b, { turnTimeLimit: 'P1D', onExpiry: 'forfeit' }, a);
    const live = await duel(a, b, { turnTimeLimit: 'PT1H', onExpiry: 'forfeit' }, a);
    const seat = corr.view.viewer as number;
    await deadlineIn(corr.id, 4000);
    const liveBefore = (await clockRow(live.id))!;

    const started = await startVacation(a, 7000);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ allowanceDays: 30 });
    expect(new Date(started.body.onVacationUntil).getTime()).toBeGreaterThan(Date.now());

    // The pause is in the log, by the system, and the clock keeps the time it had left (no deadline runs).
    const paused = await events(a, corr.id, corr.seq + 1);
    expect(paused.map((e) => [e.type, e.payload.seat, e.actor])).toEqual([['ClockPaused', seat, null]]);
    const row = (await clockRow(corr.id))!;
    expect(row.deadline).toBeNull();
    expect(row.remaining_ms).toBeGreaterThan(2500);
    expect(row.remaining_ms).toBeLessThanOrEqual(4000);
    const remaining = row.remaining_ms!;
    // Opponents see it: the seat's clock paused, its player on vacation until then; the inbox and the profile say it.
    const seen = await get(b, corr.id);
    expect(seen.view.seats[seat]).toMatchObject({ clock: { paused: true }, onVacationUntil: started.body.onVacationUntil });
    expect(seen.view.seats[1 - seat]).toMatchObject({ clock: { paused: false }, onVacationUntil: null });
    const inbox = (await ok('get', a, '/v1/inbox')).find((e: any) => e.matchId === corr.id);
    expect(inbox).toMatchObject({ paused: true, deadline: null, onVacationUntil: started.body.onVacationUntil });
    expect((await ok('get', b, `/v1/users/${a.username}`)).onVacationUntil).toBe(started.body.onVacationUntil);

    // The live match is untouched: no event, the same deadline, its clock not paused.
    expect((await events(a, live.id, live.seq + 1)).length).toBe(0);
    const liveRow = (await clockRow(live.id))!;
    expect(liveRow.remaining_ms).toBeNull();
    expect(new Date(liveRow.deadline!).getTime()).toBe(new Date(liveBefore.deadline!).getTime());
    expect((await get(b, live.id)).view.seats[seat].clock).toEqual({ paused: false });

    // Past the deadline it had: nothing expires.
    await sleep(5000);
    await clocks.poll();
    expect((await events(a, corr.id, corr.seq + 1)).map((e) => e.type)).toEqual(['ClockPaused']);

    // At its until, the vacation's job resumes the clock with the time it had left.
    let resumed: any[] = [];
    for (const until = Date.now() + 15_000; Date.now() < until; await sleep(200)) {
      resumed = await events(a, corr.id, corr.seq + 2);
      if (resumed.length > 0) break;
    }
    expect(resumed.map((e) => [e.type, e.payload.seat, e.actor])).toEqual([['ClockResumed', seat, null]]);
    const after = (await clockRow(corr.id))!;
    expect(after.remaining_ms).toBeNull();
    const given = new Date(after.deadline!).getTime() - new Date(resumed[0].time).getTime();
    expect(Math.abs(given - remaining)).toBeLessThan(250);
    expect((await get(b, corr.id)).view.seats[seat]).toMatchObject({ clock: { paused: false }, onVacationUntil: null });
    expect((await ok('get', a, '/v1/account/vacation')).onVacationUntil).toBeNull();

    // Then it expires as usual, at that deadline.
    await clocks.poll();
    expect((await events(a, corr.id, corr.seq + 3)).length).toBe(0);
    await sleep(Math.max(0, new Date(after.deadline!).getTime() - Date.now()) + 100);
    await clocks.poll();
    const end = await events(a, corr.id, corr.seq + 3);
    expect(end.map((e) => e.type)).toEqual(['SeatForfeited', 'MatchEnded']);
    expect(end[0].payload.seat).toBe(seat);

    // Replay at the pause shows the paused clock; the audit re-decides the pauses; the offline audit of the export too.
    expect((await ok('get', b, `/v1/matches/${corr.id}?atSeq=${corr.seq + 1}`)).view.seats[seat].clock).toEqual({ paused: true });
    const verdict = await ok('get', a, `/v1/matches/${corr.id}/audit`);
    expect(verdict).toMatchObject({ sound: true, checked: 'chain+rules' });
    const exported = await http().get(`/v1/matches/${corr.id}/export`).set('authorization', auth(a)).buffer(true);
    expect(exported.status).toBe(200);
    const offline = auditJsonl(exported.text);
    expect(offline).toMatchObject({ sound: true });
    expect(exported.text).toContain('"ClockPaused"');
    expect((await get(a, corr.id)).view.rulesVersion).toBe('scopa-rules/5');
  });

  it('a turn that comes to a player on vacation starts paused with the whole turn time; ending the vacation early resumes it; over GraphQL', async () => {
    const a = await register(app, 'vc');
    const b = await register(app, 'vd');
    const m = await duel(a, b, { turnTimeLimit: 'P1D' }, b);
    const seatA = 1 - (m.view.viewer as number);
    const until = new Date(Date.now() + 3 * DAY_MS).toISOString();
    const bBefore = (await clockRow(m.id))!;
    const started = await gqlOk(app, a.token, 'mutation($u: DateTime!) { startVacation(until: $u) { onVacationUntil allowanceDays daysLeft } }', { u: until });
    expect(started.startVacation.onVacationUntil).toBe(until);
    expect(started.startVacation.daysLeft).toBeGreaterThan(26.9);
    expect(started.startVacation.daysLeft).toBeLessThan(27.1);
    // a is not to move: b's clock runs on, a's seat is paused
    const bRow = (await clockRow(m.id))!;
    expect(bRow.remaining_ms).toBeNull();
    expect(bRow.seq).toBe(bBefore.seq + 1);
    expect(new Date(bRow.deadline!).getTime()).toBe(new Date(bBefore.deadline!).getTime());
    expect((await get(b, m.id)).view.seats[seatA].clock).toEqual({ paused: true });

    await playOne(b, m.id);
    const row = (await clockRow(m.id))!;
    expect(row.seat).toBe(seatA);
    expect(row.deadline).toBeNull();
    expect(row.remaining_ms).toBe(DAY_MS);

    const seen = await gqlOk(app, b.token, 'query($id: ID!) { match(id: $id) { view { seats { seat onVacationUntil clock { paused } } } } }', { id: m.id });
    expect(seen.match.view.seats[seatA]).toEqual({ seat: seatA, onVacationUntil: until, clock: { paused: true } });

    const ended = await gqlOk(app, a.token, 'mutation { endVacation { onVacationUntil daysLeft } }');
    expect(ended.endVacation.onVacationUntil).toBeNull();
    // ended within seconds: it counts only to its end
    expect(ended.endVacation.daysLeft).toBeGreaterThan(29.99);
    const resumed = (await clockRow(m.id))!;
    expect(resumed.remaining_ms).toBeNull();
    const left = new Date(resumed.deadline!).getTime() - Date.now();
    expect(left).toBeGreaterThan(DAY_MS - 10_000);
    expect(left).toBeLessThanOrEqual(DAY_MS);
    const log = (await events(a, m.id)).filter((e) => e.type === 'ClockPaused' || e.type === 'ClockResumed');
    expect(log.map((e) => [e.type, e.payload.seat])).toEqual([
      ['ClockPaused', seatA],
      ['ClockResumed', seatA],
    ]);
  });

  it('a vacation cannot stop a clock that already ran out', async () => {
    const a = await register(app, 've');
    const b = await register(app, 'vf');
    const m = await duel(a, b, { turnTimeLimit: 'P1D', onExpiry: 'forfeit' }, a);
    await prisma.$executeRawUnsafe(`UPDATE match_clocks SET deadline = now() - interval '1 second' WHERE match_id = $1::uuid`, m.id);
    expect((await startVacation(a, DAY_MS)).status).toBe(200);
    expect((await events(a, m.id, m.seq + 1)).length).toBe(0);
    await clocks.poll();
    expect((await events(a, m.id, m.seq + 1)).map((e) => e.type)).toEqual(['SeatForfeited', 'MatchEnded']);
    await ok('delete', a, '/v1/account/vacation');
  });

  it('the allowance is enforced: VACATION_DAYS_PER_YEAR in any 365 days, LIMIT_REACHED with details beyond it; one vacation at a time', async () => {
    const a = await register(app, 'vg');
    const over = await startVacation(a, 31 * DAY_MS);
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('LIMIT_REACHED');
    expect(over.body).toMatchObject({ limit: 'VACATION_DAYS_PER_YEAR', allowanceDays: 30 });
    expect(over.body.daysLeft).toBeGreaterThan(29.99);
    expect(Date.parse(over.body.latestUntil)).toBeGreaterThan(Date.now() + 29.9 * DAY_MS);

    // 25 days taken 100 days ago (in the last 365) leave 5.
    await prisma.$executeRawUnsafe(
      `INSERT INTO vacations (id, account_id, username, started_at, until, ended_at)
       VALUES (gen_random_uuid(), $1::uuid, $2, now() - interval '100 days', now() - interval '75 days', now() - interval '75 days')`,
      a.id,
      a.username,
    );
    // 40 days taken 400 days ago no longer count.
    await prisma.$executeRawUnsafe(
      `INSERT INTO vacations (id, account_id, username, started_at, until, ended_at)
       VALUES (gen_random_uuid(), $1::uuid, $2, now() - interval '400 days', now() - interval '360 days', now() - interval '360 days')`,
      a.id,
      a.username,
    );
    const status = await ok('get', a, '/v1/account/vacation');
    expect(status).toMatchObject({ onVacationUntil: null, allowanceDays: 30 });
    expect(status.daysLeft).toBeGreaterThan(4.99);
    expect(status.daysLeft).toBeLessThanOrEqual(5);
    const refused = await gql(app, a.token, 'mutation($u: DateTime!) { startVacation(until: $u) { onVacationUntil } }', {
      u: new Date(Date.now() + 6 * DAY_MS).toISOString(),
    });
    expect(errorCode(refused)).toBe('LIMIT_REACHED');
    expect((await startVacation(a, 4 * DAY_MS)).status).toBe(200);
    const twice = await startVacation(a, DAY_MS / 2);
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('CONFLICT');
    // A running vacation counts to its until.
    expect((await ok('get', a, '/v1/account/vacation')).daysLeft).toBeLessThan(1.01);
    expect((await startVacation(a, -60_000)).status).toBe(409);
    await ok('delete', a, '/v1/account/vacation');
    expect((await startVacation(a, -60_000)).status).toBe(400);
  });

  it('challenges to a player on vacation are refused (CHALLENGE_REFUSED with onVacationUntil)', async () => {
    const a = await register(app, 'vh');
    const b = await register(app, 'vi');
    const started = await startVacation(b, DAY_MS);
    expect(started.status).toBe(200);
    const res = await call('post', a, '/v1/challenges', { username: b.username, preset: 'scopa', turnTimeLimit: 'P2D' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'CHALLENGE_REFUSED', onVacationUntil: started.body.onVacationUntil });
    await ok('delete', b, '/v1/account/vacation');
    expect((await call('post', a, '/v1/challenges', { username: b.username, preset: 'scopa', turnTimeLimit: 'P2D' })).status).toBe(201);
  });
});
