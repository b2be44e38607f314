/**
 * Challenges over the public API on PGlite (docs/lobby.md "Challenges"): accepted
 * (the match is made and started at once, seats as asked), declined,
 * canceled, expired (CHALLENGE_TTL), refused by the acceptChallenges setting;
 * the other party's PlayerEvents and webhook outbox rows; answers racing.
 */
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { PUB_SUB } from '../src/realtime/realtime.module';
import type { PubSubEngine } from '../src/realtime/realtime.module';
import { playerChannel } from '../src/realtime/channels';
import type { PlayerEvent } from '../src/inbox/player-events';
import { createTestApp } from './support/app';
import { errorCode, gql, gqlOk, register } from './support/clients';
import type { Account } from './support/clients';

jest.setTimeout(120_000);

const ENV = { CHALLENGE_TTL: 'PT2S', WEBHOOK_POLL_MS: '0', WEBHOOK_ALLOW_PRIVATE: 'true', CLOCK_POLL_MS: '0' };
const CHALLENGE_FIELDS = 'id challenger destUser preset turnTimeLimit onExpiry rated seat status declineReason matchId expiresAt';

/** The PlayerEvents published to a player from now on. */
function listen(
  app: INestApplication,
  player: string,
): { events: PlayerEvent[]; next: <T extends PlayerEvent['type']>(type: T) => Promise<Extract<PlayerEvent, { type: T }>>; stop: () => void } {
  const pubsub = app.get<PubSubEngine>(PUB_SUB);
  const it = pubsub.asyncIterableIterator<PlayerEvent>(playerChannel(player));
  const events: PlayerEvent[] = [];
  const waiting: { type: string; resolve: (e: PlayerEvent) => void }[] = [];
  void (async () => {
    for await (const e of it as AsyncIterable<PlayerEvent>) {
      events.push(e);
      for (const w of waiting.splice(0)) w.type === e.type ? w.resolve(e) : waiting.push(w);
    }
  })();
  return {
    events,
    next: <T extends PlayerEvent['type']>(type: T) => {
      type Of = Extract<PlayerEvent, { type: T }>;
      const seen = events.find((e): e is Of => e.type === type);
      return seen ? Promise.resolve(seen) : new Promise<Of>((resolve) => waiting.push({ type, resolve: (e) => resolve(e as Of) }));
    },
    stop: () => void it.return?.(),
  };
}

describe('challenges (e2e, PGlite)', () => {
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;
  const hook = async (a: Account) =>
    expect((await http().post('/v1/webhooks').set('authorization', auth(a)).send({ url: 'http://127.0.0.1:9/hook' })).status).toBe(201);
  const deliveries = async (a: Account): Promise<{ event: string; payload: any }[]> =>
    (await http().get('/v1/webhooks/deliveries').set('authorization', auth(a))).body;

  beforeAll(async () => {
    app = await createTestApp(ENV);
  });
  afterAll(async () => {
    await app.close();
  });

  it('accepted: the match is created with both seats taken and started; each side hears of it (event, webhook)', async () => {
    const alice = await register(app, 'cha');
    const bob = await register(app, 'chb');
    await hook(alice);
    await hook(bob);
    const bobHears = listen(app, bob.username);
    const aliceHears = listen(app, alice.username);
    const made = await gqlOk(app, alice.token, `mutation($i: ChallengeInput!) { challenge(input: $i) { ${CHALLENGE_FIELDS} } }`, {
      i: { username: bob.username.toUpperCase(), preset: 'scopa', turnTimeLimit: 'P1D', seat: 1 },
    });
    const c = made.challenge;
    expect(c).toMatchObject({ challenger: alice.username, destUser: bob.username, status: 'pending', seat: 1, matchId: null, turnTimeLimit: 'P1D' });
    expect((await bobHears.next('challengeReceived')).challenge).toMatchObject({ id: c.id, challenger: alice.username });

    // Both see it in their lists: bob's in, alice's out.
    const bobList = (await http().get('/v1/challenges').set('authorization', auth(bob))).body;
    expect(bobList.in.map((x: any) => x.id)).toEqual([c.id]);
    expect(bobList.out).toEqual([]);
    const aliceList = await gqlOk(app, alice.token, `{ myChallenges { in { id } out { id status } } }`);
    expect(aliceList.myChallenges).toEqual({ in: [], out: [{ id: c.id, status: 'pending' }] });

    // Only bob answers; a stranger does not even see it.
    expect((await http().post(`/v1/challenges/${c.id}/accept`).set('authorization', auth(alice))).status).toBe(403);
    const carol = await register(app, 'chc');
    expect((await http().post(`/v1/challenges/${c.id}/accept`).set('authorization', auth(carol))).body.code).toBe('NOT_FOUND');

    const accepted = await http().post(`/v1/challenges/${c.id}/accept`).set('authorization', auth(bob)).send({});
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted' });
    const matchId = accepted.body.matchId;
    expect(matchId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await aliceHears.next('challengeAccepted')).matchId).toBe(matchId);

    const m = (await http().get(`/v1/matches/${matchId}`).set('authorization', auth(bob))).body;
    expect(m.status).toBe('playing');
    expect(m.view.seats.map((s: any) => s.player)).toEqual([bob.username, alice.username]);
    expect(m.view.settings).toMatchObject({ turnTimeLimit: 'P1D' });
    expect(m.view.hand).toHaveLength(3);
    // The log is a create then a start, by the challenger: it audits sound.
    const events = (await http().get(`/v1/matches/${matchId}/events`).set('authorization', auth(bob))).body;
    expect(events.map((e: any) => e.type).slice(0, 3)).toEqual(['MatchCreated', 'MatchStarted', 'RoundDealt']);
    expect((await http().get(`/v1/matches/${matchId}/audit`).set('authorization', auth(bob))).body).toMatchObject({ sound: true });

    // Answered once: a second accept (or a cancel) is a conflict that changes nothing.
    const again = await http().post(`/v1/challenges/${c.id}/accept`).set('authorization', auth(bob));
    expect([again.status, again.body.code, again.body.challengeStatus]).toEqual([409, 'CONFLICT', 'accepted']);
    expect((await http().post(`/v1/challenges/${c.id}/cancel`).set('authorization', auth(alice))).status).toBe(409);
    expect((await http().get('/v1/challenges').set('authorization', auth(bob))).body.in).toEqual([]);

    // Webhooks: bob was told of the challenge, alice of the acceptance.
    expect((await deliveries(bob)).map((d) => d.event)).toContain('challenge_received');
    const aliceHooks = await deliveries(alice);
    expect(aliceHooks.find((d) => d.event === 'challenge_accepted')?.payload).toMatchObject({ matchId });
    bobHears.stop();
    aliceHears.stop();
  });

  it('two accepts racing make one match', async () => {
    const alice = await register(app, 'cra');
    const bob = await register(app, 'crb');
    const c = (await http().post('/v1/challenges').set('authorization', auth(alice)).send({ username: bob.username, preset: 'scopa' })).body;
    const answers = await Promise.all([1, 2, 3].map(() => http().post(`/v1/challenges/${c.id}/accept`).set('authorization', auth(bob))));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const mine = (await http().get('/v1/matches').set('authorization', auth(bob))).body;
    expect(mine).toHaveLength(1);
    expect(mine[0].status).toBe('playing');
  });

  it('declined with a reason (GraphQL): the challenger hears of it; a free-text reason is refused', async () => {
    const alice = await register(app, 'cda');
    const bob = await register(app, 'cdb');
    await hook(alice);
    const aliceHears = listen(app, alice.username);
    const c = (await http().post('/v1/challenges').set('authorization', auth(alice)).send({ username: bob.username, preset: 'scopa' })).body;
    expect(c.seat).toBeNull();
    expect(
      errorCode(
        await gql(app, bob.token, `mutation($id: ID!, $r: DeclineReason) { declineChallenge(id: $id, reason: $r) { id } }`, { id: c.id, r: 'you smell' }),
      ),
    ).toBe('VALIDATION_FAILED');
    const d = await gqlOk(app, bob.token, `mutation($id: ID!, $r: DeclineReason) { declineChallenge(id: $id, reason: $r) { status declineReason matchId } }`, {
      id: c.id,
      r: 'later',
    });
    expect(d.declineChallenge).toEqual({ status: 'declined', declineReason: 'later', matchId: null });
    expect((await aliceHears.next('challengeDeclined')).challenge).toMatchObject({ id: c.id, declineReason: 'later' });
    expect((await deliveries(alice)).map((x) => x.event)).toContain('challenge_declined');
    expect((await http().post(`/v1/challenges/${c.id}/accept`).set('authorization', auth(bob))).body).toMatchObject({
      code: 'CONFLICT',
      challengeStatus: 'declined',
    });
    expect((await http().get('/v1/matches').set('authorization', auth(bob))).body).toEqual([]);
    aliceHears.stop();
  });

  it('canceled by the challenger (only): the challenged player hears of it and can no longer accept', async () => {
    const alice = await register(app, 'cca');
    const bob = await register(app, 'ccb');
    const bobHears = listen(app, bob.username);
    const c = (await http().post('/v1/challenges').set('authorization', auth(alice)).send({ username: bob.username, preset: 'scopa' })).body;
    expect((await http().post(`/v1/challenges/${c.id}/cancel`).set('authorization', auth(bob))).status).toBe(403);
    const canceled = await gqlOk(app, alice.token, `mutation($id: ID!) { cancelChallenge(id: $id) { status } }`, { id: c.id });
    expect(canceled.cancelChallenge.status).toBe('canceled');
    expect((await bobHears.next('challengeCanceled')).challenge).toMatchObject({ id: c.id });
    expect((await http().post(`/v1/challenges/${c.id}/accept`).set('authorization', auth(bob))).body).toMatchObject({
      code: 'CONFLICT',
      challengeStatus: 'canceled',
    });
    bobHears.stop();
  });

  it('expires after CHALLENGE_TTL: no longer listed, accepting it is a conflict', async () => {
    const alice = await register(app, 'cea');
    const bob = await register(app, 'ceb');
    const c = (await http().post('/v1/challenges').set('authorization', auth(alice)).send({ username: bob.username, preset: 'scopa' })).body;
    expect(new Date(c.expiresAt).getTime() - new Date(c.createdAt).getTime()).toBe(2000);
    await new Promise((r) => setTimeout(r, 2200));
    expect((await http().get('/v1/challenges').set('authorization', auth(bob))).body.in).toEqual([]);
    expect((await http().get(`/v1/challenges/${c.id}`).set('authorization', auth(bob))).body.status).toBe('expired');
    expect((await http().post(`/v1/challenges/${c.id}/accept`).set('authorization', auth(bob))).body).toMatchObject({
      code: 'CONFLICT',
      challengeStatus: 'expired',
    });
    expect((await http().get('/v1/matches').set('authorization', auth(bob))).body).toEqual([]);
  });

  it('refused by the acceptChallenges setting: none refuses all, known only players met in a match', async () => {
    const alice = await register(app, 'csa');
    const bob = await register(app, 'csb');
    const carol = await register(app, 'csc');
    expect((await http().get('/v1/account').set('authorization', auth(bob))).body).toEqual({ acceptChallenges: 'everyone', language: null });
    expect((await http().patch('/v1/account').set('authorization', auth(bob)).send({ acceptChallenges: 'sometimes' })).body.code).toBe('VALIDATION_FAILED');
    expect((await http().patch('/v1/account').set('authorization', auth(bob)).send({ acceptChallenges: 'none' })).body).toEqual({
      acceptChallenges: 'none',
      language: null,
    });
    const refused = await http().post('/v1/challenges').set('authorization', auth(alice)).send({ username: bob.username, preset: 'scopa' });
    expect([refused.status, refused.body.code]).toEqual([403, 'CHALLENGE_REFUSED']);

    const known = await gqlOk(app, bob.token, `mutation { updateAccount(input: { acceptChallenges: known }) { acceptChallenges } }`);
    expect(known.updateAccount.acceptChallenges).toBe('known');
    expect((await http().post('/v1/challenges').set('authorization', auth(carol)).send({ username: bob.username, preset: 'scopa' })).body.code).toBe(
      'CHALLENGE_REFUSED',
    );
    // bob and alice play a match together: now alice may challenge him, carol still not.
    const m = (
      await http()
        .post('/v1/matches')
        .set('authorization', auth(alice))
        .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] })
    ).body;
    expect((await http().post('/v1/challenges').set('authorization', auth(alice)).send({ username: bob.username, preset: 'scopa' })).body.code).toBe(
      'CHALLENGE_REFUSED',
    );
    await http().post(`/v1/matches/${m.id}/join`).set('authorization', auth(bob)).send({}).expect(200);
    await http().post(`/v1/matches/${m.id}/start`).set('authorization', auth(bob)).send({}).expect(200);
    // started is not yet played to a result
    expect((await http().post('/v1/challenges').set('authorization', auth(alice)).send({ username: bob.username, preset: 'scopa' })).body.code).toBe(
      'CHALLENGE_REFUSED',
    );
    await playToResult(m.id, [alice, bob]);
    expect((await http().post('/v1/challenges').set('authorization', auth(alice)).send({ username: bob.username, preset: 'scopa' })).status).toBe(201);
    expect((await http().post('/v1/challenges').set('authorization', auth(carol)).send({ username: bob.username, preset: 'scopa' })).body.code).toBe(
      'CHALLENGE_REFUSED',
    );
  });

  /** One card played by the seat to move, then the other seat resigns: a started match ended with a result. */
  async function playToResult(matchId: string, players: Account[]): Promise<void> {
    const match = (await http().get(`/v1/matches/${matchId}`).set('authorization', auth(players[0]))).body;
    const mover = players.find((p) => p.username === match.view.seats[match.view.turn].player)!;
    const legal = (await http().get(`/v1/matches/${matchId}/legal-plays`).set('authorization', auth(mover))).body;
    const play = legal.plays[0];
    await http()
      .post(`/v1/matches/${matchId}/plays`)
      .set('authorization', auth(mover))
      .set('if-match', `"${legal.seq}"`)
      .send({ card: play.card, capture: play.capture, idempotencyKey: `k-${matchId}` })
      .expect(200);
    const other = players.find((p) => p !== mover)!;
    const resigned = await http().post(`/v1/matches/${matchId}/resign`).set('authorization', auth(other)).send({});
    expect([resigned.status, resigned.body.status, resigned.body.view.result.reason]).toEqual([200, 'over', 'resignation']);
  }

  it('known is a match played to a result: a stranger who joins a public lobby match and aborts it (before or after the start) is no acquaintance', async () => {
    const victim = await register(app, 'ckv');
    const stranger = await register(app, 'cks');
    expect((await http().patch('/v1/account').set('authorization', auth(victim)).send({ acceptChallenges: 'known' })).body).toEqual({
      acceptChallenges: 'known',
      language: null,
    });
    const challenge = () => http().post('/v1/challenges').set('authorization', auth(stranger)).send({ username: victim.username, preset: 'scopa' });
    const lobbyMatch = async () => {
      const m = (
        await http()
          .post('/v1/matches')
          .set('authorization', auth(victim))
          .send({ preset: 'scopa', seats: [{ type: 'creator' }, { type: 'open' }] })
      ).body;
      await http().post(`/v1/matches/${m.id}/join`).set('authorization', auth(stranger)).send({}).expect(200);
      return m.id as string;
    };

    // joined, then aborted before the start: the bypass of issue 26
    const open = await lobbyMatch();
    const aborted = await http().post(`/v1/matches/${open}/abort`).set('authorization', auth(stranger)).send({});
    expect([aborted.status, aborted.body.status, aborted.body.view.result.reason]).toEqual([200, 'over', 'aborted']);
    const refused = await challenge();
    expect([refused.status, refused.body.code]).toEqual([403, 'CHALLENGE_REFUSED']);

    // started, then aborted before the first play (over GraphQL): no result either
    const started = await lobbyMatch();
    await http().post(`/v1/matches/${started}/start`).set('authorization', auth(victim)).send({}).expect(200);
    expect((await gqlOk(app, stranger.token, 'mutation($id: ID!) { abort(matchId: $id) { status } }', { id: started })).abort.status).toBe('over');
    expect((await challenge()).body.code).toBe('CHALLENGE_REFUSED');

    // a match both played to a result: now known
    const played = await lobbyMatch();
    await http().post(`/v1/matches/${played}/start`).set('authorization', auth(victim)).send({}).expect(200);
    await playToResult(played, [victim, stranger]);
    expect((await challenge()).status).toBe(201);
  });

  it('bad challenges are clear 4xx errors that make nothing', async () => {
    const alice = await register(app, 'cba');
    const bob = await register(app, 'cbb');
    const post = (body: Record<string, unknown>) => http().post('/v1/challenges').set('authorization', auth(alice)).send(body);
    expect((await post({ username: alice.username, preset: 'scopa' })).body.code).toBe('VALIDATION_FAILED');
    expect((await post({ username: 'nobody-here', preset: 'scopa' })).body.code).toBe('NOT_FOUND');
    expect((await post({ username: bob.username })).body.code).toBe('VALIDATION_FAILED');
    expect((await post({ username: bob.username, preset: 'scopone' })).body.code).toBe('VALIDATION_FAILED');
    expect((await post({ username: bob.username, preset: 'scopa', overrides: { target: -3 } })).body.code).toBe('INVALID_RULESET');
    expect((await post({ username: bob.username, preset: 'scopa', turnTimeLimit: 'soon' })).body.code).toBe('VALIDATION_FAILED');
    expect((await post({ username: bob.username, preset: 'scopa', seat: 2 })).body.code).toBe('VALIDATION_FAILED');
    expect((await http().post('/v1/challenges/not-a-uuid/accept').set('authorization', auth(bob))).status).toBe(404);
    expect((await http().get('/v1/challenges').set('authorization', auth(bob))).body).toEqual({ in: [], out: [] });
  });
});

describe('an accepted challenge with a client-seed window (e2e, PGlite)', () => {
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const auth = (a: Account) => `Bearer ${a.token}`;

  beforeAll(async () => {
    app = await createTestApp({ CLIENT_SEED_WINDOW: '60', CLOCK_POLL_MS: '0' });
  });
  afterAll(async () => {
    await app.close();
    process.env.CLIENT_SEED_WINDOW = '0';
  });

  it('records a pending start in the acceptance: the match deals as soon as both players gave their seeds', async () => {
    const alice = await register(app, 'cwa');
    const bob = await register(app, 'cwb');
    const c = (await http().post('/v1/challenges').set('authorization', auth(alice)).send({ username: bob.username, preset: 'scopa', seat: 0 })).body;
    const accepted = (await http().post(`/v1/challenges/${c.id}/accept`).set('authorization', auth(bob)).expect(200)).body;
    const open = (await http().get(`/v1/matches/${accepted.matchId}`).set('authorization', auth(bob))).body;
    expect(open.status).toBe('open');
    expect(new Date(open.startsAt).getTime()).toBeGreaterThan(Date.now() + 50_000);
    await http()
      .post(`/v1/matches/${accepted.matchId}/client-seed`)
      .set('authorization', auth(alice))
      .send({ clientSeed: 'a1'.repeat(16) })
      .expect(200);
    const last = (
      await http()
        .post(`/v1/matches/${accepted.matchId}/client-seed`)
        .set('authorization', auth(bob))
        .send({ clientSeed: 'b2'.repeat(16) })
        .expect(200)
    ).body;
    expect(last.status).toBe('playing');
    expect(last.view.clientSeeds).toEqual(['a1'.repeat(16), 'b2'.repeat(16)]);
    const events = (await http().get(`/v1/matches/${accepted.matchId}/events`).set('authorization', auth(bob))).body;
    expect(events.find((e: any) => e.type === 'MatchStarted').actor).toBe(alice.username);
  });
});
