/**
 * Challenges, rematches and clock-low notices on two instances sharing one
 * PostgreSQL database (no Redis: the database alone arbitrates): answers
 * racing through both instances make exactly one match per challenge and per
 * rematch offer, and every match made audits sound; clock-low ticks of both
 * instances racing send one notice per turn.
 */
import { jest } from '@jest/globals';
import { ClockSchedulerService } from '../src/clocks/clock-scheduler.service';
import { useTwoPgInstances } from './support/two-pg-instances';

jest.setTimeout(180_000);

describe('challenges and rematches on two instances (PostgreSQL)', () => {
  const instances = useTwoPgInstances({ CLOCK_POLL_MS: '0', WEBHOOK_POLL_MS: '0', CLOCK_LOW_FRACTION: '0.8' });
  const { register, via } = instances;

  it('ten challenges, each accepted six times at once through both instances: one started match each, all sound', async () => {
    const ann = await register(instances.a.app, 'pga');
    const bob = await register(instances.b.app, 'pgb');
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const c = await via(i).post('/v1/challenges').set('authorization', ann.auth).send({ username: bob.username, preset: 'scopa', turnTimeLimit: 'P1D' });
      expect(c.status).toBe(201);
      ids.push(c.body.id);
    }
    const answers = await Promise.all(
      ids.flatMap((id) => [0, 1, 2, 3, 4, 5].map((i) => via(i).post(`/v1/challenges/${id}/accept`).set('authorization', bob.auth))),
    );
    expect(answers.filter((r) => r.status >= 500).map((r) => [r.status, r.text])).toEqual([]);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 409).every((r) => r.body.code === 'CONFLICT')).toBe(true);
    const matches = (await via(0).get('/v1/matches?limit=100').set('authorization', bob.auth)).body;
    expect(matches).toHaveLength(10);
    const made = new Set(answers.filter((r) => r.status === 200).map((r) => r.body.matchId));
    expect(new Set(matches.map((m: { id: string }) => m.id))).toEqual(made);
    for (const m of matches) {
      expect(m.status).toBe('playing');
      expect((await via(1).get(`/v1/matches/${m.id}/audit`).set('authorization', bob.auth)).body).toMatchObject({ sound: true });
    }
  });

  it('both players asking for a rematch at once through both instances make one rematch', async () => {
    for (let round = 0; round < 5; round++) {
      const ann = await register(instances.a.app, 'pra');
      const bob = await register(instances.b.app, 'prb');
      const m = (
        await via(0)
          .post('/v1/matches')
          .set('authorization', ann.auth)
          .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] })
      ).body;
      await via(1).post(`/v1/matches/${m.id}/join`).set('authorization', bob.auth).send({}).expect(200);
      await via(0).post(`/v1/matches/${m.id}/start`).set('authorization', ann.auth).send({}).expect(200);
      await via(1).post(`/v1/matches/${m.id}/abort`).set('authorization', bob.auth).send({}).expect(200);
      const asks = await Promise.all([
        via(0).post(`/v1/matches/${m.id}/rematch`).set('authorization', ann.auth),
        via(1).post(`/v1/matches/${m.id}/rematch`).set('authorization', bob.auth),
        via(1).post(`/v1/matches/${m.id}/rematch`).set('authorization', ann.auth),
        via(0).post(`/v1/matches/${m.id}/rematch`).set('authorization', bob.auth),
      ]);
      expect(asks.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const offer = (await via(0).get(`/v1/matches/${m.id}/rematch`).set('authorization', ann.auth)).body;
      expect(offer.status).toBe('accepted');
      const playing = (await via(1).get('/v1/matches?status=playing').set('authorization', ann.auth)).body;
      expect(playing.map((x: { id: string }) => x.id)).toEqual([offer.newMatchId]);
      const n = (await via(1).get(`/v1/matches/${offer.newMatchId}`).set('authorization', ann.auth)).body;
      expect(n.rematchOf).toBe(m.id);
      expect(n.view.seats.map((s: { player: string }) => s.player)).toEqual([bob.username, ann.username]);
    }
  });

  it('clock-low ticks of both instances racing send one notice per turn', async () => {
    const ann = await register(instances.a.app, 'pca');
    const bob = await register(instances.b.app, 'pcb');
    const m = (
      await via(0)
        .post('/v1/matches')
        .set('authorization', ann.auth)
        .send({ preset: 'scopa', turnTimeLimit: 'PT10S', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] })
    ).body;
    await via(1).post(`/v1/matches/${m.id}/join`).set('authorization', bob.auth).send({}).expect(200);
    await via(0).post(`/v1/matches/${m.id}/start`).set('authorization', ann.auth).send({}).expect(200);
    await new Promise((r) => setTimeout(r, 2300));
    const low = [instances.a.app.get(ClockSchedulerService).clockLow, instances.b.app.get(ClockSchedulerService).clockLow];
    const sent = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => low[i % 2].tick()));
    expect(sent.reduce((x, y) => x + y, 0)).toBe(1);
  });
});
