/**
 * Rated play that cannot be gamed (issue 26, item 5), over the public API on
 * PGlite:
 * - resigning right after the deal, with no card played, rates nothing (it is
 *   an abort for the ratings, as lichess does for a game of fewer than two
 *   moves); the match says why it did not count;
 * - leaving after the deal before every side played (resign, abort) is
 *   recorded per player; more than 3 of a player's last 10 dealt rated matches
 *   suspend their rated play for an hour (RATED_PLAY_SUSPENDED with `until`)
 *   on every way in: create, join, seek, challenge, accept, rematch; unrated
 *   play goes on; a rebuild from the logs gives the same records;
 * - a rated match whose seats could never fill is refused at creation.
 */
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { PrismaService } from '../src/database/prisma.service';
import { RatingsRecorder } from '../src/ratings/ratings-recorder.service';
import { RatingsService } from '../src/ratings/ratings.service';
import { createTestApp } from './support/app';
import { errorCode, gql, register } from './support/clients';
import type { Account } from './support/clients';
import { playOneCardEach } from './support/play';

const HOUR = 3_600_000;

describe('rated play that cannot be gamed (e2e, PGlite)', () => {
  let app: INestApplication;
  const saved: Record<string, string | undefined> = {};
  const ENV = { RATE_LIMIT: '1000000' };
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  beforeAll(async () => {
    for (const k of Object.keys(ENV)) saved[k] = process.env[k];
    app = await createTestApp(ENV);
  });

  afterAll(async () => {
    await app?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  /** A rated (or unrated) scopa match of a and b, dealt. */
  async function dealt(a: Account, b: Account, rated = true): Promise<string> {
    const created = await http()
      .post('/v1/matches')
      .set('authorization', auth(a))
      .send({ preset: 'scopa', rated, seats: [{ type: 'creator' }, { type: 'reserved', username: b.username }] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await http().post(`/v1/matches/${id}/join`).set('authorization', auth(b)).send({})).status).toBe(200);
    expect((await http().post(`/v1/matches/${id}/start`).set('authorization', auth(a)).send({})).status).toBe(200);
    return id;
  }

  /** The match once the ratings took it (the recorder runs right after the end). */
  async function taken(id: string, who: Account): Promise<any> {
    await app.get(RatingsRecorder).idle();
    const res = await http().get(`/v1/matches/${id}`).set('authorization', auth(who));
    expect(res.status).toBe(200);
    return res.body;
  }

  async function endTime(id: string, who: Account): Promise<number> {
    const events = (await http().get(`/v1/matches/${id}/events?limit=1000`).set('authorization', auth(who))).body as { type: string; time: string }[];
    return new Date(events.find((e) => e.type === 'MatchEnded')!.time).getTime();
  }

  it('eight resignations right after the deal move no rating; the match says it was not rated', async () => {
    const ann = await register(app, 'ann');
    const shills = [await register(app, 'shill'), await register(app, 'shill'), await register(app, 'shill')];
    // As the probe did (1500 -> 1826 in eight games), spread over accounts that each stay under the suspension.
    for (let i = 0; i < 8; i++) {
      const shill = shills[i % 3];
      const id = await dealt(ann, shill);
      const resigned = await http().post(`/v1/matches/${id}/resign`).set('authorization', auth(shill)).send({});
      expect([resigned.status, resigned.body.view.result]).toEqual([200, { reason: 'resignation', winner: 0 }]);
      const match = await taken(id, ann);
      expect(match.ratingChanges).toEqual([]);
      expect(match.unratedReason).toMatch(/before every side had played a card/);
      const data = await gql(app, ann.token, 'query($id: ID!) { match(id: $id) { ratingChanges { player } unratedReason } }', { id });
      expect(data.data.match).toEqual({ ratingChanges: [], unratedReason: match.unratedReason });
    }
    expect((await http().get(`/v1/users/${ann.username}`)).body.ratings).toEqual([]);
    expect((await http().get(`/v1/users/${shills[0].username}`)).body.ratings).toEqual([]);

    // Once each side has played a card, a resignation is a result and rates both.
    const id = await dealt(ann, shills[0]);
    await playOneCardEach(app, [ann, shills[0]], id);
    expect((await http().post(`/v1/matches/${id}/resign`).set('authorization', auth(shills[0])).send({})).status).toBe(200);
    const match = await taken(id, ann);
    expect(match.unratedReason).toBeNull();
    expect(match.ratingChanges.map((c: { player: string; result: string }) => [c.player, c.result]).sort()).toEqual(
      [
        [ann.username, 'win'],
        [shills[0].username, 'loss'],
      ].sort(),
    );
    expect((await http().get(`/v1/users/${ann.username}`)).body.ratings.map((r: { games: number }) => r.games)).toEqual([1]);
  });

  it('deal shopping: more than 3 of the last 10 dealt rated matches left early suspend rated play for an hour, everywhere', async () => {
    const ann = await register(app, 'ann');
    const eve = await register(app, 'eve');
    const bob = await register(app, 'bob');
    // Aborts before the deal (no hand seen) do not count.
    for (let i = 0; i < 4; i++) {
      const open = await http().post('/v1/matches').set('authorization', auth(eve)).send({ preset: 'scopa', rated: true });
      expect((await http().post(`/v1/matches/${open.body.id}/abort`).set('authorization', auth(eve)).send({})).status).toBe(200);
    }
    await app.get(RatingsRecorder).idle();
    expect((await http().post('/v1/matches').set('authorization', auth(eve)).send({ preset: 'scopa', rated: true })).status).toBe(201);

    // Three leavings after the deal (two aborts, one resignation before her first card): still allowed.
    const left: string[] = [];
    for (const how of ['abort', 'abort', 'resign'] as const) {
      const id = await dealt(ann, eve);
      expect((await http().post(`/v1/matches/${id}/${how}`).set('authorization', auth(eve)).send({})).status).toBe(200);
      left.push(id);
    }
    await app.get(RatingsRecorder).idle();
    const fourth = await dealt(ann, eve);
    expect((await http().post(`/v1/matches/${fourth}/abort`).set('authorization', auth(eve)).send({})).status).toBe(200);
    await app.get(RatingsRecorder).idle();
    const until = (await endTime(fourth, eve)) + HOUR;

    // The fourth leaving of her last ten: no rated play until an hour after it.
    const create = await http().post('/v1/matches').set('authorization', auth(eve)).send({ preset: 'scopa', rated: true });
    expect([create.status, create.body.code]).toEqual([403, 'RATED_PLAY_SUSPENDED']);
    expect(new Date(create.body.until).getTime()).toBe(until);
    expect(create.body.player).toBe(eve.username);
    const viaGql = await gql(app, eve.token, 'mutation { createMatch(input: { preset: "scopa", rated: true }) { id } }');
    expect(errorCode(viaGql)).toBe('RATED_PLAY_SUSPENDED');
    expect(new Date(viaGql.errors![0].extensions.until as string).getTime()).toBe(until);

    const suspended = (res: request.Response) => expect([res.status, res.body.code]).toEqual([403, 'RATED_PLAY_SUSPENDED']);
    // Joining someone's rated match.
    const open = await http().post('/v1/matches').set('authorization', auth(bob)).send({ preset: 'scopa', rated: true });
    suspended(await http().post(`/v1/matches/${open.body.id}/join`).set('authorization', auth(eve)).send({}));
    // A rated seek.
    suspended(await http().post('/v1/seeks').set('authorization', auth(eve)).send({ preset: 'scopa', rated: true }));
    // A rated challenge, made or accepted.
    suspended(await http().post('/v1/challenges').set('authorization', auth(eve)).send({ username: bob.username, preset: 'scopa', rated: true }));
    const challenge = await http().post('/v1/challenges').set('authorization', auth(bob)).send({ username: eve.username, preset: 'scopa', rated: true });
    expect(challenge.status).toBe(201);
    suspended(await http().post(`/v1/challenges/${challenge.body.id}/accept`).set('authorization', auth(eve)).send({}));
    // The rematch of a rated match: refused when the last player asks.
    const finished = left[2]; // the one she resigned
    expect((await http().post(`/v1/matches/${finished}/rematch`).set('authorization', auth(ann)).send({})).status).toBe(200);
    suspended(await http().post(`/v1/matches/${finished}/rematch`).set('authorization', auth(eve)).send({}));

    // Unrated play goes on.
    expect((await http().post('/v1/matches').set('authorization', auth(eve)).send({ preset: 'scopa' })).status).toBe(201);
    expect((await http().post('/v1/seeks').set('authorization', auth(eve)).send({ preset: 'scopa' })).status).toBe(201);
    // Others are not touched.
    expect((await http().post('/v1/matches').set('authorization', auth(ann)).send({ preset: 'scopa', rated: true })).status).toBe(201);

    // The records are a projection of the logs: a rebuild gives the same rows.
    const prisma = app.get(PrismaService);
    const rows = () => prisma.ratedPlayer.findMany({ orderBy: [{ matchId: 'asc' }, { player: 'asc' }] });
    const before = await rows();
    expect(before.filter((r) => r.player === eve.username && r.leftEarly).length).toBe(4);
    expect(before.filter((r) => r.player === ann.username && r.leftEarly).length).toBe(0);
    await app.get(RatingsService).rebuild();
    expect(await rows()).toEqual(before);
    const again = await http().post('/v1/matches').set('authorization', auth(eve)).send({ preset: 'scopa', rated: true });
    expect([again.status, again.body.code]).toEqual([403, 'RATED_PLAY_SUSPENDED']);
  });

  it('refuses a rated match whose seats could never fill, naming the seat', async () => {
    const ann = await register(app, 'ann');
    const bob = await register(app, 'bob');
    const self = await http()
      .post('/v1/matches')
      .set('authorization', auth(ann))
      .send({ preset: 'scopa', rated: true, seats: [{ type: 'creator' }, { type: 'reserved', username: ann.username }] });
    expect([self.status, self.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(self.body.detail).toMatch(/seats\[1\].*could never fill/);
    const viaGql = await gql(
      app,
      ann.token,
      'mutation($u: String!) { createMatch(input: { preset: "scopa", rated: true, seats: [{ type: creator }, { type: reserved, username: $u }] }) { id } }',
      {
        u: ann.username,
      },
    );
    expect(errorCode(viaGql)).toBe('VALIDATION_FAILED');
    expect(viaGql.errors![0].message).toMatch(/seats\[1\]/);
    // Rated with the seat reserved for another player is fine.
    expect(
      (
        await http()
          .post('/v1/matches')
          .set('authorization', auth(ann))
          .send({ preset: 'scopa', rated: true, seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] })
      ).status,
    ).toBe(201);
  });
});
