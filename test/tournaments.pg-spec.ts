/**
 * Tournaments on two instances sharing one PostgreSQL database (no Redis:
 * the database alone arbitrates, docs/tournaments.md "Lifecycle", exactly once): a
 * round's last results arriving on both instances at once (each table's end
 * recorded by both, through the after-append pipeline of the instance that
 * appended it and by the other's matchEnded at the same moment) advance the
 * round exactly once: one result per table, one RoundEnded, one RoundPaired
 * with one match per table, and the log audits.
 */
import { jest } from '@jest/globals';
import { TournamentsService } from '../src/tournaments/tournaments.service';
import { auditTournament } from '../src/tournaments/tournament-audit';
import { useTwoPgInstances } from './support/two-pg-instances';

jest.setTimeout(300_000);

describe('tournament rounds on two instances (PostgreSQL)', () => {
  const instances = useTwoPgInstances({ CLOCK_POLL_MS: '0', WEBHOOK_POLL_MS: '0', CLIENT_SEED_WINDOW: '0' });
  const { register, via } = instances;

  it('the last results of a round, on both instances at once, advance the round once (five tournaments)', async () => {
    for (let k = 0; k < 5; k++) {
      const field = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => register(i % 2 ? instances.b.app : instances.a.app, `pt${i}`)));
      const who = new Map(field.map((p) => [p.username, p]));
      const t = (
        await via(0)
          .post('/v1/tournaments')
          .set('authorization', field[0].auth)
          .send({ name: `race ${k}`, format: 'swiss', preset: 'scopa', overrides: { target: 1 }, rounds: 2 })
      ).body;
      for (const [i, p] of field.entries()) await via(i).post(`/v1/tournaments/${t.id}/join`).set('authorization', p.auth).send({}).expect(200);
      await via(1).post(`/v1/tournaments/${t.id}/start`).set('authorization', field[0].auth).send({}).expect(200);
      const r1 = (await via(0).get(`/v1/tournaments/${t.id}/rounds/1`)).body;
      expect(r1.tables).toHaveLength(3);
      // Every table resigned at once, each through one instance, while the other instance records the same end.
      const sa = instances.a.app.get(TournamentsService);
      const sb = instances.b.app.get(TournamentsService);
      const answers = await Promise.all(
        r1.tables.flatMap((x: { table: number; players: string[]; matchId: string }, i: number) => [
          via(i).post(`/v1/matches/${x.matchId}/resign`).set('authorization', who.get(x.players[1])!.auth).send({}),
          (i % 2 ? sa : sb).matchEnded(x.matchId, { winner: 0, totals: [0, 0], reason: 'resignation' }).then(() => ({ status: 200, text: '' })),
        ]),
      );
      expect(answers.filter((r) => r.status !== 200).map((r) => [r.status, r.text])).toEqual([]);
      const exported = (await via(1).get(`/v1/tournaments/${t.id}/export`)).text;
      const events = exported
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const count = (type: string, round: number) => events.filter((e) => e.type === type && e.payload.round === round).length;
      expect(count('MatchResultRecorded', 1)).toBe(3);
      expect(count('RoundEnded', 1)).toBe(1);
      expect(count('RoundPaired', 2)).toBe(1);
      const r2 = (await via(0).get(`/v1/tournaments/${t.id}/rounds/2`)).body;
      expect(r2.tables).toHaveLength(3);
      expect(new Set(r2.tables.map((x: { matchId: string }) => x.matchId)).size).toBe(3);
      // the three round-2 matches are the only matches made after round 1 for these players
      const theirs = (await via(0).get('/v1/matches?limit=100').set('authorization', field[0].auth)).body as { id: string }[];
      expect(theirs).toHaveLength(2);
      const report = auditTournament(exported);
      expect(report.problems).toEqual([]);
      expect(report.rounds).toBe(2);
    }
  });
});
