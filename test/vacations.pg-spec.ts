/**
 * Vacations on two instances of one PostgreSQL database (docs/async-play.md
 * "Vacations"): both scan the clocks every second and both run job workers,
 * nothing driven by hand. A correspondence match whose player goes on
 * vacation (through instance b) does not expire during it on either
 * instance, resumes at its until (the 'vacation-clocks' job, run by one of
 * them) with the time it had left, and then expires once, as usual. A day is
 * made short as in the clock tests: the P1D turn's deadline is moved a few
 * seconds ahead in its match_clocks row.
 */
import { jest } from '@jest/globals';
import request from 'supertest';
import { PrismaService } from '../src/database/prisma.service';
import { useTwoPgInstances } from './support/two-pg-instances';

jest.setTimeout(120_000);

const ENV = { CLOCK_POLL_MS: '1000', JOB_POLL_SECONDS: '0.5', JOB_WORKERS: '1', BOT_SWEEP_MS: '0', WEBHOOK_POLL_MS: '0' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('vacations (PostgreSQL, two instances)', () => {
  const two = useTwoPgInstances(ENV);

  it('a paused correspondence clock expires on neither instance during the vacation, resumes once at its until with its time left, then expires once', async () => {
    const A = () => request(two.a.app.getHttpServer());
    const B = () => request(two.b.app.getHttpServer());
    const prisma = two.a.app.get(PrismaService);
    const ann = await two.register(two.a.app, 'pva');
    const bob = await two.register(two.b.app, 'pvb');

    const created = await B()
      .post('/v1/matches')
      .set('authorization', ann.auth)
      .send({ preset: 'scopa', turnTimeLimit: 'P1D', onExpiry: 'forfeit', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await A().post(`/v1/matches/${id}/join`).set('authorization', bob.auth)).status).toBeLessThan(300);
    const started = await B().post(`/v1/matches/${id}/start`).set('authorization', ann.auth);
    expect(started.status).toBeLessThan(300);
    const view = (await A().get(`/v1/matches/${id}`).set('authorization', ann.auth)).body;
    const mover = view.view.turn === view.view.viewer ? ann : bob;
    const seat = view.view.turn as number;
    const seq = view.seq as number;
    const log = async (from: number): Promise<any[]> =>
      (await A().get(`/v1/matches/${id}/events?fromSeq=${from}&limit=100`).set('authorization', ann.auth)).body;

    await prisma.$executeRawUnsafe(`UPDATE match_clocks SET deadline = now() + interval '4 seconds' WHERE match_id = $1::uuid`, id);
    const vacation = await B()
      .post('/v1/account/vacation')
      .set('authorization', mover.auth)
      .send({ until: new Date(Date.now() + 7000).toISOString() });
    expect(vacation.status).toBe(200);
    const [row] = await prisma.$queryRawUnsafe<{ deadline: Date | null; remaining_ms: number }[]>(
      'SELECT deadline, remaining_ms::double precision AS remaining_ms FROM match_clocks WHERE match_id = $1::uuid',
      id,
    );
    expect(row.deadline).toBeNull();
    expect(row.remaining_ms).toBeGreaterThan(3000);
    const remaining = row.remaining_ms;
    // Read through the other instance: the seat's clock is paused.
    expect((await A().get(`/v1/matches/${id}`).set('authorization', ann.auth)).body.view.seats[seat].clock).toEqual({ paused: true });

    // Past the deadline it had, with both instances scanning: nothing expires.
    await sleep(5500);
    expect((await log(seq + 1)).map((e) => e.type)).toEqual(['ClockPaused']);

    // At its until, one of the instances resumes it, once, with the time it had left.
    let resumed: any[] = [];
    for (const until = Date.now() + 15_000; Date.now() < until; await sleep(100)) {
      resumed = await log(seq + 2);
      if (resumed.length > 0) break;
    }
    expect(resumed.map((e) => [e.type, e.payload.seat, e.actor])).toEqual([['ClockResumed', seat, null]]);
    const [after] = await prisma.$queryRawUnsafe<{ deadline: Date }[]>('SELECT deadline FROM match_clocks WHERE match_id = $1::uuid', id);
    expect(Math.abs(new Date(after.deadline).getTime() - new Date(resumed[0].time).getTime() - remaining)).toBeLessThan(250);

    // Then it expires as usual, once, within the documented delay of that deadline.
    let end: any[] = [];
    for (const until = Date.now() + remaining + 10_000; Date.now() < until; await sleep(100)) {
      end = await log(seq + 3);
      if (end.length > 0) break;
    }
    expect(end.map((e) => e.type)).toEqual(['SeatForfeited', 'MatchEnded']);
    expect(new Date(end[0].time).getTime() - new Date(after.deadline).getTime()).toBeGreaterThanOrEqual(0);
    expect(new Date(end[0].time).getTime() - new Date(after.deadline).getTime()).toBeLessThan(Number(ENV.JOB_POLL_SECONDS) * 1000 + 1500);
    await sleep(1500);
    expect((await log(seq + 1)).map((e) => e.type)).toEqual(['ClockPaused', 'ClockResumed', 'SeatForfeited', 'MatchEnded']);
    const verdict = (await B().get(`/v1/matches/${id}/audit`).set('authorization', bob.auth)).body;
    expect(verdict).toMatchObject({ sound: true, checked: 'chain+rules' });
  });
});
